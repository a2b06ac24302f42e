// Package cli runs tapis's command-line tools, `score`, `deal` and `audit`,
// on top of the game library. Run is the whole program minus the terminal
// game, so that tests drive it with arguments and buffers.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"tapis/game"
	"tapis/text"
)

// Exit statuses (interface.md).
const (
	ExitOK      = 0 // success
	ExitInvalid = 1 // a layout was invalid, or an audit did not match
	ExitUsage   = 2 // unknown flag or command, bad value, unreadable file
)

// Env is what a command reads and writes.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Usage is the program's usage text.
const Usage = `tapis: « Yam's ! » and « Vegas » in the terminal

usage:
  tapis score [FILE|-]... [--json]     score layouts (JSON or JSON lines; stdin by default)
  tapis deal --game G [--stake S] [--prize EUR] [--count K] [--seed N]
                                       deal layouts as JSON lines
  tapis deal --unit ID --seed N [--count K]
                                       deal a unit of a seeded session again
  tapis audit --game G [--stake S] [--blocks K] [--seed N] [--json]
                                       sell whole blocks and count them against the lot table
  tapis verify --journal FILE [--json] check a game's journal: balances, order, commitments,
                                       and every closed block against its revealed seed
  tapis replay FILE|-                  show layouts in the game's screens, uncovered
  tapis [yams|vegas] [flags]           play (tapis -h for the game's flags)

G is yams or vegas; S is 0.5, 1 or 2 for yams (also 0,5), 3 for vegas.
Exit status: 0 success, 1 an invalid layout or a failed audit, 2 a usage error.
Run "tapis COMMAND -h" for a command's flags.
`

// command returns the command-line tool named name, or nil.
func command(name string) func(Env, []string) int {
	switch name {
	case "score":
		return score
	case "deal":
		return deal
	case "audit":
		return audit
	case "verify":
		return verify
	}
	return nil
}

// Has reports whether name is one of the command-line tools.
func Has(name string) bool { return command(name) != nil }

// Run runs the tool named by args[0] with the rest of args and returns the
// exit status.
func Run(env Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprint(env.Stdout, Usage)
		return ExitOK
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(env.Stdout, Usage)
		return ExitOK
	}
	cmd := command(args[0])
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "tapis: unknown command %q (see tapis help)\n", args[0])
		return ExitUsage
	}
	return cmd(env, args[1:])
}

// usageError is a bad flag or value: exit status 2.
type usageError struct{ msg string }

// Error returns the message.
func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// SplitArgs parses flags that may come before or after the positional
// arguments, as in `tapis score FILE --json`, and returns the positional
// ones ("--" ends the flags). The flag set prints nothing: its errors come
// back as one line, and -h as flag.ErrHelp.
func SplitArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parse splits a tool's arguments: -h prints its flags and returns
// flag.ErrHelp; a bad flag is a usage error.
func parse(env Env, fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := SplitArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(env.Stdout)
		fmt.Fprintf(env.Stdout, "usage of tapis %s:\n", fs.Name())
		fs.PrintDefaults()
		return nil, err
	case err != nil:
		return nil, usagef("%v", err)
	}
	return pos, nil
}

// fail prints err as one line, its control characters escaped, and returns
// its exit status.
func fail(env Env, cmd string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	fmt.Fprintf(env.Stderr, "tapis %s: %s\n", cmd, text.Printable(err.Error()))
	var u *usageError
	if errors.As(err, &u) {
		return ExitUsage
	}
	return ExitInvalid
}

// seedFlag is a --seed flag: a whole number from 0, remembered as set or not.
type seedFlag struct {
	seed game.Seed
	set  bool
}

// String writes the seed, or nothing when it was not set.
func (s *seedFlag) String() string {
	if !s.set {
		return ""
	}
	return strconv.FormatUint(uint64(s.seed), 10)
}

// Set reads a seed given on the command line.
func (s *seedFlag) Set(v string) error {
	n, err := game.ParseSeed(v)
	if err != nil {
		return err
	}
	s.seed, s.set = n, true
	return nil
}

// resolve returns the seed given, or one from the secure source.
func (s *seedFlag) resolve() (game.Seed, error) {
	if s.set {
		return s.seed, nil
	}
	return game.RandomSeed()
}
