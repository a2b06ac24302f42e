package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"text/tabwriter"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/wallet"
)

// audit sells whole blocks through the engine and counts them against the
// lot table, at one stake or every stake of the game (--stake all). With
// --self-test it deals one unit of each audit for another lot than its
// block drew, and passes when the audit fails on it. While it works, a
// progress bar is drawn on standard error when it is a terminal.
func audit(env Env, args []string) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	name := fs.String("game", "", "the game: yams or vegas")
	stakeFlag := fs.String("stake", "", "the stake: 0.5, 1 or 2 for yams (default 1), 3 for vegas; all: every stake of the game, one after the other")
	blocks := fs.Int64("blocks", 1, "how many whole blocks to sell")
	var seed seedFlag
	fs.Var(&seed, "seed", "the master seed `N` (default: from the system's secure source)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object (one line a stake with --stake all)")
	selfTest := fs.Bool("self-test", false, "deal one unit for another lot than its block drew, on purpose: exit 0 when the audit fails on it, 1 when it does not")
	pos, err := parse(env, fs, args)
	if err != nil {
		return fail(env, "audit", err)
	}
	if len(pos) > 0 {
		return fail(env, "audit", usagef("unexpected argument %q", pos[0]))
	}
	if *name == "" {
		return fail(env, "audit", usagef("--game is required (yams or vegas)"))
	}
	g, err := lottery.Find(*name)
	if err != nil {
		return fail(env, "audit", usagef("--game: %v", err))
	}
	stakes := g.Stakes
	if *stakeFlag != "all" {
		stake, err := g.Stake(*stakeFlag)
		if err != nil {
			return fail(env, "audit", usagef("--stake: %v (or all)", err))
		}
		stakes = []decimal.Decimal{stake}
	}
	if *blocks < 1 || *blocks > 1_000_000 {
		return fail(env, "audit", usagef("--blocks %d: want 1 to 1000000", *blocks))
	}
	s, err := seed.resolve()
	if err != nil {
		return fail(env, "audit", err)
	}
	status := ExitOK
	for i, stake := range stakes {
		if i > 0 && !*asJSON {
			fmt.Fprintln(env.Stdout)
		}
		if st := auditStake(env, g, stake, *blocks, s, *asJSON, *selfTest); st != ExitOK {
			status = st
		}
	}
	return status
}

// auditStake audits one stake of a game and prints its report, and
// returns its exit status.
func auditStake(env Env, g lottery.Game, stake decimal.Decimal, blocks int64, s game.Seed, asJSON, selfTest bool) int {
	o := lottery.AuditOptions{Game: g, Stake: stake, Blocks: blocks, Seed: s}
	if selfTest {
		o.Tamper = selfTestUnit(g, stake, blocks, s)
	}
	bar := progressOnTerminal(env)
	o.Progress = bar.callback()
	r, err := lottery.Audit(o)
	bar.clear()
	if err != nil {
		return fail(env, "audit", err)
	}
	if asJSON {
		err = writeAuditJSON(env.Stdout, &r, s)
	} else {
		err = writeAuditTable(env.Stdout, &r, s)
	}
	if err != nil {
		return fail(env, "audit", err)
	}
	at := fmt.Sprintf("%s at %s", g.Name, wallet.Format(stake, "en"))
	switch {
	case selfTest && r.OK():
		fmt.Fprintf(env.Stderr, "tapis audit: self-test: %s: the audit passed with unit %s dealt for another lot: it checks nothing\n", at, r.Tampered.Unit)
		return ExitInvalid
	case selfTest:
		return ExitOK
	case !r.OK():
		fmt.Fprintf(env.Stderr, "tapis audit: %s does not match its lot table (%d mismatches)\n", at, r.Mismatches)
		return ExitInvalid
	}
	return ExitOK
}

// selfTestUnit picks the unit the self-test deals otherwise: any unit of
// the blocks audited, drawn from a stream of the seed, so that a run with
// the same seed tampers with the same unit.
func selfTestUnit(g lottery.Game, stake decimal.Decimal, blocks int64, s game.Seed) *lottery.Tamper {
	table, _ := g.Table(stake)
	r := rand.New(s.Stream("audit self-test " + g.Seq(stake).String()))
	return &lottery.Tamper{Block: 1 + r.Int64N(blocks), Serial: 1 + r.Int64N(table.Units)}
}

