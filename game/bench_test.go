package game

import (
	"testing"

	"github.com/shopspring/decimal"
)

// BenchmarkDraw draws units from a block of 1 500 000 with ten tiers.
func BenchmarkDraw(b *testing.B) {
	tb := &Table{Units: 1_500_000, Lots: []Lot{
		{decimal.NewFromInt(40000), 2}, {decimal.NewFromInt(10000), 2}, {decimal.NewFromInt(1000), 25},
		{decimal.NewFromInt(200), 500}, {decimal.NewFromInt(50), 13000}, {decimal.NewFromInt(25), 30000},
		{decimal.NewFromInt(10), 47000}, {decimal.NewFromInt(5), 151000}, {decimal.NewFromInt(3), 100000},
	}}
	s := NewSequence("bench", decimal.NewFromInt(3), tb, SeedFrom(1))
	for b.Loop() {
		s.Next()
	}
}
