package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/ledger"
	"tapis/session"
	"tapis/store"
	"tapis/ui"
)

// gameFlags are the interactive game's flags, as they are parsed.
type gameFlags struct {
	balance, seed, lang, stake, idle, playlist string
	speed                                      string
	journal, store, account, houseKey          string
	openBlocks                                 int
	qa, demo, bell                             bool
}

// newGameFlags returns the game's flag set, writing into f.
func newGameFlags(f *gameFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("tapis", flag.ContinueOnError)
	fs.StringVar(&f.balance, "balance", "100", "starting balance in euros")
	fs.StringVar(&f.seed, "seed", "", "master seed: the same seed and keys replay the same session")
	fs.StringVar(&f.lang, "lang", "", "language of the screen: fr or en (default from LC_ALL/LANG)")
	fs.StringVar(&f.stake, "stake", "", "the Yam's stake at start: 0.5, 1 or 2 (also 0,5)")
	fs.StringVar(&f.journal, "journal", "", "journal FILE: every purchase recorded on disk; an existing journal is taken up again")
	fs.StringVar(&f.store, "store", "", "play on a shared store `URL` (sqlite:PATH, PATH.db, postgres://…), created on first use")
	fs.StringVar(&f.account, "account", "", "with --store: the account `NAME` that plays (default local), created with --balance")
	fs.IntVar(&f.openBlocks, "open-blocks", store.DefaultOpenBlocks, "with --store, when it is created: `K` blocks of each game and stake on sale side by side")
	fs.StringVar(&f.houseKey, "house-key", ledger.DefaultKeyPath, "with --store or --journal: "+houseKeyUsage+" or journal")
	fs.StringVar(&f.speed, "speed", "normal", "the reveals' `PACE`: slow, normal or fast (v changes it in the game)")
	fs.BoolVar(&f.bell, "bell", false, "ring the terminal's bell when a win of ten stakes or more is celebrated")
	fs.BoolVar(&f.qa, "qa", false, "QA mode: status line, and f to force the next unit")
	fs.BoolVar(&f.demo, "demo", false, "trade-show demo: the game plays itself when nobody touches it")
	fs.StringVar(&f.idle, "idle", "60s", "with --demo: idle time before the demo plays again (90s, 2m)")
	fs.StringVar(&f.playlist, "playlist", "", "with --demo: JSON lines of lots or layouts to play instead of the built-in playlist")
	return fs
}

// Game is what the interactive game's command line asks for: the session
// to open (in memory, on a journal or on a store) and the screens'
// options.
type Game struct {
	Session session.Options
	UI      ui.Options
}

// Open opens the game's session, then its model on it (which takes it).
func (g Game) Open() (*ui.Model, error) {
	sess, err := session.Open(g.Session)
	if err != nil {
		return nil, err
	}
	return ui.New(sess, g.UI), nil
}

// GameArgs reads the interactive game's arguments: an optional game name
// (yams or vegas) and its flags, in any order. getenv gives the locale when
// --lang is absent; --playlist's file is read, and without --seed a seed is
// drawn from the system's secure source. -h and --help write the program's
// usage on stdout and return flag.ErrHelp; any other error is a usage error
// (exit status 2), in one line.
func GameArgs(args []string, getenv func(string) string, stdout io.Writer) (Game, error) {
	var g Game
	o, so := &g.UI, &g.Session // the screens' options, the session's
	*o = ui.Options{Balance: decimal.NewFromInt(100), Start: ui.MenuScreen, Lang: ui.LangFromEnv(getenv)}
	so.Limit = ui.HistoryLimit
	if err := flagAfterDashes(args); err != nil {
		return g, err
	}
	var f gameFlags
	fs := newGameFlags(&f)
	pos, err := SplitArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			writeUsage(stdout)
		}
		return g, err
	}
	o.QA, o.Demo, o.Bell = f.qa, f.demo, f.bell
	if o.Speed, err = ui.ParseSpeed(f.speed); err != nil {
		return g, fmt.Errorf("--speed: %w", err)
	}
	so.Journal, so.QA, so.Store, so.Account, so.OpenBlocks = f.journal, f.qa, f.store, f.account, f.openBlocks
	if err := checkStoreFlags(fs, f.store, f.journal); err != nil {
		return g, err
	}
	if f.store != "" || f.journal != "" {
		so.KeyFile = f.houseKey // the game in memory records nothing to sign
	}
	if len(pos) > 1 {
		return g, fmt.Errorf("unexpected argument %q", pos[1])
	}
	if len(pos) == 1 {
		switch pos[0] {
		case "yams":
			o.Start = ui.YamsScreen
		case "vegas":
			o.Start = ui.VegasScreen
		default:
			return g, fmt.Errorf("unknown command %q (see tapis help)", pos[0])
		}
	}
	b, err := parseBalance(f.balance)
	if err != nil {
		return g, err
	}
	o.Balance, so.Balance = b, b
	if f.lang != "" {
		if o.Lang, err = ui.ParseLang(f.lang); err != nil {
			return g, fmt.Errorf("--lang: %w", err)
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.BalanceSet = set["balance"]
	if set["idle"] && !o.Demo {
		return g, errors.New("--idle needs --demo")
	}
	if f.stake != "" && o.Start == ui.VegasScreen {
		// A ticket has one price: --stake chooses the Yam's stake.
		if _, err := lottery.Vegas().Stake(f.stake); err != nil {
			return g, fmt.Errorf("--stake %s: a Vegas ticket costs %s; --stake chooses the Yam's stake (0.5, 1 or 2)", f.stake, vegas.Price())
		}
	} else if f.stake != "" {
		if o.Stake, err = lottery.Yams().Stake(f.stake); err != nil {
			return g, fmt.Errorf("--stake: %w", err)
		}
	}
	if o.Demo && so.Journal != "" {
		return g, errors.New("--demo and --journal: a kiosk's play money is not journaled")
	}
	if o.Demo && so.Store != "" {
		return g, errors.New("--demo and --store: a kiosk's play money is not kept in a store")
	}
	if o.Idle, err = parseIdle(f.idle); err != nil {
		return g, err
	}
	if f.playlist != "" {
		if !o.Demo {
			return g, errors.New("--playlist needs --demo")
		}
		if o.Playlist, err = readPlaylist(f.playlist); err != nil {
			return g, err
		}
	}
	if f.seed == "" {
		if so.Seed, err = game.RandomSeed(); err != nil {
			return g, err
		}
	} else {
		if so.Seed, err = game.ParseSeed(f.seed); err != nil {
			return g, fmt.Errorf("--seed: %w", err)
		}
		so.SeedSet = true
	}
	return g, nil
}

// readPlaylist reads the demo's playlist from the file named name.
func readPlaylist(name string) ([]lottery.PlaylistItem, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("--playlist: %w", err)
	}
	defer f.Close()
	items, err := lottery.ReadPlaylist(f)
	if err != nil {
		return nil, fmt.Errorf("--playlist %s: %w", name, err)
	}
	return items, nil
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

// flagAfterDashes refuses a flag written after "--", which ends the flags:
// the game would take it for the name of a game, or for an argument too many.
func flagAfterDashes(args []string) error {
	i := slices.Index(args, "--")
	if i < 0 {
		return nil
	}
	for _, a := range args[i+1:] {
		if len(a) > 1 && a[0] == '-' {
			return fmt.Errorf("%s comes after \"--\", which ends the flags: put it before \"--\", or leave \"--\" out", a)
		}
	}
	return nil
}
