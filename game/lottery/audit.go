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
}

// Audit sells whole blocks of a game at a stake through the engine: each unit
// is drawn, dealt from its own random source, scored, and counted by the prize
// it scored to. Units are dealt and scored on every core; the result depends
// only on the options, not on the number of cores.
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
	counts := make([]int64, table.Tiers())
	var mismatches, unknown int64
	tiers := make([]uint8, table.Units)
	for n := int64(1); n <= o.Blocks; n++ {
		bs := o.Seed.Block(o.Game.Name, o.Stake, n)
		b := game.NewBlock(table, n, bs)
		for i := range tiers {
			_, t, _ := b.Draw()
			tiers[i] = uint8(t)
		}
		parts := make([]tally, workers)
		var wg sync.WaitGroup
		chunk := (table.Units + int64(workers) - 1) / int64(workers)
		for w := range workers {
			lo, hi := int64(w)*chunk, min(int64(w+1)*chunk, table.Units)
			wg.Go(func() {
				parts[w] = check(newChecker(o.Game, o.Stake, table), bs, tiers, lo, hi, table.Tiers())
			})
		}
		wg.Wait()
		for _, p := range parts {
			for i, c := range p.counts {
				counts[i] += c
			}
			mismatches += p.mismatches
			unknown += p.unknown
		}
	}
	r := AuditReport{
		Game: o.Game.Name, Stake: o.Stake, Blocks: o.Blocks, Units: table.Units * o.Blocks,
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

type tally struct {
	counts              []int64
	mismatches, unknown int64
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
	t := tally{counts: make([]int64, n)}
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
