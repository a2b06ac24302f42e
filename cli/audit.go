package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/wallet"
)

// audit sells whole blocks through the engine and counts them against the
// lot table. While it works, a progress bar is drawn on standard error when
// it is a terminal.
func audit(env Env, args []string) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	name := fs.String("game", "", "the game: yams or vegas")
	stakeFlag := fs.String("stake", "", "the stake: 0.5, 1 or 2 for yams (default 1), 3 for vegas")
	blocks := fs.Int64("blocks", 1, "how many whole blocks to sell")
	var seed seedFlag
	fs.Var(&seed, "seed", "the master seed `N` (default: from the system's secure source)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
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
	stake, err := g.Stake(*stakeFlag)
	if err != nil {
		return fail(env, "audit", usagef("--stake: %v", err))
	}
	if *blocks < 1 || *blocks > 1_000_000 {
		return fail(env, "audit", usagef("--blocks %d: want 1 to 1000000", *blocks))
	}
	s, err := seed.resolve()
	if err != nil {
		return fail(env, "audit", err)
	}
	bar := progressOnTerminal(env)
	r, err := lottery.Audit(lottery.AuditOptions{Game: g, Stake: stake, Blocks: *blocks, Seed: s, Progress: bar.callback()})
	bar.clear()
	if err != nil {
		return fail(env, "audit", err)
	}
	if *asJSON {
		err = writeAuditJSON(env.Stdout, &r, s)
	} else {
		err = writeAuditTable(env.Stdout, &r, s)
	}
	if err != nil {
		return fail(env, "audit", err)
	}
	if !r.OK() {
		fmt.Fprintf(env.Stderr, "tapis audit: %s does not match its lot table (%d mismatches)\n", g.Name, r.Mismatches)
		return ExitInvalid
	}
	return ExitOK
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
		lot := wallet.Format(t.Prize, "en")
		if t.Prize.IsZero() {
			lot = "losing"
		}
		mark := "ok"
		if t.Counted != t.Expected {
			mark = "MISMATCH"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", lot, t.Expected, t.Counted, mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nunits not scoring to their drawn prize: %d\n", r.Mismatches)
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
