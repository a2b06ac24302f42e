package stats

import (
	"math"
	"testing"

	"tapis/game"
	"tapis/game/lottery"
)

// TestTickets deals tickets as a block sells them and checks their
// surfaces and splits are counted against the catalogue: every split
// known, every ticket in its lot, each surface's hit rate within five
// standard errors of the catalogue's.
func TestTickets(t *testing.T) {
	g := lottery.Vegas()
	table, _ := g.Table(g.DefaultStake)
	seq := game.NewSequence(g.Name, g.DefaultStake, table, game.SeedFrom(9))
	var tk Tickets
	const n = 20_000
	for range n {
		u := seq.Next()
		s := g.DealUnit(u).Score()
		tk.Add(s.Vegas)
	}
	if u := tk.Unknown(); u != 0 {
		t.Errorf("%d tickets of no catalogue's split", u)
	}
	var total int64
	for _, l := range tk.Lots() {
		total += l.Tickets
		if l.Prize.IsZero() && (len(l.Splits) != 1 || l.Splits[0].Split.Total() != 0) {
			t.Errorf("losing tickets' splits: %+v", l.Splits)
		}
	}
	if total != n {
		t.Errorf("%d tickets in the lots, want %d", total, n)
	}
	for _, h := range tk.Hits() {
		se := math.Sqrt(h.Expected * (1 - h.Expected) / n)
		if h.Expected <= 0 || math.Abs(h.Rate-h.Expected) > 5*se {
			t.Errorf("%s: rate %.4f, expected %.4f (se %.4f)", h.Surface, h.Rate, h.Expected, se)
		}
	}
}
