package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"tapis/board"
	"tapis/server"
	"tapis/store"
	"tapis/text"
	"tapis/ui"
)

// boardFlags are tapis board's flags, as they are read.
type boardFlags struct {
	store string
	lang  ui.Lang
	join  board.Join
}

// showBoard runs tapis board: the live board of a store that exists, on
// this terminal, until q or ctrl+c. It opens the store to read it and
// creates nothing. Exit status 2 for a bad flag, a store that cannot be
// opened or holds no emission yet, or no terminal; 1 when the terminal
// fails.
func showBoard(env Env, args []string) int {
	f, err := boardArgs(env, args)
	if err != nil {
		return fail(env, "board", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	st, err := store.Open(ctx, f.store, store.Options{Existing: true})
	cancel()
	if err != nil {
		return fail(env, "board", usagef("%v", err))
	}
	defer st.Close()
	in, inOK := env.Stdin.(*os.File)
	out, outOK := env.Stdout.(*os.File)
	if !inOK || !outOK || !term.IsTerminal(in.Fd()) || !term.IsTerminal(out.Fd()) {
		return fail(env, "board", usagef("the board needs a terminal (standard input and output); over SSH: ssh -t -p PORT HOST board"))
	}
	// The screen says only that it is paused: why is said once it
	// quits, on standard error (the screen is the terminal until then).
	var mu sync.Mutex
	var failures []string
	feed := board.NewFeed(st, func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 10 {
			failures = append(failures, time.Now().Format(time.TimeOnly)+" "+text.Printable(err.Error()))
		}
	})
	feed.Start()
	m := board.New(board.Options{Lang: f.lang, Source: feed, Join: f.join})
	_, err = tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithEnvironment(env.Environ)).Run()
	feed.Close()
	for _, l := range failures {
		fmt.Fprintf(env.Stderr, "tapis board: paused at %s\n", l)
	}
	if err != nil && !errors.Is(err, tea.ErrInterrupted) {
		fmt.Fprintf(env.Stderr, "tapis board: %s\n", text.Printable(store.Explain(err).Error()))
		return ExitInvalid
	}
	return ExitOK
}

// boardArgs reads tapis board's flags.
func boardArgs(env Env, args []string) (boardFlags, error) {
	var f boardFlags
	fs := flag.NewFlagSet("board", flag.ContinueOnError)
	fs.StringVar(&f.store, "store", "", "the store `URL` to show (sqlite:PATH, PATH.db, postgres://…), required; it must exist")
	lang := fs.String("lang", "", "language of the screen: fr or en (default from LC_ALL/LANG)")
	join := fs.String("join-address", "", "the address `HOST[:PORT]` players join at, shown with its QR code (default: this machine's name, port 23234)")
	pos, err := parse(env, fs, args)
	if err != nil {
		return f, err
	}
	if len(pos) > 0 {
		return f, usagef("unexpected argument %q", pos[0])
	}
	f.lang = ui.LangFromEnv(env.Getenv)
	if *lang != "" {
		if f.lang, err = ui.ParseLang(*lang); err != nil {
			return f, usagef("--lang: %v", err)
		}
	}
	if f.store == "" { // the contract's: a board names the store it shows
		return f, usagef("--store URL is required (the store tapis serve sells from, as sqlite:%s)", server.DefaultStore[len("sqlite:"):])
	}
	if err := checkStoreURL(f.store); err != nil {
		return f, err
	}
	if *join == "" {
		name, err := os.Hostname()
		if err != nil {
			return f, nil // no name: no way to join drawn
		}
		*join = name
	}
	if f.join, err = board.ParseJoin(*join, board.DefaultPort); err != nil {
		return f, usagef("--join-address %q: %v", *join, err)
	}
	return f, nil
}
