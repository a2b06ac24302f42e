package yams

import (
	"fmt"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// Name is the game's name in unit identities and layouts.
const Name = "yams"

// BlockUnits is the number of units in a block (art. 2).
const BlockUnits = 700_000

// Stakes returns the three stakes of art. 2 (mise), lowest first.
func Stakes() []decimal.Decimal {
	return []decimal.Decimal{decimal.New(5, -1), decimal.NewFromInt(1), decimal.NewFromInt(2)}
}

// ValidStake reports whether s is one of the three stakes.
func ValidStake(s decimal.Decimal) bool {
	for _, v := range Stakes() {
		if v.Equal(s) {
			return true
		}
	}
	return false
}

// bracket is one row of the winnings table (art. 4.5): a points range and
// the multiple of the stake it pays, with the number of such lots per block
// (art. 3.1 to 3.3, the same counts at every stake).
type bracket struct {
	lo, hi   int
	multiple int64
	count    int64
}

// brackets lists the winning rows, highest first, in the order of the lot
// tables: tier i of a table is brackets[i].
var brackets = [...]bracket{
	{100, 100, 5000, 1},
	{80, 99, 500, 1},
	{70, 79, 20, 400},
	{50, 69, 10, 18_000},
	{30, 49, 5, 25_000},
	{20, 29, 4, 3_500},
	{15, 19, 3, 5_000},
	{10, 14, 2, 31_000},
	{5, 9, 1, 80_500},
}

// Losing is the tier of losing units (art. 4.6) in every Yam's table.
const Losing = len(brackets)

// Bracket is a row of the winnings table as shown to players.
type Bracket struct {
	Low, High int             // points, inclusive
	Prize     decimal.Decimal // what the row pays at the stake asked
}

// Brackets returns the rows of the winnings table at a stake, highest first.
func Brackets(stake decimal.Decimal) []Bracket {
	out := make([]Bracket, len(brackets))
	for i, b := range brackets {
		out[i] = Bracket{b.lo, b.hi, stake.Mul(decimal.NewFromInt(b.multiple))}
	}
	return out
}

// Table returns the lot table of a block at the given stake (art. 3.1 to 3.3).
func Table(stake decimal.Decimal) (*game.Table, error) {
	if !ValidStake(stake) {
		return nil, fmt.Errorf("stake %s is not one of 0.5, 1, 2", stake)
	}
	t := &game.Table{Units: BlockUnits}
	for _, b := range brackets {
		t.Lots = append(t.Lots, game.Lot{Prize: stake.Mul(decimal.NewFromInt(b.multiple)), Count: b.count})
	}
	return t, nil
}

// TierOf returns the tier a points total falls in: a winning bracket, or
// Losing for 0 to 4 points and for totals above 100 (art. 4.6).
func TierOf(total int) int {
	if total < 0 || total >= len(tiers) {
		return Losing
	}
	return int(tiers[total])
}

// tiers maps every total a unit can make, 0 to 150, to its tier.
var tiers = func() (t [151]uint8) {
	for total := range t {
		t[total] = uint8(Losing)
		for i, b := range brackets {
			if total >= b.lo && total <= b.hi {
				t[total] = uint8(i)
			}
		}
	}
	return t
}()

// Prize returns what a points total pays at a stake (art. 4.5).
func Prize(stake decimal.Decimal, total int) decimal.Decimal {
	return tierPrize(stake, TierOf(total))
}

func tierPrize(stake decimal.Decimal, tier int) decimal.Decimal {
	if tier == Losing {
		return decimal.Zero
	}
	return stake.Mul(multiples[tier])
}

// multiples holds each bracket's multiple of the stake as a decimal.
var multiples = func() (m [Losing]decimal.Decimal) {
	for i, b := range brackets {
		m[i] = decimal.NewFromInt(b.multiple)
	}
	return m
}()

// Unit is a Yam's unit as the player sees it: the stake and three cups
// (unité de jeu: trois tapis, trois gobelets de cinq dés, art. 4.2).
type Unit struct {
	Stake decimal.Decimal
	Cups  [3]Cup
}

// Score is how the regulation scores a unit.
type Score struct {
	Stake        decimal.Decimal
	Combinations [3]Combination
	Points       int // the three cups' points added (art. 4.5)
	Tier         int // the bracket reached, or Losing
	Prize        game.Cents
}

// Score scores the unit: each cup's highest combination, the total, the prize.
func (u *Unit) Score() Score {
	a, b, c := figures.Get().three(&u.Cups)
	total := points[a] + points[b] + points[c]
	tier := TierOf(total)
	return Score{Stake: u.Stake, Combinations: [3]Combination{a, b, c}, Points: total, Tier: tier, Prize: u.prize(tier)}
}

// Prize returns what the unit pays, Score().Prize, without the rest of the
// score: what an audit needs of each unit.
func (u *Unit) Prize() game.Cents {
	a, b, c := figures.Get().three(&u.Cups)
	return u.prize(TierOf(points[a] + points[b] + points[c]))
}

// prize returns what a tier pays at the unit's stake.
func (u *Unit) prize(tier int) game.Cents {
	if tier == Losing {
		return 0
	}
	stake, _ := game.CentsOf(u.Stake) // a stake finer than the cent is none of Stakes
	return stake * game.Cents(brackets[tier].multiple)
}
