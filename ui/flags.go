package ui

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tapis/cli"
	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
)

// ParseArgs reads the interactive game's arguments: an optional game name
// (yams or vegas) and the flags --balance, --seed and --lang, in any order.
// getenv gives the locale when --lang is absent. flag.ErrHelp means -h.
func ParseArgs(args []string, getenv func(string) string, usage io.Writer) (Options, error) {
	o := Options{Balance: decimal.NewFromInt(100), Start: MenuScreen, Lang: LangFromEnv(getenv)}
	fs := flag.NewFlagSet("tapis", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	balance := fs.String("balance", "100", "starting balance in euros")
	seed := fs.String("seed", "", "master seed: the same seed and keys replay the same session")
	lang := fs.String("lang", "", "language of the screen: fr or en (default from LC_ALL/LANG)")
	stake := fs.String("stake", "", "the Yam's stake at start: 0.5, 1 or 2 (also 0,5)")
	fs.StringVar(&o.Journal, "journal", "", "journal FILE: every purchase recorded on disk; an existing journal is taken up again")
	fs.BoolVar(&o.QA, "qa", false, "QA mode: status line, and f to force the next unit")
	fs.BoolVar(&o.Demo, "demo", false, "trade-show demo: the game plays itself when nobody touches it")
	idle := fs.String("idle", "60s", "with --demo: idle time before the demo plays again (90s, 2m)")
	playlist := fs.String("playlist", "", "with --demo: JSON lines of lots or layouts to play instead of the built-in playlist")
	pos, err := cli.SplitArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(usage, "usage: tapis [yams|vegas] [--balance EUR] [--stake S] [--seed N] [--lang fr|en] [--journal FILE] [--qa] [--demo [--idle 60s] [--playlist FILE]]")
			fs.SetOutput(usage)
			fs.PrintDefaults()
		}
		return o, err
	}
	if len(pos) > 1 {
		return o, fmt.Errorf("unexpected argument %q", pos[1])
	}
	if len(pos) == 1 {
		switch pos[0] {
		case "yams":
			o.Start = YamsScreen
		case "vegas":
			o.Start = VegasScreen
		default:
			return o, fmt.Errorf("unknown command %q (see tapis help)", pos[0])
		}
	}
	b, err := game.ParseAmount(*balance)
	if err != nil {
		return o, fmt.Errorf("--balance: %w", err)
	}
	if b.GreaterThan(decimal.NewFromInt(1_000_000_000)) {
		return o, fmt.Errorf("--balance %s: at most 1000000000", *balance)
	}
	o.Balance = b
	if *lang != "" {
		if o.Lang, err = ParseLang(*lang); err != nil {
			return o, fmt.Errorf("--lang: %w", err)
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.BalanceSet = set["balance"]
	if set["idle"] && !o.Demo {
		return o, errors.New("--idle needs --demo")
	}
	if *stake != "" && o.Start == VegasScreen {
		// A ticket has one price: --stake chooses the Yam's stake.
		if _, err := lottery.Vegas().Stake(*stake); err != nil {
			return o, fmt.Errorf("--stake %s: a Vegas ticket costs %s; --stake chooses the Yam's stake (0.5, 1 or 2)", *stake, vegas.Price())
		}
	} else if *stake != "" {
		if o.Stake, err = lottery.Yams().Stake(*stake); err != nil {
			return o, fmt.Errorf("--stake: %w", err)
		}
	}
	if o.Demo && o.Journal != "" {
		return o, errors.New("--demo and --journal: a kiosk's play money is not journaled")
	}
	if o.Idle, err = parseIdle(*idle); err != nil {
		return o, err
	}
	if *playlist != "" {
		if !o.Demo {
			return o, errors.New("--playlist needs --demo")
		}
		f, err := os.Open(*playlist)
		if err != nil {
			return o, fmt.Errorf("--playlist: %w", err)
		}
		defer f.Close()
		if o.Playlist, err = lottery.ReadPlaylist(f); err != nil {
			return o, fmt.Errorf("--playlist %s: %w", *playlist, err)
		}
	}
	if *seed == "" {
		s, err := game.RandomSeed()
		if err != nil {
			return o, err
		}
		o.Seed = s
	} else {
		if o.Seed, err = game.ParseSeed(*seed); err != nil {
			return o, fmt.Errorf("--seed: %w", err)
		}
		o.SeedSet = true
	}
	return o, nil
}

// parseIdle reads --idle: a Go duration (90s, 2m) or whole seconds, from 1 s
// to a day.
func parseIdle(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		n, nerr := strconv.Atoi(s)
		if nerr != nil {
			return 0, fmt.Errorf("--idle: %q is not a duration (90s, 2m)", s)
		}
		d = time.Duration(n) * time.Second
	}
	if d < time.Second || d > 24*time.Hour {
		return 0, fmt.Errorf("--idle %s: want 1s to 24h", s)
	}
	return d, nil
}
