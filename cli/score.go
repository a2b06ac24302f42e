package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/text"
	"tapis/wallet"
)

// score reads layouts and prints how the regulation scores each one, as it
// reads them: its memory does not grow with the input. With --check it
// prints no score: it compares each record's "prize" (and "unit") with the
// regulation's score, and names every record that disagrees.
func score(env Env, args []string) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object per layout, on its own line")
	check := fs.Bool("check", false, "check each record's \"prize\" (and \"unit\") against the regulation's score:\nexit 1 at any mismatch (test vectors, deal's records)")
	files, err := parse(env, fs, args)
	if err != nil {
		return fail(env, "score", err)
	}
	if *check && *asJSON {
		return fail(env, "score", usagef("--check prints no score: give it without --json"))
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := bufio.NewWriter(env.Stdout)
	defer out.Flush()
	var rows *table
	if !*asJSON && !*check {
		rows = newTable(out)
		defer rows.Flush()
	}
	headed := false // the table's header comes with its first row
	var line []byte // a score's JSON, kept from one to the next
	status := ExitOK
	var checked, wrong int64 // records read, and what is wrong: records, and inputs that are none
	for _, name := range files {
		prefix := ""
		if len(files) > 1 {
			prefix = text.Printable(name) + ": "
		}
		bad := func(n int, err error) {
			fmt.Fprintf(env.Stderr, "%sline %d: %s\n", prefix, n, text.Printable(err.Error()))
			status = max(status, ExitInvalid)
		}
		read := 0
		err := readFile(env, name, func(e lottery.Entry) {
			read++
			switch {
			case e.Err != nil:
				bad(e.Line, e.Err)
				wrong++
				checked++
			case *check:
				checked++
				if err := lottery.Check(e); err != nil {
					bad(e.Line, err)
					wrong++
				}
			case *asJSON:
				if err := writeScoreJSON(out, &line, e.Layout, e.Unit); err != nil {
					bad(e.Line, err)
				}
			default:
				if !headed {
					rows.Row("LINE", "UNIT", "GAME", "STAKE", "SCORE", "PRIZE")
					headed = true
				}
				s := e.Layout.Score()
				rows.Row(prefix+strconv.Itoa(e.Line), orDash(text.Printable(e.Unit)), e.Layout.Game(),
					wallet.Format(e.Layout.Stake(), "en"), describe(s), wallet.Format(s.Prize(), "en"))
			}
		})
		var long *lottery.LineTooLongError
		var binary *lottery.NotLayoutsError
		switch {
		case errors.As(err, &long):
			fmt.Fprintf(env.Stderr, "%s%s\n", prefix, long)
			status = max(status, ExitInvalid)
			wrong++
		case errors.As(err, &binary):
			fmt.Fprintf(env.Stderr, "%s%s\n", prefix, binary)
			status = max(status, ExitInvalid)
			wrong++
		case err != nil:
			fmt.Fprintf(env.Stderr, "tapis score: %s\n", text.Printable(err.Error()))
			status = ExitUsage
		case read == 0:
			fmt.Fprintf(env.Stderr, "tapis score: %s: no layout in it: the input is empty\n", orStdin(name))
			status = max(status, ExitInvalid)
			wrong++
		}
	}
	if *check {
		if wrong == 0 {
			fmt.Fprintf(out, "checked %s: every prize is the regulation's score\n", count(checked, "record"))
		} else {
			fmt.Fprintf(out, "checked %s: %s, named on standard error\n", count(checked, "record"), count(wrong, "problem"))
		}
	}
	return status
}

// orStdin names a file given to a reader: "standard input" for "-".
func orStdin(name string) string {
	if name == "-" {
		return "standard input"
	}
	return text.Printable(name)
}

// readFile reads the layouts of a file, or of standard input for "-".
func readFile(env Env, name string, f func(lottery.Entry)) error {
	var r io.Reader = env.Stdin
	if name != "-" {
		file, err := os.Open(name)
		if err != nil {
			return err
		}
		defer file.Close()
		r = file
	}
	return lottery.Read(r, f)
}

// writeScoreJSON writes a layout's score as one line of JSON, with the unit
// of its record if it had one: valid JSON whatever the unit holds. It
// writes it in buf, which it keeps for the next one.
func writeScoreJSON(w io.Writer, buf *[]byte, l lottery.Layout, unit string) error {
	b := l.AppendScore((*buf)[:0])
	switch {
	case unit == "":
	case plainUnit(unit) && len(b) > 0 && b[len(b)-1] == '}': // as AppendMember writes it
		b = append(append(append(b[:len(b)-1], `,"unit":"`...), unit...), `"}`...)
	default:
		var err error
		if b, err = lottery.AppendMember(b, "unit", unit); err != nil {
			return err
		}
	}
	b = append(text.JSONSafe(b), '\n')
	*buf = b
	_, err := w.Write(b)
	return err
}

// plainUnit reports whether encoding/json writes a unit's name as it is,
// between quotes: printable ASCII without quotes or backslashes (as tapis
// names units), nor the <, > and & it may escape.
func plainUnit(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// describe writes a score in one readable line.
func describe(s lottery.Score) string {
	if y := s.Yams; y != nil {
		parts := make([]string, len(y.Combinations))
		for i, c := range y.Combinations {
			parts[i] = fmt.Sprintf("%s %d", strings.ReplaceAll(c.String(), "_", " "), c.Points())
		}
		return fmt.Sprintf("%s = %d points", strings.Join(parts, " · "), y.Points)
	}
	v := s.Vegas
	var wins, throws []string
	for k := range vegas.Kinds {
		if v.Roulette.Wins[k] {
			wins = append(wins, k.String())
		}
	}
	for i, w := range v.Craps.Wins {
		if w {
			throws = append(throws, fmt.Sprint(i+1))
		}
	}
	return fmt.Sprintf("roulette %s%s · craps %s%s · poker %s %s · jackpot %s %s",
		wallet.Format(v.Roulette.Prize.Decimal(), "en"), list(" on ", wins), wallet.Format(v.Craps.Prize.Decimal(), "en"), list(" throw ", throws),
		strings.ReplaceAll(v.Poker.Combination.String(), "_", " "), wallet.Format(v.Poker.Prize.Decimal(), "en"),
		v.Jackpot.Case, wallet.Format(v.Jackpot.Prize.Decimal(), "en"))
}

func list(label string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	return label + strings.Join(items, "+")
}
