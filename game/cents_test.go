package game

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// TestCentsString writes amounts as decimal.Decimal does.
func TestCentsString(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	values := []int64{0, 1, 5, 10, 50, 99, 100, 150, 250, 4_000_000, -1, -50, -150, math.MaxInt64, math.MinInt64 + 1}
	for range 10_000 {
		values = append(values, r.Int64N(1e15)-5e14)
	}
	for _, v := range values {
		if got, want := Cents(v).String(), decimal.New(v, -2).String(); got != want {
			t.Errorf("%d cents: %q, want %q", v, got, want)
		}
		if !Cents(v).Decimal().Equal(decimal.New(v, -2)) {
			t.Errorf("%d cents: %s", v, Cents(v).Decimal())
		}
	}
	if Euros(3) != 300 || !Euros(40_000).Decimal().Equal(decimal.NewFromInt(40_000)) {
		t.Errorf("3 €: %d cents", Euros(3))
	}
}

// TestCentsOf converts amounts to the cent, whatever their exponent, and
// refuses what is finer than the cent or too large.
func TestCentsOf(t *testing.T) {
	ok := map[string]Cents{
		"0": 0, "0.5": 50, "0.50": 50, "1": 100, "2.5": 250, "40000": 4_000_000, "0.05": 5, "-1.5": -150,
		"1.000000000000000000000000": 100, "1000000000000": 100_000_000_000_000, "0.000": 0,
	}
	for s, want := range ok {
		if got, good := CentsOf(decimal.RequireFromString(s)); !good || got != want {
			t.Errorf("%s: %d cents, %v; want %d", s, got, good, want)
		}
	}
	if got, good := CentsOf(decimal.New(5, 3)); !good || got != 500_000 {
		t.Errorf("5e3: %d, %v", got, good)
	}
	for _, s := range []string{"0.001", "1.005", "100000000000000000", "1e40", "0.1234567890123456789012"} {
		if got, good := CentsOf(decimal.RequireFromString(s)); good {
			t.Errorf("%s: %d cents", s, got)
		}
	}
	if _, good := CentsOf(decimal.Decimal{}); !good {
		t.Error("the zero Decimal is no amount")
	}
}
