package stats

import (
	"github.com/shopspring/decimal"

	"tapis/game/vegas"
)

// Tickets counts what Vegas tickets showed beyond their lot: which
// surfaces paid (the hit rate of each) and how each lot was split over the
// four surfaces, against the catalogue the dealer draws a split from
// uniformly (ruling V7). The zero value counts nothing yet. It is not safe
// for concurrent use.
type Tickets struct {
	units  int64
	hits   [vegas.Surfaces]int64
	splits map[vegas.Split]int64
}

// Add counts one ticket's score.
func (t *Tickets) Add(s *vegas.Score) {
	if t.splits == nil {
		t.splits = map[vegas.Split]int64{}
	}
	var split vegas.Split
	for f := range vegas.Surfaces {
		c := s.SurfacePrize(f)
		split[f] = int64(c) / 100 // every amount a surface pays is whole euros (ruling V6)
		if c > 0 {
			t.hits[f]++
		}
	}
	t.units++
	t.splits[split]++
}

// SurfaceHits is how often one surface paid, against the table and the
// catalogue.
type SurfaceHits struct {
	Surface  vegas.Surface
	Hits     int64   // tickets on which the surface paid
	Rate     float64 // Hits over the tickets counted
	Expected float64 // the chance a ticket's surface pays: Σ over the lots of the lot's share × the share of its splits paying on the surface
}

// SplitCount is how many tickets showed one split of a lot.
type SplitCount struct {
	Split    vegas.Split
	Counted  int64
	Expected float64 // the lot's tickets over its catalogue's splits
}

// LotSplits is how one lot's tickets were split, and the chi-square of
// their splits against the uniform draw of the catalogue (independent
// draws from each ticket's own random stream: no correction).
type LotSplits struct {
	Prize   decimal.Decimal
	Tickets int64
	Seen    int // splits shown at least once
	Splits  []SplitCount
	Test    ChiSquare
}

// Hits returns each surface's hit rate, in the order of art. 4.
func (t *Tickets) Hits() []SurfaceHits {
	table := vegas.Table()
	var expected [vegas.Surfaces]float64
	for tier := range table.Tiers() {
		share := float64(table.Count(tier)) / float64(table.Units)
		splits := vegas.Splits(table.Prize(tier).IntPart())
		for _, s := range splits {
			for f := range vegas.Surfaces {
				if s[f] > 0 {
					expected[f] += share / float64(len(splits))
				}
			}
		}
	}
	out := make([]SurfaceHits, vegas.Surfaces)
	for f := range vegas.Surfaces {
		out[f] = SurfaceHits{Surface: f, Hits: t.hits[f], Expected: expected[f]}
		if t.units > 0 {
			out[f].Rate = float64(t.hits[f]) / float64(t.units)
		}
	}
	return out
}

// Lots returns the splits of every lot of the table, highest first, the
// losing tickets (one split, every surface at 0) last.
func (t *Tickets) Lots() []LotSplits {
	table := vegas.Table()
	out := make([]LotSplits, 0, table.Tiers())
	for tier := range table.Tiers() {
		prize := table.Prize(tier)
		catalogue := vegas.Splits(prize.IntPart())
		l := LotSplits{Prize: prize, Splits: make([]SplitCount, len(catalogue))}
		for i, s := range catalogue {
			n := t.splits[s]
			l.Splits[i] = SplitCount{Split: s, Counted: n}
			l.Tickets += n
			if n > 0 {
				l.Seen++
			}
		}
		observed := make([]int64, len(catalogue))
		expected := make([]float64, len(catalogue))
		for i := range l.Splits {
			l.Splits[i].Expected = float64(l.Tickets) / float64(len(catalogue))
			observed[i], expected[i] = l.Splits[i].Counted, l.Splits[i].Expected
		}
		l.Test = Pearson(observed, expected, 1)
		out = append(out, l)
	}
	return out
}

// Unknown returns how many tickets showed a split that is in no lot's
// catalogue (none, when the dealer follows ruling V7).
func (t *Tickets) Unknown() int64 {
	var known int64
	for _, l := range t.Lots() {
		known += l.Tickets
	}
	return t.units - known
}
