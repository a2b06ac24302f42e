package yams

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// BenchmarkDeal deals units with the block's mix of lots: mostly losing.
func BenchmarkDeal(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	tiers := blockMix(r, 4096)
	u := Unit{Stake: decimal.NewFromInt(1)}
	for i := 0; b.Loop(); i++ {
		Deal(r, tiers[i%len(tiers)], &u)
	}
}

func BenchmarkScore(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	tiers := blockMix(r, 4096)
	units := make([]Unit, len(tiers))
	for i := range units {
		units[i].Stake = decimal.NewFromInt(1)
		Deal(r, tiers[i], &units[i])
	}
	for i := 0; b.Loop(); i++ {
		_ = units[i%len(units)].Score()
	}
}

// blockMix draws n tiers in the proportions of a block.
func blockMix(r *rand.Rand, n int) []int {
	tb, _ := Table(decimal.NewFromInt(1))
	out := make([]int, n)
	for i := range out {
		out[i] = tb.TierAt(r.Int64N(tb.Units))
	}
	return out
}
