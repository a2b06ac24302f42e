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
// reads them: its memory does not grow with the input.
func score(env Env, args []string) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object per layout, on its own line")
	files, err := parse(env, fs, args)
	if err != nil {
		return fail(env, "score", err)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out := bufio.NewWriter(env.Stdout)
	defer out.Flush()
	var rows *table
	if !*asJSON {
		rows = newTable(out)
		defer rows.Flush()
	}
	headed := false // the table's header comes with its first row
	var line []byte // a score's JSON, kept from one to the next
	status := ExitOK
	for _, name := range files {
		prefix := ""
		if len(files) > 1 {
			prefix = text.Printable(name) + ": "
		}
		err := readFile(env, name, func(e lottery.Entry) {
			if e.Err != nil {
				fmt.Fprintf(env.Stderr, "%sline %d: %s\n", prefix, e.Line, text.Printable(e.Err.Error()))
				status = max(status, ExitInvalid)
				return
			}
			if *asJSON {
				if err := writeScoreJSON(out, &line, e.Layout, e.Unit); err != nil {
					fmt.Fprintf(env.Stderr, "%sline %d: %s\n", prefix, e.Line, text.Printable(err.Error()))
					status = max(status, ExitInvalid)
				}
				return
			}
			if !headed {
				rows.Row("LINE", "UNIT", "GAME", "STAKE", "SCORE", "PRIZE")
				headed = true
			}
			s := e.Layout.Score()
			rows.Row(prefix+strconv.Itoa(e.Line), orDash(text.Printable(e.Unit)), e.Layout.Game(),
				wallet.Format(e.Layout.Stake(), "en"), describe(s), wallet.Format(s.Prize(), "en"))
		})
		var long *lottery.LineTooLongError
		switch {
		case errors.As(err, &long):
			fmt.Fprintf(env.Stderr, "%s%s\n", prefix, long)
			status = max(status, ExitInvalid)
		case err != nil:
			fmt.Fprintf(env.Stderr, "tapis score: %s\n", text.Printable(err.Error()))
			status = ExitUsage
		}
	}
	return status
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
