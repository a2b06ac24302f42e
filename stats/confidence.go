package stats

import (
	"math"
	"slices"

	"github.com/shopspring/decimal"
)

// Z95 is the two-sided 95 % quantile of the normal law: an interval of
// ±Z95 standard errors holds the true value 95 times in 100.
const Z95 = 1.959963984540054

// MinExpected is the smallest expected count a cell of a chi-square test
// keeps alone: rarer lots are pooled (Cochran's rule, as statisticians do).
const MinExpected = 5

// Draws says how a run's units came out of their blocks: how many units it
// drew from each block it touched. Units drawn from one block are a sample
// without replacement of that block, so a run that takes a large part of a
// block (or a whole one) varies less than independent draws would.
type Draws struct {
	BlockUnits int64   // units in a whole block
	PerBlock   []int64 // units the run drew from each block it touched
}

// Units returns how many units the run drew.
func (d Draws) Units() int64 {
	var n int64
	for _, m := range d.PerBlock {
		n += m
	}
	return n
}

// WholeBlocks returns how many blocks the run drew whole.
func (d Draws) WholeBlocks() int64 {
	var n int64
	for _, m := range d.PerBlock {
		if m == d.BlockUnits {
			n++
		}
	}
	return n
}

// Factor is the exact finite-population correction of the run: the
// variance of any sum over its units (what they paid, how many paid a lot)
// over what it would be for as many independent draws from the table,
// Σ m(N−m)/(N−1) / Σ m over the blocks it drew m units of, N a block's
// units. It is 1 for independent draws, near 1 for a small part of a
// block, and 0 when the run is whole blocks: then every count is the
// table's exactly. It is 1 for a run of no units.
func (d Draws) Factor() float64 {
	n := d.Units()
	if n == 0 || d.BlockUnits <= 1 {
		return 1
	}
	var v float64
	for _, m := range d.PerBlock {
		v += float64(m) * float64(d.BlockUnits-m) / float64(d.BlockUnits-1)
	}
	return v / float64(n)
}

// Confidence is how far a run's return is from the table's, and how far
// it may be by chance.
type Confidence struct {
	Units  int64
	Stake  float64 // euros a unit
	Return float64 // what the run paid over what it cost
	Payout float64 // the table's payout rate

	// SigmaTable is the standard deviation of one unit's prize, in euros,
	// over the table's block; SigmaRun the same over the run's units.
	SigmaTable, SigmaRun float64

	// Factor is Draws.Factor: the standard errors below are multiplied by
	// its square root.
	Factor float64

	// SETable is the standard error of the return that the table's own
	// variance gives for this run; SERun the one the run's variance
	// gives. Both are 0 for a run of whole blocks.
	SETable, SERun float64

	// Rare are the lots the run is too short for: expected less than once
	// in it, and each alone moving the return by more than SETable. The
	// intervals lean on the normal law, which such lots do not follow:
	// the runs that draw one of them fall outside. RareChance is the
	// chance that a run of as many units draws at least one.
	Rare       []RareLot
	RareChance float64
}

// RareLot is a lot too rare for a run's normal interval.
type RareLot struct {
	Prize    decimal.Decimal
	Expected float64 // how many times a run of as many units draws it
	Shift    float64 // how much one of them adds to the return
	Drawn    int64   // how many times the run drew it
}

// TableRange returns where the return of such a run falls 95 times in
// 100: the table's payout rate ± Z95 × SETable (never below 0, as no
// return is).
func (c Confidence) TableRange() (lo, hi float64) {
	return max(0, c.Payout-Z95*c.SETable), c.Payout + Z95*c.SETable
}

// Interval returns the 95 % confidence interval of the return the run
// estimates, by the table's variance: its return ± Z95 × SETable (never
// below 0). It holds the payout rate in 95 runs of 100, fewer when the
// run is short for the table's rarest lots (the law of a return is then
// far from normal).
func (c Confidence) Interval() (lo, hi float64) {
	return max(0, c.Return-Z95*c.SETable), c.Return + Z95*c.SETable
}

// RunInterval returns the 95 % confidence interval of the return from
// the run alone: its return ± Z95 × SERun (never below 0). A run that has
// not drawn the rare lots which make most of the table's variance has a
// smaller SERun than SETable, and this interval is then too narrow.
func (c Confidence) RunInterval() (lo, hi float64) {
	return max(0, c.Return-Z95*c.SERun), c.Return + Z95*c.SERun
}

// Analysis is what a run's figures say against their table.
type Analysis struct {
	Confidence
	Test  ChiSquare
	Draws Draws
}

