package lottery

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/yams"
)

// The audit benchmarks and their floors. A floor is the least work an audit
// of a block needs: drawing the block's lots without replacement, then for
// each unit seeding its own random source and drawing the random bits its
// presentation carries. Run them in one go so the ratio is measured on the
// same machine at the same time:
//
//	go test ./game/lottery -run '^$' -bench 'Audit|Floor' -count 6
//
// Each reports ns/unit, the figure the ratios are taken from. The one-core
// audits also report x-floor: their time over their floor's, the floor run
// on the next block right after each audited block, so that both meet the
// same load on a shared machine.

// BenchmarkAuditVegasBlock audits one whole Vegas block (1 500 000 tickets)
// per iteration, on every core.
func BenchmarkAuditVegasBlock(b *testing.B) {
	benchAudit(b, Vegas(), Vegas().DefaultStake, 0)
}

// BenchmarkAuditYamsBlock audits one whole Yam's block (700 000 units).
func BenchmarkAuditYamsBlock(b *testing.B) {
	benchAudit(b, Yams(), decimal.NewFromInt(1), 0)
}

// BenchmarkAuditVegasBlock1Core audits one whole Vegas block on one core:
// one worker, and GOMAXPROCS 1 so that drawing and checking share it.
func BenchmarkAuditVegasBlock1Core(b *testing.B) {
	oneCore(b)
	benchAudit(b, Vegas(), Vegas().DefaultStake, 1)
}

// BenchmarkAuditYamsBlock1Core audits one whole Yam's block on one core, at
// each stake.
func BenchmarkAuditYamsBlock1Core(b *testing.B) {
	oneCore(b)
	for _, stake := range Yams().Stakes {
		b.Run("stake="+stake.String(), func(b *testing.B) { benchAudit(b, Yams(), stake, 1) })
	}
}

// BenchmarkFloorVegasBlock is the floor of BenchmarkAuditVegasBlock1Core.
func BenchmarkFloorVegasBlock(b *testing.B) {
	oneCore(b)
	benchFloor(b, Vegas(), Vegas().DefaultStake)
}

// BenchmarkFloorYamsBlock is the floor of BenchmarkAuditYamsBlock1Core, at
// each stake.
func BenchmarkFloorYamsBlock(b *testing.B) {
	oneCore(b)
	for _, stake := range Yams().Stakes {
		b.Run("stake="+stake.String(), func(b *testing.B) { benchFloor(b, Yams(), stake) })
	}
}

// BenchmarkAuditVegasTicket deals and scores one ticket of a block per
// iteration, from its own random source, as an audit's worker does.
func BenchmarkAuditVegasTicket(b *testing.B) {
	benchUnits(b, Vegas(), Vegas().DefaultStake, true)
}

// BenchmarkFloorVegasTicket seeds a ticket's random source and draws the
// bits its presentation carries.
func BenchmarkFloorVegasTicket(b *testing.B) {
	benchUnits(b, Vegas(), Vegas().DefaultStake, false)
}

// BenchmarkAuditYamsTicket deals and scores one Yam's unit per iteration.
func BenchmarkAuditYamsTicket(b *testing.B) {
	benchUnits(b, Yams(), decimal.NewFromInt(1), true)
}

// BenchmarkFloorYamsTicket is the floor of BenchmarkAuditYamsTicket.
func BenchmarkFloorYamsTicket(b *testing.B) {
	benchUnits(b, Yams(), decimal.NewFromInt(1), false)
}

// oneCore runs the benchmark with GOMAXPROCS 1.
func oneCore(b *testing.B) {
	prev := runtime.GOMAXPROCS(1)
	b.Cleanup(func() { runtime.GOMAXPROCS(prev) })
}

// benchAudit audits a block per iteration; on one worker, it runs the floor
// of another block after each, untimed, and reports the ratio.
func benchAudit(b *testing.B, g Game, stake decimal.Decimal, workers int) {
	table, err := g.Table(stake)
	if err != nil {
		b.Fatal(err)
	}
	words := presentationWords(b, g, table)
	var units int64
	var floor time.Duration
	var sink uint64
	for n := int64(1); b.Loop(); n++ {
		r, err := Audit(AuditOptions{Game: g, Stake: stake, Blocks: 1, Seed: game.SeedFrom(1), Workers: workers})
		if err != nil || !r.OK() {
			b.Fatalf("audit: %v, ok %v", err, r.OK())
		}
		units += r.Units
		if workers == 1 {
			b.StopTimer()
			start := time.Now()
			sink += floorBlock(g, stake, table, n, words)
			floor += time.Since(start)
			b.StartTimer()
		}
	}
	perUnit(b, units)
	if floor > 0 {
		b.ReportMetric(float64(b.Elapsed())/float64(floor), "x-floor")
	}
	if sink == 1 {
		b.Log(sink) // keeps the draws from being optimised away
	}
}

