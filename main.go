// Command tapis plays « Yam's ! » and « Vegas » in the terminal, and scores,
// deals and audits their units from the command line.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"tapis/cli"
	"tapis/ui"
)

func main() {
	args := os.Args[1:]
	env := cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if len(args) > 0 && (cli.Has(args[0]) || args[0] == "help" || args[0] == "--help" || args[0] == "-help") {
		os.Exit(cli.Run(env, args))
	}
	os.Exit(play(args))
}

// play runs the interactive game and prints the session's summary line once
// the terminal is restored.
func play(args []string) int {
	opts, err := ui.ParseArgs(args, os.Getenv, os.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return cli.ExitOK
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "tapis: %v\n", err)
		return cli.ExitUsage
	}
	if !term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()) {
		fmt.Fprintln(os.Stderr, "tapis: the game needs a terminal (standard input and output); the tools score, deal and audit work in pipes")
		return cli.ExitUsage
	}
	m, err := ui.New(opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tapis: %v\n", err)
		return cli.ExitUsage
	}
	_, err = tea.NewProgram(m).Run()
	fmt.Println(m.Summary())
	if err != nil {
		fmt.Fprintf(os.Stderr, "tapis: %v\n", err)
		return 1
	}
	return cli.ExitOK
}
