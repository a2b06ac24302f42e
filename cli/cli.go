// Package cli is tapis's shell: it reads every command line, the game's
// and replay's included (GameArgs, ReplayArgs), and runs the command-line
// tools, `score`, `deal`, `audit`, `prizemap`, `commitment`, `verify` and
// `simulate`, on top of the
// game library, `serve`, the game over SSH, `board`, a store's live
// board, and `receipt`, the receipts players keep and check.
// Run is the whole program minus the terminal, so that tests drive it with
// arguments and buffers.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"tapis/game"
	"tapis/store"
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
	// Environ is the environment, as os.Environ gives it: the locale and
	// the terminal's colours are read from it.
	Environ []string
	// TimerSlack, when not nil, gives tapis serve's threads the timer
	// slack its flag asks for (SettleTimerSlack, which may execute the
	// program again): main's, never a test's, whose process it would be.
	TimerSlack func(time.Duration) error
}

// Getenv returns the value of the environment variable key in e.Environ,
// or "" when it is not set (the first one, as os.Getenv, when it is set
// twice).
func (e Env) Getenv(key string) string {
	for _, kv := range e.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

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
	case "simulate":
		return simulate
	case "serve":
		return serve
	case "board":
		return showBoard
	case "report":
		return showReport
	case "receipt":
		return receipt
	case "commitment":
		return commitment
	case "prizemap":
		return prizemap
	}
	return nil
}

// Has reports whether Run runs a command line starting with name: a tool,
// help (also -h and --help) or --version. The game and replay are the
// program's own.
func Has(name string) bool {
	switch name {
	case "help", "-h", "-help", "--help", "--version", "-version":
		return true
	}
	return command(name) != nil
}

// Run runs the tool named by args[0] with the rest of args and returns the
// exit status. "help" (also -h, -help, --help, or no argument) prints the
// program's usage, "help COMMAND" a command's; --version prints the
// version line.
func Run(env Env, args []string) int {
	if len(args) == 0 {
		writeUsage(env.Stdout)
		return ExitOK
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if args[0] == "help" && len(args) > 1 {
			return help(env, args[1:])
		}
		writeUsage(env.Stdout)
		return ExitOK
	case "--version", "-version":
		if len(args) > 1 {
			fmt.Fprintf(env.Stderr, "tapis: %s takes no argument\n", args[0])
			return ExitUsage
		}
		fmt.Fprintln(env.Stdout, Version(debug.ReadBuildInfo()))
		return ExitOK
	}
	cmd := command(args[0])
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "tapis: unknown command %q (see tapis help)\n", args[0])
		return ExitUsage
	}
	return cmd(env, args[1:])
}

// help prints the usage of the command named by args[0], as its -h does.
func help(env Env, args []string) int {
	if len(args) > 1 {
		fmt.Fprintf(env.Stderr, "tapis help: unexpected argument %q: one command at a time\n", args[1])
		return ExitUsage
	}
	switch name := args[0]; name {
	case "yams", "vegas", "help", "-h", "-help", "--help":
		writeUsage(env.Stdout)
		return ExitOK
	case "replay":
		ReplayArgs([]string{"-h"}, func(string) string { return "" }, env.Stdout)
		return ExitOK
	default:
		if command(name) == nil {
			fmt.Fprintf(env.Stderr, "tapis help: unknown command %q (see tapis help)\n", name)
			return ExitUsage
		}
		return command(name)(env, []string{"-h"})
	}
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
		writeCommandUsage(env.Stdout, fs)
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
	fmt.Fprintf(env.Stderr, "tapis %s: %s\n", cmd, text.Printable(store.Explain(err).Error()))
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
	return s.seed.String()
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
