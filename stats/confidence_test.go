package stats

import (
	"math"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
)

// figuresOf returns the figures of a run whose units by tier are counts.
func figuresOf(t *testing.T, g lottery.Game, stake int64, counts []int64) Figures {
	t.Helper()
	s := Fresh()
	for tier, n := range counts {
		table, err := g.Table(decimal.NewFromInt(stake))
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			if err := s.Add(Unit{Game: g.Name, Stake: decimal.NewFromInt(stake), Prize: table.Prize(tier), Balance: decimal.Zero}); err != nil {
				t.Fatal(err)
			}
		}
	}
	f, _ := s.Figures(g.Seq(decimal.NewFromInt(stake)))
	return f
}

func TestDrawsFactor(t *testing.T) {
	cases := []struct {
		d    Draws
		want float64
	}{
		{Draws{BlockUnits: 100, PerBlock: []int64{100}}, 0},
		{Draws{BlockUnits: 100, PerBlock: []int64{100, 100}}, 0},
		{Draws{BlockUnits: 100, PerBlock: []int64{1}}, 1},
		{Draws{BlockUnits: 100, PerBlock: []int64{10}}, 90.0 / 99},
		// The run: one block of 700 000 and 300 000 units of the next.
		{Draws{BlockUnits: 700_000, PerBlock: []int64{700_000, 300_000}}, 300_000.0 * 400_000 / 699_999 / 1_000_000},
		{Draws{BlockUnits: 100}, 1},
	}
	for _, c := range cases {
		if got := c.d.Factor(); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%+v: factor %g, want %g", c.d, got, c.want)
		}
	}
}

// TestAnalyseVolatility checks the table's σ the issue quotes: Yam's
// about 6.3 stakes a unit, Vegas about 48 € (16 stakes).
func TestAnalyseVolatility(t *testing.T) {
	y := figuresOf(t, lottery.Yams(), 1, []int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 10})
	a := Analyse(y, Draws{BlockUnits: 700_000, PerBlock: []int64{10}})
	if math.Abs(a.SigmaTable-6.3016) > 1e-3 || a.SigmaRun != 0 || a.Return != 0 {
		t.Errorf("yams: %+v", a.Confidence)
	}
	v := figuresOf(t, lottery.Vegas(), 3, []int64{0, 0, 0, 0, 0, 0, 0, 0, 1, 1})
	a = Analyse(v, Draws{BlockUnits: 1_500_000, PerBlock: []int64{2}})
	if math.Abs(a.SigmaTable-48.2978) > 1e-3 || math.Abs(a.Return-0.5) > 1e-12 {
		t.Errorf("vegas: %+v", a.Confidence)
	}
	// One unit at 3 € and one at 0 €: σ √(4.5) by the unbiased estimate.
	if math.Abs(a.SigmaRun-math.Sqrt(4.5)) > 1e-12 {
		t.Errorf("vegas run σ %g, want %g", a.SigmaRun, math.Sqrt(4.5))
	}
	// The standard error is σ √(factor / n) over the stake.
	want := a.SigmaTable * math.Sqrt(a.Factor/2) / 3
	if math.Abs(a.SETable-want) > 1e-12 {
		t.Errorf("SE %g, want %g", a.SETable, want)
	}
}

func TestPearsonPooling(t *testing.T) {
	// Two cells under 5 pooled into one of 6: three cells, two degrees of freedom.
	c := Pearson([]int64{2, 3, 50, 45}, []float64{3, 3, 47, 47}, 1)
	if c.Cells != 3 || c.DF != 2 || c.Pooled != 2 {
		t.Fatalf("%+v", c)
	}
	want := 1.0/6 + 9.0/47 + 4.0/47
	if math.Abs(c.Statistic-want) > 1e-12 || math.Abs(c.P-math.Exp(-want/2)) > 1e-12 {
		t.Errorf("statistic %g p %g, want %g, %g", c.Statistic, c.P, want, math.Exp(-want/2))
	}
	// A pool still under 5 joins the smallest cell.
	c = Pearson([]int64{1, 10, 90}, []float64{1, 9, 91}, 1)
	if c.Cells != 2 || c.DF != 1 {
		t.Errorf("%+v", c)
	}
	// The finite-population factor divides the statistic.
	c = Pearson([]int64{40, 60}, []float64{50, 50}, 0.5)
	if c.Statistic != 4 || c.Corrected != 8 || c.DF != 1 {
		t.Errorf("%+v", c)
	}
	// Whole blocks: nothing to test.
	if c := Pearson([]int64{50, 50}, []float64{50, 50}, 0); c.Testable || !math.IsNaN(c.P) {
		t.Errorf("%+v", c)
	}
}

// TestAnalyseRareLots: in 100 000 Yam's units at 1 €, the 5 000 € lot is
// expected 1/7 times and one adds 5 points to the return, more than the
// standard error (1.8): the intervals do not hold it. The 500 € lot adds
// 0.5 points, within the normal law's reach.
func TestAnalyseRareLots(t *testing.T) {
	counts := []int64{1, 0, 57, 2571, 3571, 500, 714, 4429, 11500, 0}
	var sum int64
	for _, c := range counts {
		sum += c
	}
	counts[9] = 100_000 - sum
	a := Analyse(figuresOf(t, lottery.Yams(), 1, counts), Draws{BlockUnits: 700_000, PerBlock: []int64{100_000}})
	if len(a.Rare) != 1 {
		t.Fatalf("rare lots %+v, want the 5000 € lot alone", a.Rare)
	}
	r := a.Rare[0]
	if !r.Prize.Equal(decimal.NewFromInt(5000)) || math.Abs(r.Expected-1.0/7) > 1e-12 || math.Abs(r.Shift-0.05) > 1e-12 || r.Drawn != 1 {
		t.Errorf("%+v", r)
	}
	if want := -math.Expm1(-1.0 / 7); math.Abs(a.RareChance-want) > 1e-12 {
		t.Errorf("chance %g, want %g", a.RareChance, want)
	}
	if lo, hi := a.Interval(); lo <= 0.7 && 0.7 <= hi {
		t.Errorf("interval [%g, %g] holds 0.7 although the top lot came out", lo, hi)
	}
}
