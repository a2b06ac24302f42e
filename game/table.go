// Package game is the outcome-block engine shared by both games: lot tables,
// blocks drawn without replacement, unit identities and the random sources
// derived from them. It knows nothing of dice or cards; the packages
// game/yams and game/vegas say what a unit looks like and how it scores.
package game

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// Lot is one line of a regulation's lot table (tableau de lots, art. 3): a
// prize and how many units of each block pay it.
type Lot struct {
	Prize decimal.Decimal // montant du lot
	Count int64           // nombre de lots per block
}

// Table is a block's lot table: the winning lots, highest prize first, and
// the number of units in a block. Units that win nothing make up the rest.
type Table struct {
	Units int64 // units per block (unités de jeu, tickets)
	Lots  []Lot // winning lots, highest prize first
}

// Tiers returns the number of tiers of the table: one per winning lot plus
// the losing tier, whose index is len(t.Lots).
func (t *Table) Tiers() int { return len(t.Lots) + 1 }

// Losing returns the index of the losing tier.
func (t *Table) Losing() int { return len(t.Lots) }

// Count returns how many units of a block fall in a tier.
func (t *Table) Count(tier int) int64 {
	if tier == t.Losing() {
		return t.Units - t.Winners()
	}
	return t.Lots[tier].Count
}

// Prize returns the prize of a tier; the losing tier pays zero.
func (t *Table) Prize(tier int) decimal.Decimal {
	if tier == t.Losing() {
		return decimal.Zero
	}
	return t.Lots[tier].Prize
}

// PrizeCents returns the prize of a tier in cents; the losing tier pays
// zero. Validate checks every prize is to the cent.
func (t *Table) PrizeCents(tier int) Cents {
	c, _ := CentsOf(t.Prize(tier))
	return c
}

// TierAt returns the tier of unit x (0 ≤ x < Units) of a block listed tier
// by tier, winning lots first: a uniform x gives a tier with the block's odds.
func (t *Table) TierAt(x int64) int {
	for tier := range t.Losing() {
		if x < t.Lots[tier].Count {
			return tier
		}
		x -= t.Lots[tier].Count
	}
	return t.Losing()
}

// Winners returns the number of winning units per block.
func (t *Table) Winners() int64 {
	var n int64
	for _, l := range t.Lots {
		n += l.Count
	}
	return n
}

// Payout returns what a whole block pays.
func (t *Table) Payout() decimal.Decimal {
	sum := decimal.Zero
	for _, l := range t.Lots {
		sum = sum.Add(l.Prize.Mul(decimal.NewFromInt(l.Count)))
	}
	return sum
}

// Tier returns the tier whose prize is p: a winning lot, the losing tier for
// zero, or false when the table has no such lot.
func (t *Table) Tier(p decimal.Decimal) (int, bool) {
	if p.IsZero() {
		return t.Losing(), true
	}
	for i, l := range t.Lots {
		if l.Prize.Equal(p) {
			return i, true
		}
	}
	return 0, false
}

// Validate checks the table is well formed: prizes positive and strictly
// decreasing, counts positive, and no more winners than units.
func (t *Table) Validate() error {
	if t.Units <= 0 {
		return fmt.Errorf("table: %d units per block", t.Units)
	}
	for i, l := range t.Lots {
		if l.Count <= 0 || !l.Prize.IsPositive() {
			return fmt.Errorf("table: lot %d: %d lots of %s", i, l.Count, l.Prize)
		}
		if _, ok := CentsOf(l.Prize); !ok {
			return fmt.Errorf("table: lot %d: prize %s is not a whole number of cents", i, l.Prize)
		}
		if i > 0 && !l.Prize.LessThan(t.Lots[i-1].Prize) {
			return fmt.Errorf("table: lot %d: prize %s not below %s", i, l.Prize, t.Lots[i-1].Prize)
		}
	}
	if t.Winners() > t.Units {
		return fmt.Errorf("table: %d winners in a block of %d", t.Winners(), t.Units)
	}
	return nil
}
