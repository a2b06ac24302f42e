package lottery

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
)

// TierCount is one line of an audit: a lot of the table (or the losing
// units, prize zero), how many units the table gives it, and how many units
// scored to it.
type TierCount struct {
	Prize    decimal.Decimal
	Expected int64
	Counted  int64
}

// AuditReport is what an audit found.
type AuditReport struct {
	Game       string
	Stake      decimal.Decimal
	Blocks     int64
	Units      int64
	Tiers      []TierCount // the table's lots, highest first, then the losing units
	Mismatches int64       // units whose layout did not score to the prize drawn
	Unknown    int64       // units whose layout scored to no lot of the table
	Paid       decimal.Decimal
	Sales      decimal.Decimal
	Elapsed    time.Duration
}

// RTP returns the return to player: what the units paid over what they cost.
func (r *AuditReport) RTP() decimal.Decimal {
	if r.Sales.IsZero() {
		return decimal.Zero
	}
	return r.Paid.DivRound(r.Sales, 6)
}

// OK reports whether every unit scored to its drawn prize and every count
// equals the table's.
func (r *AuditReport) OK() bool {
	if r.Mismatches != 0 || r.Unknown != 0 {
		return false
	}
	for _, t := range r.Tiers {
		if t.Counted != t.Expected {
			return false
		}
	}
	return true
}

// AuditOptions says what to audit.
type AuditOptions struct {
	Game    Game
	Stake   decimal.Decimal
	Blocks  int64
	Seed    game.Seed
	Workers int // 0 for one per core
	// Progress, when not nil, is told how many units have been checked so
	// far out of the total, each time a chunk of units is. It is called
	// from the goroutine that runs Audit, never concurrently, and last with
	// done equal to total.
	Progress func(done, total int64)
}

// auditChunk is how many units a worker checks at a time.
const auditChunk = 1 << 16

// auditJob is a chunk of a block's units, from lo to hi, to check.
type auditJob struct {
	bs     game.BlockSeed
	tiers  []uint8 // the block's drawn tiers; the job reads [lo, hi)
	lo, hi int64
}

// Audit sells whole blocks of a game at a stake through the engine: each unit
// is drawn, dealt from its own random source, scored, and counted by the prize
// it scored to. Units are drawn in order and handed by chunks to workers, one
// per core, that deal and score them; the result depends only on the
// options, not on the number of cores.
func Audit(o AuditOptions) (AuditReport, error) {
	start := time.Now()
	table, err := o.Game.Table(o.Stake)
	if err != nil {
		return AuditReport{}, err
	}
	if o.Blocks < 1 {
		return AuditReport{}, fmt.Errorf("audit: %d blocks: want at least 1", o.Blocks)
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan auditJob)
	results := make(chan tally, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			c := newChecker(o.Game, o.Stake, table)
			for j := range jobs {
				results <- check(c, j.bs, j.tiers, j.lo, j.hi, table.Tiers())
			}
		})
	}
	defer wg.Wait()
	defer close(jobs)

	counts := make([]int64, table.Tiers())
	var mismatches, unknown, done int64
	total := table.Units * o.Blocks
	collect := func(t tally) {
		for i, c := range t.counts {
			counts[i] += c
		}
		mismatches += t.mismatches
		unknown += t.unknown
		done += t.units
		if o.Progress != nil {
			o.Progress(done, total)
		}
	}
	tiers := make([]uint8, table.Units)
	for n := int64(1); n <= o.Blocks; n++ {
		bs := o.Seed.Block(o.Game.Name, o.Stake, n)
		b := game.NewBlock(table, n, bs)
		pending := 0
		for lo := int64(0); lo < table.Units; lo += auditChunk {
			hi := min(lo+auditChunk, table.Units)
			for i := lo; i < hi; i++ {
				_, t, _ := b.Draw()
				tiers[i] = uint8(t)
			}
			// The chunk goes to the first worker free; what the others
			// finish meanwhile is counted.
			for sent := false; !sent; {
				select {
				case jobs <- auditJob{bs: bs, tiers: tiers, lo: lo, hi: hi}:
					sent = true
					pending++
				case t := <-results:
					collect(t)
					pending--
				}
			}
		}
		// Every chunk of the block is counted before tiers is drawn again.
		for ; pending > 0; pending-- {
			collect(<-results)
		}
	}
	r := AuditReport{
		Game: o.Game.Name, Stake: o.Stake, Blocks: o.Blocks, Units: total,
		Mismatches: mismatches, Unknown: unknown, Paid: decimal.Zero,
	}
	for i := range table.Tiers() {
		r.Tiers = append(r.Tiers, TierCount{table.Prize(i), table.Count(i) * o.Blocks, counts[i]})
		r.Paid = r.Paid.Add(table.Prize(i).Mul(decimal.NewFromInt(counts[i])))
	}
	r.Sales = o.Stake.Mul(decimal.NewFromInt(r.Units))
	r.Elapsed = time.Since(start)
	return r, nil
}

// tally is what a chunk of units scored to.
type tally struct {
	counts              []int64 // units by the tier they scored to
	mismatches, unknown int64
	units               int64 // the units checked
}

// checker deals a unit of a tier into a layout it reuses, scores it, and
// returns the tier the score falls in.
type checker interface {
	check(r *rand.Rand, tier int) (scored int, ok bool)
}

func newChecker(g Game, stake decimal.Decimal, t *game.Table) checker {
	if g.Name == vegas.Name {
		return &vegasChecker{table: t}
	}
	return &yamsChecker{table: t, unit: yams.Unit{Stake: stake}}
}

func check(c checker, bs game.BlockSeed, tiers []uint8, lo, hi int64, n int) tally {
	t := tally{counts: make([]int64, n), units: hi - lo}
	var pcg rand.PCG
	r := rand.New(&pcg)
	for i := lo; i < hi; i++ {
		bs.SeedUnit(&pcg, i+1)
		drawn := int(tiers[i])
		scored, ok := c.check(r, drawn)
		switch {
		case !ok:
			t.unknown++
			t.mismatches++
		case scored != drawn:
			t.mismatches++
			t.counts[scored]++
		default:
			t.counts[scored]++
		}
	}
	return t
}

type yamsChecker struct {
	table *game.Table
	unit  yams.Unit
}

func (c *yamsChecker) check(r *rand.Rand, tier int) (int, bool) {
	yams.Deal(r, tier, &c.unit)
	return scoredTier(c.table, tier, c.unit.Score().Prize)
}

type vegasChecker struct {
	table  *game.Table
	ticket vegas.Ticket
}

func (c *vegasChecker) check(r *rand.Rand, tier int) (int, bool) {
	vegas.Deal(r, tier, &c.ticket)
	return scoredTier(c.table, tier, c.ticket.Score().Prize)
}

// scoredTier returns the tier of the prize scored, checking the drawn tier
// first since it is nearly always the one.
func scoredTier(t *game.Table, drawn int, prize decimal.Decimal) (int, bool) {
	if prize.Equal(t.Prize(drawn)) {
		return drawn, true
	}
	return t.Tier(prize)
}
