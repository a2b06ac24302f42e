package stats

import (
	"math"
	"testing"
)

// TestChiSquareSurvival checks the p-values against closed forms (two
// degrees of freedom: e^(-x/2); one: erfc(√(x/2)); four: e^(-x/2)(1+x/2))
// and against the critical values of the usual tables.
func TestChiSquareSurvival(t *testing.T) {
	for _, x := range []float64{0.001, 0.1, 0.5, 1, 2, 3.84, 5, 10, 25, 60, 200} {
		cases := []struct {
			df   int
			want float64
		}{
			{1, math.Erfc(math.Sqrt(x / 2))},
			{2, math.Exp(-x / 2)},
			{4, math.Exp(-x/2) * (1 + x/2)},
			{6, math.Exp(-x/2) * (1 + x/2 + x*x/8)},
		}
		for _, c := range cases {
			got := ChiSquareSurvival(x, c.df)
			if rel := math.Abs(got-c.want) / c.want; rel > 1e-12 {
				t.Errorf("Q(%g, df %d) = %.17g, want %.17g (relative error %.2g)", x, c.df, got, c.want, rel)
			}
		}
	}
	// Critical values from the standard tables (4 significant digits).
	tables := []struct {
		x  float64
		df int
		p  float64
	}{
		{3.841, 1, 0.05}, {6.635, 1, 0.01}, {18.307, 10, 0.05}, {23.209, 10, 0.01},
		{2.733, 8, 0.95}, {15.507, 8, 0.05}, {124.342, 100, 0.05}, {77.929, 100, 0.95},
		{11.070, 5, 0.05}, {0.554, 5, 0.99},
	}
	for _, c := range tables {
		if got := ChiSquareSurvival(c.x, c.df); math.Abs(got-c.p) > 2e-4 {
			t.Errorf("Q(%g, df %d) = %.6f, want %.4f", c.x, c.df, got, c.p)
		}
	}
	// The figure: χ² = 1.44 on 8 degrees of freedom is p ≈ 0.994
	// (e^-0.72 (1 + 0.72 + 0.72²/2 + 0.72³/6) = 0.99366).
	if got := ChiSquareSurvival(1.44, 8); math.Abs(got-0.99366) > 1e-5 {
		t.Errorf("Q(1.44, df 8) = %.5f, want 0.99366", got)
	}
	if got := ChiSquareSurvival(0, 3); got != 1 {
		t.Errorf("Q(0, df 3) = %g, want 1", got)
	}
	if got := ChiSquareSurvival(1, 0); !math.IsNaN(got) {
		t.Errorf("Q(1, df 0) = %g, want NaN", got)
	}
}
