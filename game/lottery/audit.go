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
	Tampered   *Tampered // the unit AuditOptions.Tamper dealt otherwise, nil without one
}

// Tamper names the one unit an audit's self-test deals as another lot
// than its block drew: the audit must then fail.
type Tamper struct {
	Block  int64 // from 1, at most AuditOptions.Blocks
	Serial int64 // from 1, at most a block's units
}

// Tampered is what the self-test did to its unit: the lot its block drew
// for it, and the lot its layout was dealt for in its place (the top lot,
// or a losing unit when the block drew the top lot).
type Tampered struct {
	Unit         game.UnitID
	Drawn, Dealt decimal.Decimal
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
	// Tamper, when not nil, deals that one unit's layout for another lot
	// than its block drew, as a dealer gone wrong would: the self-test that
	// shows the audit failing.
	Tamper *Tamper
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
	tamper tamperAt
}

// tamperAt is the unit of a job dealt for another tier than drawn: its
// index in the block, or -1 for none.
type tamperAt struct {
	index int64
	tier  int
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
	if tp := o.Tamper; tp != nil && (tp.Block < 1 || tp.Block > o.Blocks || tp.Serial < 1 || tp.Serial > table.Units) {
		return AuditReport{}, fmt.Errorf("audit: tampering with unit %d of block %d: not among %d blocks of %d units", tp.Serial, tp.Block, o.Blocks, table.Units)
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
				t := tally{counts: make([]int64, table.Tiers()), units: j.hi - j.lo}
				c.check(j, &t)
				results <- t
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
	var tampered *Tampered
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
			at := tamperAt{index: -1}
			if tp := o.Tamper; tp != nil && tp.Block == n && tp.Serial > lo && tp.Serial <= hi {
				at = tamperAt{index: tp.Serial - 1}
				drawn := int(tiers[at.index])
				if drawn != 0 {
					at.tier = 0
				} else {
					at.tier = table.Losing()
				}
				tampered = &Tampered{Unit: game.UnitID{Game: o.Game.Name, Stake: o.Stake, Block: n, Serial: tp.Serial}, Drawn: table.Prize(drawn), Dealt: table.Prize(at.tier)}
			}
			// The chunk goes to the first worker free; what the others
			// finish meanwhile is counted.
			for sent := false; !sent; {
				select {
				case jobs <- auditJob{bs: bs, tiers: tiers, lo: lo, hi: hi, tamper: at}:
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
		Mismatches: mismatches, Unknown: unknown, Paid: decimal.Zero, Tampered: tampered,
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

// checker deals units of their drawn tiers, each from its own random
// source, into a layout it reuses, scores them, and counts the tiers their
// prizes fall in.
type checker interface {
	check(j auditJob, t *tally)
}

func newChecker(g Game, stake decimal.Decimal, t *game.Table) checker {
	p := newPrizes(t)
	if g.Name == vegas.Name {
		return &vegasChecker{prizes: p, dealer: vegas.NewDealer()}
	}
	return &yamsChecker{prizes: p, dealer: yams.NewDealer(), unit: yams.Unit{Stake: stake}}
}

// count counts a unit drawn in one tier whose layout scored a prize.
func (t *tally) count(p prizes, drawn int, prize game.Cents) {
	if prize == p[drawn] { // as nearly always: the drawn tier
		t.counts[drawn]++
		return
	}
	t.mismatch(p, prize)
}

// mismatch counts a unit whose layout scored another prize than its drawn
// tier's: by the tier of the prize it scored, or as unknown when the table
// has no such prize.
func (t *tally) mismatch(p prizes, prize game.Cents) {
	t.mismatches++
	for i, q := range p {
		if q == prize {
			t.counts[i]++
			return
		}
	}
	t.unknown++
}

type yamsChecker struct {
	prizes prizes
	dealer yams.Dealer
	unit   yams.Unit
}

// check deals and scores units lo to hi-1 of the job's block (serials
// lo+1 to hi).
func (c *yamsChecker) check(j auditJob, t *tally) {
	var pcg rand.PCG
	src := game.PCGSource(&pcg)
	for i := j.lo; i < j.hi; i++ {
		j.bs.SeedUnit(&pcg, i+1)
		drawn := int(j.tiers[i])
		c.dealer.Deal(src, j.tamper.dealt(i, drawn), &c.unit)
		t.count(c.prizes, drawn, c.unit.Prize())
	}
}

// dealt returns the tier unit i is dealt for: the tier drawn, but for the
// one unit tampered with.
func (a tamperAt) dealt(i int64, drawn int) int {
	if i == a.index {
		return a.tier
	}
	return drawn
}

type vegasChecker struct {
	prizes prizes
	dealer vegas.Dealer
	ticket vegas.Ticket
}

// check deals and scores tickets lo to hi-1 of the job's block.
func (c *vegasChecker) check(j auditJob, t *tally) {
	var pcg rand.PCG
	src := game.PCGSource(&pcg)
	for i := j.lo; i < j.hi; i++ {
		j.bs.SeedUnit(&pcg, i+1)
		drawn := int(j.tiers[i])
		c.dealer.Deal(src, j.tamper.dealt(i, drawn), &c.ticket)
		t.count(c.prizes, drawn, c.ticket.Prize())
	}
}

// prizes holds the prize of each tier of a table, in cents.
type prizes []game.Cents

func newPrizes(t *game.Table) prizes {
	p := make(prizes, t.Tiers())
	for i := range p {
		p[i] = t.PrizeCents(i)
	}
	return p
}
