package cli

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/session"
	"tapis/stats"
	"tapis/store"
	"tapis/store/journal"
	"tapis/text"
	"tapis/ui"
	"tapis/wallet"
)

// Bounds of simulate's flags.
const (
	maxSimulated = 100_000_000 // --count
)

// simOptions is what `tapis simulate`'s command line asks for.
type simOptions struct {
	game       lottery.Game
	stake      decimal.Decimal
	count      int64
	seed       seedFlag
	balance    decimal.Decimal // the wallet of a new session
	balanceSet bool
	journal    string
	store      string // a shared store's URL
	account    string // the store's account that buys
	openBlocks int    // blocks on sale side by side in a new store
	houseKey   string // the house's signing key's file, with a store or a journal
	lang       ui.Lang
	json       bool
}

// simulate plays units as a player would, without a terminal: each one is
// bought (drawn, paid, journaled and synced when there is a journal),
// revealed (its layout scored, as its screen shows it) and marked shown,
// through the game's own session code. It prints the game's summary line,
// the units by lot against the regulation's shares and the return to
// player.
func simulate(env Env, args []string) int {
	o, err := simulateArgs(env, args)
	if err != nil {
		return fail(env, "simulate", err)
	}
	seed, err := o.seed.resolve()
	if err != nil {
		return fail(env, "simulate", err)
	}
	sess, err := session.Open(session.Options{Seed: seed, SeedSet: o.seed.set, Balance: o.balance, Journal: o.journal,
		Store: o.store, Account: o.account, OpenBlocks: o.openBlocks, KeyFile: o.houseKey})
	if err != nil {
		hint := ""
		if p := (journal.Problem{}); errors.As(err, &p) {
			hint = " (tapis verify --journal " + o.journal + " lists every problem)"
		}
		return fail(env, "simulate", usagef("%v%s", err, hint))
	}
	if sess.Note != "" {
		fmt.Fprintf(env.Stderr, "tapis simulate: journal %s: %s\n", text.Printable(o.journal), text.Printable(sess.Note))
	}
	if st := sess.Restored(); st != nil && o.balanceSet && !st.Start.Equal(o.balance) {
		where := "journal " + text.Printable(o.journal)
		if o.store != "" {
			where = "account " + text.Printable(sess.Account())
		}
		fmt.Fprintf(env.Stderr, "tapis simulate: %s keeps its own balance (%s): --balance does not apply\n",
			where, wallet.Format(st.Balance, "en"))
	}
	bar := progressOnTerminal(env)
	r, playErr := playUnits(sess, &o, bar.callback())
	bar.clear()
	if err := sess.Close(); err != nil && playErr == nil {
		playErr = fmt.Errorf("closing the journal: %w", err)
	}
	if r.figures == nil {
		return fail(env, "simulate", playErr)
	}
	if o.json {
		err = writeSimulationJSON(env.Stdout, &o, &r)
	} else {
		err = writeSimulation(env.Stdout, &o, &r)
	}
	if err != nil {
		return fail(env, "simulate", err)
	}
	switch {
	case playErr != nil:
		return fail(env, "simulate", playErr)
	case r.mismatches > 0:
		fmt.Fprintf(env.Stderr, "tapis simulate: %s whose layout does not score to its prize\n", count(r.mismatches, "unit"))
		return ExitInvalid
	case r.short && o.json:
		fmt.Fprintf(env.Stderr, "tapis simulate: %s\n", r.shortLine(&o, "en"))
	}
	return ExitOK
}

// simulateArgs reads simulate's flags; -h prints its usage and returns
// flag.ErrHelp.
func simulateArgs(env Env, args []string) (simOptions, error) {
	o := simOptions{lang: ui.English}
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	name := fs.String("game", "yams", "the game: yams or vegas")
	stake := fs.String("stake", "", "the stake: 0.5, 1 or 2 for yams (default 1), 3 for vegas")
	fs.Int64Var(&o.count, "count", 10_000, "how many units to play")
	fs.Var(&o.seed, "seed", "the master seed `N` (default: the journal's, or from the system's secure source)")
	balance := fs.String("balance", "", "the starting balance in `EUR` (default: what the units cost, so it never runs short)")
	fs.StringVar(&o.journal, "journal", "", "journal `FILE`: every purchase recorded and synced, as in the game; an existing journal is taken up")
	fs.StringVar(&o.store, "store", "", "buy from a shared store `URL` (sqlite:PATH, PATH.db, postgres://…), created on first use")
	fs.StringVar(&o.account, "account", "", "with --store: the account `NAME` that buys (default local), created with --balance")
	fs.IntVar(&o.openBlocks, "open-blocks", store.DefaultOpenBlocks, "with --store, when it is created: `K` blocks of each game and stake on sale side by side")
	houseKey := fs.String("house-key", ledger.DefaultKeyPath, "with --store or --journal: "+houseKeyUsage+" or journal")
	lang := fs.String("lang", "en", "the language of the report: fr or en")
	fs.BoolVar(&o.json, "json", false, "print the report as one JSON object")
	pos, err := parse(env, fs, args)
	if err != nil {
		return o, err
	}
	if len(pos) > 0 {
		return o, usagef("unexpected argument %q", pos[0])
	}
	if o.game, err = lottery.Find(*name); err != nil {
		return o, usagef("--game: %v", err)
	}
	if o.stake, err = o.game.Stake(*stake); err != nil {
		return o, usagef("--stake: %v", err)
	}
	if o.count < 1 || o.count > maxSimulated {
		return o, usagef("--count %d: want 1 to %d", o.count, maxSimulated)
	}
	if o.lang, err = ui.ParseLang(*lang); err != nil {
		return o, usagef("--lang: %v", err)
	}
	if err := checkStoreFlags(fs, o.store, o.journal); err != nil {
		return o, err
	}
	if o.store != "" || o.journal != "" {
		o.houseKey = *houseKey // a simulation in memory records nothing to sign
	}
	fs.Visit(func(f *flag.Flag) { o.balanceSet = o.balanceSet || f.Name == "balance" })
	if !o.balanceSet {
		o.balance = o.stake.Mul(decimal.NewFromInt(o.count))
		return o, nil
	}
	if o.balance, err = parseBalance(*balance); err != nil {
		return o, usagef("%v", err)
	}
	return o, nil
}

