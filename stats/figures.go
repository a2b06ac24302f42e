package stats

import (
	"github.com/shopspring/decimal"

	"tapis/game"
)

// Figures are the figures of one game and stake.
type Figures struct {
	Key Key
	Played
	Forced int64 // of Units, how many were forced: in the money, not in Lots
	Lots   []Lot // every tier of the table, highest prize first, the losing tier (prize 0) last
	Block  Block // the table's block
}

// Lot is one tier of a lot table, with how often the session drew it.
type Lot struct {
	Prize decimal.Decimal

	// Share is how many of the session's units drawn from blocks (forced
	// ones left out) paid this lot, out of how many were drawn.
	Share Ratio

	// Expected is the lot's share in the regulation: how many units of a
	// block pay it, out of the units of a block. The losing tier has the
	// rest of the block, so the lots' expected shares add up to exactly 1.
	Expected Ratio
}

// Block is what a whole block of a lot table holds.
type Block struct {
	Units  int64           // units per block
	Stakes decimal.Decimal // what they cost: units × stake
	Prizes decimal.Decimal // what they pay: the sum of the table's lots
}

// Drawn returns how many units were drawn from blocks: Units less Forced.
func (f Figures) Drawn() int64 { return f.Units - f.Forced }

// Payout returns the table's payout rate, Block.Prizes/Block.Stakes (0,7
// for both games), rounded half away from zero to places decimal places.
func (f Figures) Payout(places int32) decimal.Decimal {
	return f.Block.Prizes.DivRound(f.Block.Stakes, places)
}

// VersusPayout compares the return so far with the table's payout rate,
// exactly: -1 below it, 0 at it, +1 above it. Before any unit it is 0.
func (f Figures) VersusPayout() int {
	// Won/Staked against Prizes/Stakes, both denominators positive.
	return f.Won.Mul(f.Block.Stakes).Cmp(f.Block.Prizes.Mul(f.Staked))
}

// Ratio is an exact fraction of whole numbers, Num/Den.
type Ratio struct {
	Num, Den int64
}

// Float64 returns the ratio as a float64; 0 when Den is 0.
func (r Ratio) Float64() float64 {
	if r.Den == 0 {
		return 0
	}
	return float64(r.Num) / float64(r.Den)
}

// Decimal returns the ratio rounded half away from zero to places decimal
// places; 0 when Den is 0.
func (r Ratio) Decimal(places int32) decimal.Decimal {
	if r.Den == 0 {
		return decimal.Zero
	}
	return decimal.NewFromInt(r.Num).DivRound(decimal.NewFromInt(r.Den), places)
}

// sequence counts the units of one game and stake.
type sequence struct {
	key    Key
	table  *game.Table
	played Played
	forced int64
	counts []int64 // by tier
	block  Block
}

func newSequence(k Key, t *game.Table) *sequence {
	return &sequence{
		key:    k,
		table:  t,
		counts: make([]int64, t.Tiers()),
		block: Block{
			Units:  t.Units,
			Stakes: k.Stake.Mul(decimal.NewFromInt(t.Units)),
			Prizes: t.Payout(),
		},
	}
}

// add counts a unit of the tier drawn, or a forced unit when tier < 0.
func (s *sequence) add(u Unit, tier int) {
	s.played.add(u)
	if tier < 0 {
		s.forced++
		return
	}
	s.counts[tier]++
}

func (s *sequence) figures() Figures {
	f := Figures{Key: s.key, Played: s.played, Forced: s.forced, Block: s.block}
	drawn := f.Drawn()
	f.Lots = make([]Lot, s.table.Tiers())
	for tier := range f.Lots {
		f.Lots[tier] = Lot{
			Prize:    s.table.Prize(tier),
			Share:    Ratio{Num: s.counts[tier], Den: drawn},
			Expected: Ratio{Num: s.table.Count(tier), Den: s.table.Units},
		}
	}
	return f
}
