// Command tapis plays « Yam's ! » and « Vegas » in the terminal, and scores,
// deals and audits their units from the command line.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"tapis/cli"
	"tapis/store"
	"tapis/store/journal"
	"tapis/text"
	"tapis/ui"
)

func main() {
	env := cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Environ: os.Environ(), TimerSlack: cli.SettleTimerSlack}
	os.Exit(run(env, os.Args[1:]))
}

// run runs the command line args and returns the exit status: the tools,
// help and --version are cli's; replay and the game need a terminal.
func run(env cli.Env, args []string) int {
	switch {
	case len(args) > 0 && cli.Has(args[0]):
		return cli.Run(env, args)
	case len(args) > 0 && args[0] == "replay":
		return replay(env, args[1:])
	}
	return play(env, args)
}

// terminal reports whether standard input and output are a terminal.
func terminal() bool { return term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd()) }

// replay shows the layouts of a file (or standard input, "-") in the game's
// screens, uncovered, without a wallet. Invalid layouts are reported on
// standard error, one line each, like tapis score does.
func replay(env cli.Env, args []string) int {
	o, err := cli.ReplayArgs(args, env.Getenv, env.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return cli.ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "tapis replay: %s\n", text.Printable(err.Error()))
		return cli.ExitUsage
	}
	in := env.Stdin
	if o.File != "-" {
		f, err := os.Open(o.File)
		if err != nil {
			fmt.Fprintf(env.Stderr, "tapis replay: %s\n", text.Printable(err.Error()))
			return cli.ExitUsage
		}
		defer f.Close()
		in = f
	}
	// What did not read is said on standard error once the terminal is
	// given back, where it can be read, and counted on the screen meanwhile.
	var problems bytes.Buffer // a few lines: ReplayLayouts lists twenty at most
	rep := cli.ReplayLayouts(&problems, in)
	defer func() { env.Stderr.Write(problems.Bytes()) }()
	if rep.Status == cli.ExitUsage {
		return rep.Status
	}
	switch {
	case len(rep.Entries) == 0 && rep.Invalid == 0:
		fmt.Fprintln(&problems, "tapis replay: no layout to show: the input is empty")
		return cli.ExitInvalid
	case len(rep.Entries) == 0:
		fmt.Fprintln(&problems, "tapis replay: no valid layout to show")
		return cli.ExitInvalid
	}
	var opts []tea.ProgramOption
	switch {
	case terminal():
	case o.File == "-" && term.IsTerminal(os.Stdout.Fd()):
		// The layouts came through a pipe: the keys come from the terminal.
		tin, tout, err := tea.OpenTTY()
		if err != nil {
			fmt.Fprintf(env.Stderr, "tapis replay: opening the terminal: %v\n", err)
			return cli.ExitUsage
		}
		defer tin.Close()
		defer tout.Close()
		opts = append(opts, tea.WithInput(tin), tea.WithOutput(tout))
	default:
		fmt.Fprintln(env.Stderr, "tapis replay: showing layouts needs a terminal; tapis score reads them in pipes")
		return cli.ExitUsage
	}
	m, err := ui.NewReplay(rep.Entries, o.Lang, rep.Invalid, rep.LeftOut)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tapis replay: %v\n", err)
		return 1
	}
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
		fmt.Fprintf(env.Stderr, "tapis replay: %v\n", err)
		return 1
	}
	return rep.Status
}

// play runs the interactive game and prints the session's summary line once
// the terminal is restored; a store found changed under the game (it sold
// nothing from then on) is said after it, exit status 1.
func play(env cli.Env, args []string) int {
	opts, err := cli.GameArgs(args, env.Getenv, env.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return cli.ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "tapis: %s\n", text.Printable(err.Error()))
		return cli.ExitUsage
	}
	if !terminal() {
		fmt.Fprintln(env.Stderr, "tapis: the game needs a terminal (standard input and output); the tools score, deal and audit work in pipes")
		return cli.ExitUsage
	}
	sig := newSignals()
	defer sig.stop()
	opts.UI.Hooks = ui.Hooks{BeforeSuspend: sig.stepAside, AfterResume: sig.arm}
	var tampered atomic.Pointer[error] // what the store found changed under the game
	opts.Session.OnTamper = func(err error) { tampered.CompareAndSwap(nil, &err) }
	m, err := opts.Open()
	if err != nil {
		hint := ""
		if p := (journal.Problem{}); errors.As(err, &p) {
			hint = " (tapis verify --journal " + text.Printable(opts.Session.Journal) + " lists every problem)"
		}
		fmt.Fprintf(env.Stderr, "tapis: %s%s\n", text.Printable(store.Explain(err).Error()), hint)
		return cli.ExitUsage
	}
	defer m.Close()
	if note := m.Note(); note != "" {
		fmt.Fprintf(env.Stderr, "tapis: journal %s: %s\n", text.Printable(opts.Session.Journal), text.Printable(note))
	}
	p := tea.NewProgram(m)
	sig.route(p)
	_, err = p.Run()
	fmt.Fprintln(env.Stdout, m.Summary())
	if err != nil && !errors.Is(err, tea.ErrInterrupted) {
		fmt.Fprintf(env.Stderr, "tapis: %s\n", text.Printable(err.Error()))
		return 1
	}
	if found := tampered.Load(); found != nil {
		fmt.Fprintf(env.Stderr, "tapis: sales were stopped: %s\n", text.Printable(store.Explain(*found).Error()))
		return 1
	}
	return cli.ExitOK
}

// signals routes the signals a terminal game gets. SIGTERM and SIGINT are
// Bubble Tea's: both quit, the terminal restored (SIGINT only comes from
// outside: in raw mode ctrl+c is a key). SIGHUP (the terminal closed) and
// SIGQUIT quit the same way; every purchase is on disk already, so quitting
// at any moment loses nothing. SIGTSTP from outside suspends as ctrl+z does.
type signals struct {
	quit, tstp chan os.Signal
	done       chan struct{}
	suspending atomic.Bool
}

func newSignals() *signals {
	s := &signals{quit: make(chan os.Signal, 1), tstp: make(chan os.Signal, 1), done: make(chan struct{})}
	signal.Notify(s.quit, syscall.SIGHUP, syscall.SIGQUIT)
	signal.Notify(s.tstp, syscall.SIGTSTP)
	return s
}

// stepAside marks a suspension under way. Bubble Tea restores the terminal,
// then sends SIGTSTP to the process group to stop it; but a Go program
// that once caught SIGTSTP ignores it ever after (the runtime never gives
// back its default action), so the handler stops the process with SIGSTOP
// in its place.
func (s *signals) stepAside() { s.suspending.Store(true) }

// arm takes SIGTSTP from outside again, once the process runs after a
// suspension.
func (s *signals) arm() { s.suspending.Store(false) }

// route sends what the signals ask for to the program.
func (s *signals) route(p *tea.Program) {
	go func() {
		for {
			select {
			case <-s.quit:
				p.Quit()
			case <-s.tstp:
				if s.suspending.Load() {
					syscall.Kill(0, syscall.SIGSTOP) // Bubble Tea's own SIGTSTP
				} else {
					p.Send(ui.SuspendMsg{})
				}
			case <-s.done:
				return
			}
		}
	}()
}

func (s *signals) stop() {
	signal.Stop(s.quit)
	signal.Stop(s.tstp)
	close(s.done)
}
