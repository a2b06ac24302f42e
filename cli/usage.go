package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// form is one way to call a command: its arguments after "tapis " and
// what it does (lines after the first are indented under it).
type form struct {
	synopsis string
	does     string
}

// forms returns the ways to call the command named name, in the order the
// program's usage lists them; the game is named "".
func forms(name string) []form {
	switch name {
	case "":
		return []form{{"[yams|vegas] [flags]", "play: the menu, or straight to a game (flags below)"}}
	case "score":
		return []form{{"score [FILE|-]... [--json]", "score layouts (JSON or JSON lines; stdin by default)"},
			{"score --check [FILE|-]...", "check each record's \"prize\" (and \"unit\") against the\nregulation's score: exit 1 at a mismatch (test vectors)"}}
	case "deal":
		return []form{
			{"deal --game G [--stake S] [--prize EUR] [--count K] [--seed N]", "deal layouts as JSON lines"},
			{"deal --unit ID --seed N [--count K]", "deal a unit of a seeded session again"},
			{"deal --unit ID --block-seed HEX [--count K]", "deal a unit again from its block's revealed seed"},
		}
	case "audit":
		return []form{{"audit --game G [--stake S|all] [--blocks K] [--seed N] [--self-test] [--json]",
			"sell whole blocks and count them against the lot table, at\none stake or every stake of the game (all); --self-test deals\none unit for another lot on purpose and passes (exit 0) when\nthe audit fails on it (a progress bar on stderr on a terminal)"}}
	case "verify":
		return []form{{"verify --journal FILE [--json]",
			"check a game's journal: balances, order, commitments,\nand every closed block against its revealed seed"},
			{"verify --store URL [--key PUB] [--heads FILE] [--json]",
				"check a whole store (sqlite:PATH, PATH.db, postgres://…): its seal,\nevery unit against its block's seed, every account's chain\nof signed records and balance, its signed heads; the heads\nand receipts of FILE against its history"}}
	case "simulate":
		return []form{{"simulate [--game G] [--stake S] [--count N] [--seed N] [--balance EUR]\n                 [--journal FILE | --store URL [--account NAME] [--open-blocks K]]\n                 [--house-key FILE] [--lang fr|en] [--json]",
			"play N units as a player would, through the game's session,\nwithout a terminal: the summary line, the units by lot\nagainst the table, the return to player with its 95 %\ninterval, the volatility, the χ² against the table (and for\nVegas the surfaces and splits against the catalogue)\n(a progress bar on stderr when it is a terminal)"}}
	case "prizemap":
		return []form{{"prizemap --game G [--stake S] --block N (--seed N | --block-seed HEX) [--csv|--jsonl]",
			"the prize map of a block: the serial, the lot, the prize and\n(Vegas) the split of every unit, in the order it sells them"}}
	case "commitment":
		return []form{{"commitment --block-seed HEX --block ID [--commitment HEX]",
			"print the commitment of a block's revealed seed, or check it\nagainst the published one (exit 0 it matches, 1 it does not)"}}
	case "serve":
		return []form{{"serve [--listen ADDR] [--store URL] [--host-key FILE] [--house-key FILE]\n                 [--balance EUR] [--max-sessions N] [--max-boards N]\n                 [--max-per-address N] [--max-startups START:RATE:FULL]\n                 [--guests=false] [--idle-timeout D] [--reality-check D]\n                 [--loss-limit EUR] [--open-blocks K] [--qa]\n                 [--state-dir DIR] [--operator-keys FILE]\n                 [--log-format text|json] [--metrics ADDR]\n                 [--join-address HOST[:PORT]] [--timer-slack D]",
			"the game over SSH, many players on one store:\neach player is their key's account (ssh -p 23234 HOST);\nits store found changed under it, it stops selling: exit 1"}}
	case "board":
		return []form{{"board --store URL [--lang fr|en] [--join-address HOST[:PORT]]",
			"a store's live board, for a big screen: the lots left,\nthe big wins, the players, the sales per minute\n(also ssh -t -p 23234 HOST board, on tapis serve)"}}
	case "report":
		return []form{{"report [--store URL] [--since D] [--json|--csv]",
			"the money of a store's emission, for its host: sales, stakes,\nprizes and the return against the table by game, stake, block\nand hour; units by lot; accounts; the lots left on sale"}}
	case "receipt":
		return append([]form{{"receipt --store URL [--account NAME] | --journal FILE",
			"print an account's receipts, one JSON line each: what a player\nkeeps of each purchase, signed by the house"}}, forms("receipt verify")...)
	case "receipt verify":
		return []form{{"receipt verify FILE|- --key PUB",
			"check receipts and heads offline against the house's public key\n(ssh-ed25519 AAAA… or its .pub file)"}}
	case "replay":
		return []form{{"replay FILE|- [--lang fr|en]", "show layouts in the game's screens, uncovered"}}
	case "help":
		return []form{{"help [COMMAND]", "this text, or a command's (as tapis COMMAND -h)"}}
	case "--version":
		return []form{{"--version", "the version, from the build information"}}
	}
	return nil
}