// Analyse compares the figures of one game and stake with their table:
// the return with its standard error and intervals, the volatility, and
// the chi-square of the units by lot, all corrected for the draws being
// without replacement within each block.
func Analyse(f Figures, d Draws) Analysis {
	a := Analysis{Draws: d}
	n := f.Drawn()
	stake := f.Key.Stake.InexactFloat64()
	c := Confidence{Units: n, Stake: stake, Payout: f.Payout(12).InexactFloat64(), Factor: d.Factor()}
	var tMean, tSq, rSum, rSq float64
	observed := make([]int64, len(f.Lots))
	expected := make([]float64, len(f.Lots))
	for i, lot := range f.Lots {
		x := lot.Prize.InexactFloat64()
		p := lot.Expected.Float64()
		tMean += p * x
		tSq += p * x * x
		rSum += float64(lot.Share.Num) * x
		rSq += float64(lot.Share.Num) * x * x
		observed[i] = lot.Share.Num
		expected[i] = float64(n) * p
	}
	c.SigmaTable = math.Sqrt(math.Max(0, tSq-tMean*tMean))
	if n > 0 {
		mean := rSum / float64(n)
		c.Return = mean / stake
		c.SigmaRun = math.Sqrt(math.Max(0, rSq/float64(n)-mean*mean))
		if n > 1 {
			c.SigmaRun *= math.Sqrt(float64(n) / float64(n-1)) // the unbiased estimate
		}
		scale := math.Sqrt(c.Factor/float64(n)) / stake
		c.SETable, c.SERun = c.SigmaTable*scale, c.SigmaRun*scale
	}
	if n > 0 && c.Factor > 0 {
		var none float64
		for i, lot := range f.Lots {
			shift := lot.Prize.InexactFloat64() / (float64(n) * stake)
			if lot.Prize.IsPositive() && expected[i] < 1 && shift > c.SETable {
				c.Rare = append(c.Rare, RareLot{Prize: lot.Prize, Expected: expected[i], Shift: shift, Drawn: observed[i]})
				none += expected[i]
			}
		}
		c.RareChance = -math.Expm1(-none) // Poisson: at least one of them
	}
	a.Confidence = c
	a.Test = Pearson(observed, expected, c.Factor)
	return a
}

// ChiSquare is Pearson's test of counts against the counts a table
// expects.
type ChiSquare struct {
	Statistic float64 // Σ (observed − expected)² / expected over the cells
	// Corrected is Statistic over the finite-population factor, which is
	// chi-square distributed with DF degrees of freedom when the counts
	// follow the table; equal to Statistic for independent draws.
	Corrected float64
	DF        int     // cells − 1
	P         float64 // the probability of a Corrected at least this large by chance
	Cells     int     // the cells tested, pooled ones counted once
	Pooled    int     // how many lots were pooled into one cell, their expected counts each under MinExpected
	// Testable is false when there is nothing to test: fewer than two
	// cells, or a factor of 0 (whole blocks, where every count is the
	// table's by construction).
	Testable bool
}

// Pearson tests observed counts against expected ones (same length),
// drawn with the finite-population factor given (Draws.Factor; 1 for
// independent draws). Cells expected under MinExpected are pooled into
// one; a pool still under MinExpected joins the smallest cell left.
func Pearson(observed []int64, expected []float64, factor float64) ChiSquare {
	type cell struct {
		o int64
		e float64
	}
	var cells []cell
	var pool cell
	pooled := 0
	for i, e := range expected {
		if e < MinExpected {
			pool.o += observed[i]
			pool.e += e
			pooled++
			continue
		}
		cells = append(cells, cell{observed[i], e})
	}
	if pooled > 0 {
		if pool.e < MinExpected && len(cells) > 0 {
			j := 0
			for i := range cells {
				if cells[i].e < cells[j].e {
					j = i
				}
			}
			cells[j].o += pool.o
			cells[j].e += pool.e
		} else if pool.e > 0 {
			cells = append(cells, pool)
		}
	}
	cells = slices.DeleteFunc(cells, func(c cell) bool { return c.e <= 0 })
	t := ChiSquare{Cells: len(cells), Pooled: pooled, DF: max(0, len(cells)-1)}
	for _, c := range cells {
		d := float64(c.o) - c.e
		t.Statistic += d * d / c.e
	}
	t.Testable = t.DF >= 1 && factor > 0
	if !t.Testable {
		t.P = math.NaN()
		return t
	}
	t.Corrected = t.Statistic / factor
	t.P = ChiSquareSurvival(t.Corrected, t.DF)
	return t
}
