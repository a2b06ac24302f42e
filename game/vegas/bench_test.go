package vegas

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkDeal deals tickets with the block's mix of lots: mostly losing.
func BenchmarkDeal(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	tiers := blockMix(r, 4096)
	var t Ticket
	for i := 0; b.Loop(); i++ {
		Deal(r, tiers[i%len(tiers)], &t)
	}
}

func BenchmarkScore(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	tiers := blockMix(r, 4096)
	tickets := make([]Ticket, len(tiers))
	for i := range tickets {
		Deal(r, tiers[i], &tickets[i])
	}
	for i := 0; b.Loop(); i++ {
		_ = tickets[i%len(tickets)].Score()
	}
}

// blockMix draws n tiers in the proportions of a block.
func blockMix(r *rand.Rand, n int) []int {
	tb := Table()
	out := make([]int, n)
	for i := range out {
		out[i] = tb.TierAt(r.Int64N(tb.Units))
	}
	return out
}