type tierJSON struct {
	Prize    string `json:"prize"`
	Expected int64  `json:"expected"`
	Counted  int64  `json:"counted"`
}

type auditJSON struct {
	Game           string     `json:"game"`
	Stake          *string    `json:"stake"`
	Seed           string     `json:"seed"`
	Blocks         int64      `json:"blocks"`
	Units          int64      `json:"units"`
	Tiers          []tierJSON `json:"tiers"`
	Mismatches     int64      `json:"mismatches"`
	RTP            string     `json:"rtp"`
	Seconds        float64    `json:"seconds"`
	UnitsPerSecond int64      `json:"units_per_second"`
	SelfTest       *selfJSON  `json:"self_test,omitempty"`
}

// selfJSON is what audit --self-test did: the unit dealt for another lot,
// the lot drawn and the lot dealt, and whether the audit failed on it.
type selfJSON struct {
	Unit   string `json:"unit"`
	Drawn  string `json:"drawn"`
	Dealt  string `json:"dealt"`
	Caught bool   `json:"caught"`
}

func writeAuditJSON(w io.Writer, r *lottery.AuditReport, seed game.Seed) error {
	out := auditJSON{
		Game: r.Game, Seed: seed.String(), Blocks: r.Blocks, Units: r.Units, Mismatches: r.Mismatches,
		RTP: r.RTP().String(), Seconds: math.Round(r.Elapsed.Seconds()*1000) / 1000,
		UnitsPerSecond: unitsPerSecond(r),
	}
	if r.Game != vegas.Name {
		s := r.Stake.String()
		out.Stake = &s
	}
	for _, t := range r.Tiers {
		out.Tiers = append(out.Tiers, tierJSON{t.Prize.String(), t.Expected, t.Counted})
	}
	if tp := r.Tampered; tp != nil {
		out.SelfTest = &selfJSON{Unit: tp.Unit.String(), Drawn: tp.Drawn.String(), Dealt: tp.Dealt.String(), Caught: !r.OK()}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func writeAuditTable(w io.Writer, r *lottery.AuditReport, seed game.Seed) error {
	plural := "s"
	if r.Blocks == 1 {
		plural = ""
	}
	fmt.Fprintf(w, "audit of %s at %s: %d block%s, %d units, seed %s\n\n",
		r.Game, wallet.Format(r.Stake, "en"), r.Blocks, plural, r.Units, seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "lot\texpected\tcounted\t\t")
	for _, t := range r.Tiers {
		lot := lotName(t.Prize)
		mark := "ok"
		if t.Counted != t.Expected {
			mark = "MISMATCH"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", lot, t.Expected, t.Counted, mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nunits not scoring to their drawn prize: %d\n", r.Mismatches)
	if tp := r.Tampered; tp != nil {
		verdict := "the audit fails on it, as it must: self-test passed"
		if r.OK() {
			verdict = "the audit passed all the same: SELF-TEST FAILED"
		}
		fmt.Fprintf(w, "self-test: unit %s, drawn as %s, dealt for %s on purpose; %s\n",
			tp.Unit, lotName(tp.Drawn), lotName(tp.Dealt), verdict)
	}
	fmt.Fprintf(w, "return to player: %s %% (paid %s of %s sold)\n",
		r.RTP().Shift(2), wallet.Format(r.Paid, "en"), wallet.Format(r.Sales, "en"))
	_, err := fmt.Fprintf(w, "%d units in %.3f s: %d units per second\n",
		r.Units, r.Elapsed.Seconds(), unitsPerSecond(r))
	return err
}

func unitsPerSecond(r *lottery.AuditReport) int64 {
	s := r.Elapsed.Seconds()
	if s <= 0 {
		return 0
	}
	return int64(float64(r.Units) / s)
}

// lotName names a lot in audit's report: its prize, or "losing".
func lotName(prize decimal.Decimal) string {
	if prize.IsZero() {
		return "losing"
	}
	return wallet.Format(prize, "en")
}