// Commands returns the names of the commands that take -h and --help
// besides the game itself ("tapis -h"): the tools and replay.
func Commands() []string {
	return []string{"score", "deal", "audit", "prizemap", "commitment", "verify", "simulate", "serve", "board", "report", "receipt", "replay"}
}

// column is where the usage's descriptions start.
const column = 39

// writeForms writes the usage lines of the command named name.
func writeForms(w io.Writer, name string) {
	pad := strings.Repeat(" ", column)
	for _, f := range forms(name) {
		line := "  tapis " + f.synopsis
		if len(line) < column {
			line += strings.Repeat(" ", column-len(line))
		} else {
			line += "\n" + pad
		}
		fmt.Fprintf(w, "%s%s\n", line, strings.ReplaceAll(f.does, "\n", "\n"+pad))
	}
}

// writeUsage writes the program's usage: every command, and the game's
// flags. It is what "tapis help", "tapis -h" and "tapis --help" print, and
// "tapis yams -h" too.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, "tapis: « Yam's ! » and « Vegas » in the terminal\n\nusage:\n")
	for _, name := range []string{"", "score", "deal", "audit", "prizemap", "commitment", "verify", "simulate", "serve", "board", "report", "receipt", "replay", "help", "--version"} {
		writeForms(w, name)
	}
	fmt.Fprint(w, "\nthe game's flags:\n")
	var f gameFlags
	fs := newGameFlags(&f)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, `
G is yams or vegas; S is 0.5, 1 or 2 for yams (also 0,5), 3 for vegas.
Exit status: 0 success, 1 an invalid layout, a failed audit or simulation
(with --self-test: an audit that did not fail), a commitment or a receipt
that does not check, a store changed under its seller (the game,
simulate, serve), 2 a usage error (a house key or a store refused at start
among them).
Run "tapis COMMAND -h" (or --help) for a command's flags.
`)
}

// writeCommandUsage writes the usage of one command and its flags, which
// fs holds. It is what "tapis COMMAND -h", "tapis COMMAND --help" and
// "tapis help COMMAND" print.
func writeCommandUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, "usage:\n")
	writeForms(w, fs.Name())
	fmt.Fprint(w, "\nflags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// Version returns the version line of "tapis --version", from the build
// information: the main module's version, or "devel" when it has none (a
// build from a work tree), followed by the commit it was built from and
// "+dirty" when the build information records them.
func Version(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "tapis devel"
	}
	v := info.Main.Version
	if v != "" && v != "(devel)" {
		return "tapis " + v
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	line := "tapis devel"
	if rev != "" {
		line += " " + rev[:min(12, len(rev))]
		if dirty {
			line += "+dirty"
		}
	}
	return line
}