// benchFloor draws whole blocks and, for each unit, the random words of its
// presentation from its own source.
func benchFloor(b *testing.B, g Game, stake decimal.Decimal) {
	table, err := g.Table(stake)
	if err != nil {
		b.Fatal(err)
	}
	words := presentationWords(b, g, table)
	var sink uint64
	var units int64
	for n := int64(1); b.Loop(); n++ {
		sink += floorBlock(g, stake, table, n, words)
		units += table.Units
	}
	perUnit(b, units)
	if sink == 1 {
		b.Log(sink) // keeps the draws from being optimised away
	}
}

// floorBlock draws block n's lots and, for each unit, the words of its
// presentation from its own source; it returns their sum.
func floorBlock(g Game, stake decimal.Decimal, table *game.Table, n int64, words []int) uint64 {
	var pcg rand.PCG
	var sink uint64
	bs := game.SeedFrom(1).Block(g.Name, stake, n)
	blk := game.NewBlock(table, n, bs)
	for {
		serial, tier, ok := blk.Draw()
		if !ok {
			return sink
		}
		bs.SeedUnit(&pcg, serial)
		for range words[tier] {
			sink += pcg.Uint64()
		}
	}
}

// benchUnits deals and scores (check) or only draws the presentation's
// bits (floor) for the units of one block, one per iteration.
func benchUnits(b *testing.B, g Game, stake decimal.Decimal, check bool) {
	table, err := g.Table(stake)
	if err != nil {
		b.Fatal(err)
	}
	bs := game.SeedFrom(1).Block(g.Name, stake, 1)
	blk := game.NewBlock(table, 1, bs)
	tiers := make([]uint8, table.Units)
	for i := range tiers {
		_, t, _ := blk.Draw()
		tiers[i] = uint8(t)
	}
	words := presentationWords(b, g, table)
	c := newChecker(g, stake, table)
	t := tally{counts: make([]int64, table.Tiers())}
	var pcg rand.PCG
	var sink uint64
	var units int64
	for i := int64(0); b.Loop(); i++ {
		k := i % table.Units
		if check {
			c.check(auditJob{bs: bs, tiers: tiers, lo: k, hi: k + 1, tamper: tamperAt{index: -1}}, &t)
		} else {
			bs.SeedUnit(&pcg, k+1)
			for range words[tiers[k]] {
				sink += pcg.Uint64()
			}
		}
		units++
	}
	perUnit(b, units)
	if t.mismatches != 0 {
		b.Fatalf("%d units scored another tier than drawn", t.mismatches)
	}
	if sink == 1 {
		b.Log(sink)
	}
}

// presentationWords returns, for each tier, how many 64-bit words hold the
// randomness of a presentation of that tier. A Yam's unit of a tier is one
// of yams.Ways(tier) equally likely dice triples. A Vegas ticket is a split
// of its lot (fewer than 2¹⁰ per lot) and contents bounded by every content
// of each surface: 36 numbers × 11⁴ amounts × 35 number chips, (36 × 11)³
// throws, 52·51·…·46 ordered cards and 6⁴ symbol rows: under 110 bits.
func presentationWords(b *testing.B, g Game, t *game.Table) []int {
	words := make([]int, t.Tiers())
	for tier := range words {
		var bits float64
		if g.Name == yams.Name {
			bits = math.Log2(float64(yams.Ways(tier)))
		} else {
			bits = 10 + math.Log2(36*math.Pow(11, 4)*35) + 3*math.Log2(36*11) +
				math.Log2(52*51*50*49*48*47*46) + math.Log2(6*6*6*6)
		}
		if bits > 128 {
			b.Fatalf("tier %d: %.1f bits", tier, bits)
		}
		words[tier] = int(math.Ceil(bits / 64))
	}
	return words
}

// perUnit reports the time per unit of the benchmark.
func perUnit(b *testing.B, units int64) {
	if units > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(units), "ns/unit")
	}
}
