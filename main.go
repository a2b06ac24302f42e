// Command tapis plays « Yam's ! » and « Vegas » in the terminal, and scores,
// deals and audits their units from the command line.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"tapis/cli"
	"tapis/text"
	"tapis/ui"
)

func main() {
	args := os.Args[1:]
	env := cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if len(args) > 0 && (cli.Has(args[0]) || args[0] == "help" || args[0] == "--help" || args[0] == "-help") {
		os.Exit(cli.Run(env, args))
	}
	if len(args) > 0 && args[0] == "replay" {
		os.Exit(replay(args[1:]))
	}
	os.Exit(play(args))
}

// terminal reports whether standard input and output are a terminal.
func terminal() bool { return term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd()) }

// replay shows the layouts of a file (or standard input, "-") in the game's
// screens, uncovered, without a wallet. Invalid layouts are reported on
// standard error, one line each, like tapis score does.
func replay(args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	lang := fs.String("lang", "", "language of the screen: fr or en (default from LC_ALL/LANG)")
	files, err := cli.SplitArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Println("usage: tapis replay FILE|- [--lang fr|en]")
		fs.SetOutput(os.Stdout)
		fs.PrintDefaults()
		return cli.ExitOK
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "tapis replay: %s\n", text.Printable(err.Error()))
		return cli.ExitUsage
	}
	if len(files) != 1 {
		fmt.Fprintln(os.Stderr, "tapis replay: want one layout file (or - for standard input)")
		return cli.ExitUsage
	}
	l := ui.LangFromEnv(os.Getenv)
	if *lang != "" {
		var err error
		if l, err = ui.ParseLang(*lang); err != nil {
			fmt.Fprintf(os.Stderr, "tapis replay: --lang: %v\n", err)
			return cli.ExitUsage
		}
	}
	in := os.Stdin
	if name := files[0]; name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "tapis replay: %s\n", text.Printable(err.Error()))
			return cli.ExitUsage
		}
		defer f.Close()
		in = f
	}
	entries, status := cli.ReplayLayouts(os.Stderr, in)
	if status == cli.ExitUsage {
		return status
	}
	if len(entries) == 0 {
		fmt.Fprintln(os.Stderr, "tapis replay: no valid layout to show")
		return cli.ExitInvalid
	}
	var opts []tea.ProgramOption
	switch {
	case terminal():
	case files[0] == "-" && term.IsTerminal(os.Stdout.Fd()):
		// The layouts came through a pipe: the keys come from the terminal.
		tin, tout, err := tea.OpenTTY()
		if err != nil {
			fmt.Fprintf(os.Stderr, "tapis replay: opening the terminal: %v\n", err)
			return cli.ExitUsage
		}
		defer tin.Close()
		defer tout.Close()
		opts = append(opts, tea.WithInput(tin), tea.WithOutput(tout))
	default:
		fmt.Fprintln(os.Stderr, "tapis replay: showing layouts needs a terminal; tapis score reads them in pipes")
		return cli.ExitUsage
	}
	if _, err := tea.NewProgram(ui.NewReplay(entries, l), opts...).Run(); err != nil {
		fmt.Fprintf(os.Stderr, "tapis replay: %v\n", err)
		return 1
	}
	return status
}

// play runs the interactive game and prints the session's summary line once
// the terminal is restored.
func play(args []string) int {
	if err := flagAfterDashes(args); err != nil {
		fmt.Fprintf(os.Stderr, "tapis: %s\n", text.Printable(err.Error()))
		return cli.ExitUsage
	}
	opts, err := ui.ParseArgs(args, os.Getenv, os.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return cli.ExitOK
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "tapis: %s\n", text.Printable(err.Error()))
		return cli.ExitUsage
	}
	if !terminal() {
		fmt.Fprintln(os.Stderr, "tapis: the game needs a terminal (standard input and output); the tools score, deal and audit work in pipes")
		return cli.ExitUsage
	}
	m, err := ui.New(opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tapis: %s\n", text.Printable(err.Error()))
		return cli.ExitUsage
	}
	defer m.Close()
	if note := m.Note(); note != "" {
		fmt.Fprintf(os.Stderr, "tapis: journal %s: %s\n", text.Printable(opts.Journal), text.Printable(note))
	}
	p := tea.NewProgram(m)
	// SIGTERM quits through Bubble Tea; a closed terminal (SIGHUP) too. Every
	// purchase is on disk already, so quitting at any moment loses nothing.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		if _, ok := <-hup; ok {
			p.Quit()
		}
	}()
	_, err = p.Run()
	fmt.Println(m.Summary())
	if err != nil {
		fmt.Fprintf(os.Stderr, "tapis: %s\n", text.Printable(err.Error()))
		return 1
	}
	return cli.ExitOK
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