// simulation is what a simulation played.
type simulation struct {
	seed       game.Seed
	account    string          // the account that bought, on a store
	figures    *stats.Session  // the units played in this run, as the stats screen counts them
	earlier    int             // units of an earlier run found unrevealed in the journal, revealed first
	earlierWon decimal.Decimal // what they paid
	totals     wallet.Totals   // what this run bought
	balance    decimal.Decimal // the wallet's at the end
	mismatches int64           // units whose layout did not score to their prize
	perBlock   map[int64]int64 // the run's units drawn from each block, by its number
	tickets    stats.Tickets   // Vegas: the surfaces that paid and the splits shown
	short      bool            // the wallet could not pay the next unit
	elapsed    time.Duration   // buying, revealing and marking shown the run's units
}

// won returns what the player saw paid during the run, as the game's
// summary says it: the prizes of the units of an earlier run revealed
// first, and of the units bought.
func (r *simulation) won() decimal.Decimal { return r.earlierWon.Add(r.totals.Won) }

// playUnits plays o.count units of the session, or as many as its wallet pays,
// telling progress how many are done. The units a journal holds unrevealed
// from an earlier run are revealed first, as the game offers them first.
// The simulation is returned with the error that stopped it, if any; its
// figures are nil when nothing could be counted.
func playUnits(sess *session.Session, o *simOptions, progress func(done, total int64)) (simulation, error) {
	r := simulation{seed: sess.Seed(), account: sess.Account(), perBlock: map[int64]int64{}}
	if st := sess.Restored(); st != nil {
		for _, p := range st.Pending {
			reveal(&r, &p.Sold)
			if err := sess.Shown(p.Sold.Ref()); err != nil {
				return r, fmt.Errorf("marking %s shown: %w", text.Printable(p.Sold.Name()), err)
			}
			r.earlier++
			r.earlierWon = r.earlierWon.Add(p.Sold.Unit.Prize)
		}
	}
	r.figures = stats.Fresh()
	r.figures.StartAt(sess.Balance())
	var err error
	start := time.Now()
	for done := int64(0); done < o.count; done++ {
		var sold lottery.Sold
		var op wallet.Operation
		sold, op, err = sess.Buy(o.game, o.stake, nil, "")
		if errors.Is(err, wallet.ErrShort) {
			r.short, err = true, nil
			break
		}
		if err != nil {
			err = fmt.Errorf("buying unit %d: %w", done+1, err)
			break
		}
		score := reveal(&r, &sold)
		if sold.Forced == nil {
			r.perBlock[sold.Unit.ID.Block]++
			if score.Vegas != nil {
				r.tickets.Add(score.Vegas)
			}
		}
		u := stats.Unit{Game: o.game.Name, Stake: o.stake, Prize: sold.Unit.Prize, Balance: op.After, At: time.Now()}
		if err = r.figures.Add(u); err != nil {
			err = fmt.Errorf("counting %s: %w", text.Printable(sold.Name()), err)
			break
		}
		// The game goes on when a shown record cannot be written (the
		// session writes it before its next record); a load run stops,
		// its journal failing.
		if err = sess.Shown(sold.Ref()); err != nil {
			err = fmt.Errorf("marking %s shown: %w", text.Printable(sold.Name()), err)
			break
		}
		if progress != nil {
			progress(done+1, o.count)
		}
	}
	r.elapsed = time.Since(start)
	r.totals, r.balance = sess.Totals(), sess.Balance()
	return r, err
}

// reveal scores a unit's layout, as its screen does when it is fully
// revealed, counts it when it does not pay the prize the unit was sold
// for, and returns its score.
func reveal(r *simulation, sold *lottery.Sold) lottery.Score {
	s := sold.Layout.Score()
	if !s.Prize().Equal(sold.Unit.Prize) {
		r.mismatches++
	}
	return s
}

// draws returns how the run's units came out of their blocks, for the
// finite-population correction of its statistics.
func (r *simulation) draws(blockUnits int64) stats.Draws {
	d := stats.Draws{BlockUnits: blockUnits, PerBlock: make([]int64, 0, len(r.perBlock))}
	for _, m := range r.perBlock {
		d.PerBlock = append(d.PerBlock, m)
	}
	slices.Sort(d.PerBlock) // the same sums, in the same order, at every run
	return d
}

// maxBalance bounds --balance, in euros, wherever it is read.
const maxBalance = 1_000_000_000

// parseBalance reads --balance: an amount as a person types it, at most
// maxBalance euros.
func parseBalance(s string) (decimal.Decimal, error) {
	b, err := game.ParseAmount(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("--balance: %w", err)
	}
	if b.GreaterThan(decimal.NewFromInt(maxBalance)) {
		return decimal.Decimal{}, fmt.Errorf("--balance %s: at most %d", text.Printable(s), maxBalance)
	}
	return b, nil
}
