package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"tapis/game/lottery"
	"tapis/text"
	"tapis/ui"
)

// ReplayOptions is what `tapis replay`'s command line asks for.
type ReplayOptions struct {
	File string  // the layout file, or "-" for standard input
	Lang ui.Lang // the language of the screen
}

// ReplayArgs reads `tapis replay`'s arguments: one layout file (or "-")
// and --lang, in any order. getenv gives the locale when --lang is absent.
// -h and --help write replay's usage on stdout and return flag.ErrHelp;
// any other error is a usage error (exit status 2), in one line.
func ReplayArgs(args []string, getenv func(string) string, stdout io.Writer) (ReplayOptions, error) {
	o := ReplayOptions{Lang: ui.LangFromEnv(getenv)}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	lang := fs.String("lang", "", "language of the screen: fr or en (default from LC_ALL/LANG)")
	files, err := SplitArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		writeCommandUsage(stdout, fs)
		return o, err
	}
	if err != nil {
		return o, err
	}
	if len(files) != 1 {
		return o, errors.New("want one layout file (or - for standard input)")
	}
	o.File = files[0]
	if *lang != "" {
		if o.Lang, err = ui.ParseLang(*lang); err != nil {
			return o, fmt.Errorf("--lang: %w", err)
		}
	}
	return o, nil
}

// maxListed is how many invalid layouts `tapis replay` lists on stderr;
// it counts the others.
const maxListed = 20

// Replay is what `tapis replay` read: the layouts it shows, and what it
// could not show.
type Replay struct {
	Entries []lottery.Entry
	Invalid int  // invalid layouts: the first maxListed are said, the rest counted
	LeftOut bool // there were more than lottery.MaxRecords layouts: the rest was not read
	Status  int  // ExitInvalid when a layout was invalid, a line too long or not text, ExitUsage when r failed
}

// ReplayLayouts reads the layouts that `tapis replay` shows, from r: at most
// lottery.MaxRecords of them, saying so on stderr when more were left out
// (the rest is not read). An invalid layout is said on stderr in one line,
// as score says it, up to maxListed of them; the others are counted in
// one line at the end, so that what it writes stays small whatever r holds.
func ReplayLayouts(stderr io.Writer, r io.Reader) Replay {
	var rep Replay
	err := lottery.ReadWhile(r, func(e lottery.Entry) bool {
		if e.Err != nil {
			if rep.Invalid++; rep.Invalid <= maxListed {
				fmt.Fprintf(stderr, "line %d: %s\n", e.Line, text.Printable(e.Err.Error()))
			}
			rep.Status = ExitInvalid
			return true
		}
		if len(rep.Entries) == lottery.MaxRecords {
			fmt.Fprintf(stderr, "tapis replay: more than %d layouts: the first %d are shown, the rest (from line %d) is left out\n",
				lottery.MaxRecords, lottery.MaxRecords, e.Line)
			rep.LeftOut = true
			return false
		}
		rep.Entries = append(rep.Entries, e)
		return true
	})
	if n := rep.Invalid - maxListed; n > 0 {
		fmt.Fprintf(stderr, "tapis replay: %d more invalid layouts are not listed\n", n)
	}
	var long *lottery.LineTooLongError
	var binary *lottery.NotLayoutsError
	switch {
	case errors.As(err, &long):
		fmt.Fprintf(stderr, "tapis replay: %s\n", long)
		rep.Invalid++
		rep.Status = ExitInvalid
	case errors.As(err, &binary):
		fmt.Fprintf(stderr, "tapis replay: %s\n", binary)
		rep.Invalid++
		rep.Status = ExitInvalid
	case err != nil:
		fmt.Fprintf(stderr, "tapis replay: %s\n", text.Printable(err.Error()))
		rep.Status = ExitUsage
	}
	return rep
}
