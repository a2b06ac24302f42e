package cli

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/stats"
	"tapis/ui"
)

// ksCritical20 is the Kolmogorov–Smirnov statistic that 20 draws from the
// uniform law exceed once in 100 (Massey's table, n = 20, α = 0.01).
const ksCritical20 = 0.356

// kolmogorovSmirnov returns the largest distance between the empirical
// distribution of ps and the uniform law on [0, 1].
func kolmogorovSmirnov(ps []float64) float64 {
	ps = slices.Clone(ps)
	slices.Sort(ps)
	n := float64(len(ps))
	d := 0.0
	for i, p := range ps {
		d = max(d, float64(i+1)/n-p, p-float64(i)/n)
	}
	return d
}

// TestSimulateChiSquareUniform plays 20 runs of each game with seeds 1 to
// 20 and checks that their chi-square p-values look uniform: the
// Kolmogorov–Smirnov distance to the uniform law is under ksCritical20
// (a law that is uniform fails this once in 100 seed sets; the seeds are
// fixed, so the test gives the same answer at every run). A simulation
// whose counts follow the table too closely (p-values near 1, as whole
// blocks without the correction give) or too loosely (near 0) fails it.
func TestSimulateChiSquareUniform(t *testing.T) {
	for _, g := range []string{"yams", "vegas"} {
		var ps []float64
		for seed := 1; seed <= 20; seed++ {
			code, out, errOut := run(t, "", "simulate", "--game", g, "--count", "4000", "--seed", strconv.Itoa(seed), "--json")
			if code != ExitOK {
				t.Fatalf("%s seed %d: exit %d: %s", g, seed, code, errOut)
			}
			var r struct {
				Statistics struct {
					ChiSquare struct {
						P  *float64 `json:"p"`
						DF int      `json:"df"`
					} `json:"chi_square"`
				} `json:"statistics"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%s seed %d: %v", g, seed, err)
			}
			p := r.Statistics.ChiSquare.P
			if p == nil || *p < 0 || *p > 1 || r.Statistics.ChiSquare.DF < 3 {
				t.Fatalf("%s seed %d: p %v on %d degrees of freedom", g, seed, p, r.Statistics.ChiSquare.DF)
			}
			ps = append(ps, *p)
		}
		if d := kolmogorovSmirnov(ps); d > ksCritical20 {
			t.Errorf("%s: p-values %v: Kolmogorov–Smirnov distance %.3f above %.3f", g, ps, d, ksCritical20)
		} else {
			t.Logf("%s: Kolmogorov–Smirnov distance %.3f (bound %.3f)", g, d, ksCritical20)
		}
	}
}

func TestKolmogorovSmirnov(t *testing.T) {
	even := make([]float64, 20)
	for i := range even {
		even[i] = (float64(i) + 0.5) / 20
	}
	if d := kolmogorovSmirnov(even); math.Abs(d-0.025) > 1e-12 {
		t.Errorf("evenly spread: %g, want 0.025", d)
	}
	high := make([]float64, 20)
	for i := range high {
		high[i] = 0.9 + float64(i)/200
	}
	if d := kolmogorovSmirnov(high); d < 0.9 {
		t.Errorf("all near 1: %g, want at least 0.9", d)
	}
}

// TestSimulateStatistics reads the statistics a run prints, in text and
// JSON: the interval, the volatility, the chi-square, and for Vegas the
// surfaces and splits.
func TestSimulateStatistics(t *testing.T) {
	code, out, errOut := run(t, "", "simulate", "--game", "vegas", "--count", "20000", "--seed", "42")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"95% interval", "by the table's variance", "by the run's own variance",
		"the table: a run of 20,000 units returns 70% ± ",
		"volatility: σ €48.30 a unit (16.1 stakes) by the table",
		"degrees of freedom, p = ",
		"drawn without replacement from one block (1.3% of it)",
		"surfaces that paid (against the catalogue): roulette ",
		"€50.00      183 tickets · 100 of 141 splits seen · too few to test", "of 74 splits seen · χ² ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	s := simulateStats(t, "--game", "yams", "--stake", "0.5", "--count", "7000", "--seed", "1")
	if math.Abs(s.Volatility.TableStakes-6.3) > 0.05 || s.Return.Payout != 0.7 {
		t.Errorf("volatility %+v, payout %v: want σ ≈ 6.3 stakes, 0.7", s.Volatility, s.Return.Payout)
	}
	if lo, hi := s.Return.IntervalTable[0], s.Return.IntervalTable[1]; !(lo < s.Return.Value && s.Return.Value < hi) {
		t.Errorf("interval %v does not hold the return %v", s.Return.IntervalTable, s.Return.Value)
	}
	if s.Draws.Blocks != 1 || s.Draws.FPC >= 1 || s.Surfaces != nil {
		t.Errorf("draws %+v, surfaces %v", s.Draws, s.Surfaces)
	}
}

// TestSimulateWholeBlocks checks that a run of one whole block says that
// nothing is left to chance, in text and in JSON: every count is the
// table's, the return 70 % exactly, and no test is made.
func TestSimulateWholeBlocks(t *testing.T) {
	s := simulateStats(t, "--game", "yams", "--stake", "2", "--count", "700000", "--seed", "3")
	if s.Draws.WholeBlocks != 1 || s.Draws.FPC != 0 || s.ChiSquare.P != nil || s.ChiSquare.Statistic != 0 || s.Return.Value != 0.7 {
		t.Errorf("a whole block: %+v", s)
	}
	var b strings.Builder
	o := simOptions{game: lottery.Yams(), stake: decimal.NewFromInt(2), lang: ui.English}
	sim := simulation{perBlock: map[int64]int64{1: 700_000}}
	table, _ := o.game.Table(o.stake)
	counts := make([]stats.Lot, table.Tiers())
	for i := range counts {
		counts[i] = stats.Lot{Prize: table.Prize(i), Share: stats.Ratio{Num: table.Count(i), Den: table.Units},
			Expected: stats.Ratio{Num: table.Count(i), Den: table.Units}}
	}
	f := stats.Figures{Key: o.game.Seq(o.stake), Lots: counts, Block: stats.Block{Units: table.Units,
		Stakes: decimal.NewFromInt(2 * table.Units), Prizes: table.Payout()}}
	f.Units = table.Units
	writeStatistics(&b, &o, &sim, stats.Analyse(f, sim.draws(table.Units)))
	if want := "the run is 1 whole block (drawn without replacement)"; !strings.Contains(b.String(), want) || strings.Contains(b.String(), "χ² of") {
		t.Errorf("want %q and no χ² test in\n%s", want, b.String())
	}
	// The same units as halves of two blocks (a journal taken up
	// mid-block): a part of each, half the variance of independent draws.
	b.Reset()
	sim.perBlock = map[int64]int64{1: 350_000, 2: 350_000}
	writeStatistics(&b, &o, &sim, stats.Analyse(f, sim.draws(table.Units)))
	if want := "drawn without replacement from 2 blocks, a part of each: the variances are 0.500 of independent draws'"; !strings.Contains(b.String(), want) {
		t.Errorf("want %q in\n%s", want, b.String())
	}
}

// simulateStats runs simulate --json with args and returns its statistics.
func simulateStats(t *testing.T, args ...string) statsJSON {
	t.Helper()
	code, out, _ := run(t, "", append(append([]string{"simulate"}, args...), "--json")...)
	if code != ExitOK {
		t.Fatalf("simulate %v: exit %d", args, code)
	}
	var r struct {
		Statistics statsJSON `json:"statistics"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r.Statistics
}
