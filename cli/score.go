package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/wallet"
)

// score reads layouts and prints how the regulation scores each one.
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
	var table *tabwriter.Writer
	if !*asJSON {
		table = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(table, "LINE\tUNIT\tGAME\tSTAKE\tSCORE\tPRIZE")
		defer table.Flush()
	}
	status := ExitOK
	for _, name := range files {
		prefix := ""
		if len(files) > 1 {
			prefix = name + ": "
		}
		err := readFile(env, name, func(e lottery.Entry) {
			if e.Err != nil {
				fmt.Fprintf(env.Stderr, "%sline %d: %v\n", prefix, e.Line, e.Err)
				status = max(status, ExitInvalid)
				return
			}
			s := e.Layout.Score()
			if *asJSON {
				writeScoreJSON(out, s, e.Unit)
				return
			}
			fmt.Fprintf(table, "%s%d\t%s\t%s\t%s\t%s\t%s\n", prefix, e.Line, orDash(e.Unit), e.Layout.Game(),
				wallet.Format(e.Layout.Stake(), "en"), describe(s), wallet.Format(s.Prize(), "en"))
		})
		if err != nil {
			fmt.Fprintf(env.Stderr, "tapis score: %v\n", err)
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

func writeScoreJSON(w io.Writer, s lottery.Score, unit string) {
	b, err := s.MarshalJSON()
	if err != nil {
		fmt.Fprintf(w, "{\"error\":%q}\n", err)
		return
	}
	if unit != "" {
		b = append(b[:len(b)-1], fmt.Sprintf(",%q:%q}", "unit", unit)...)
	}
	w.Write(append(b, '\n'))
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
		wallet.Format(v.Roulette.Prize, "en"), list(" on ", wins), wallet.Format(v.Craps.Prize, "en"), list(" throw ", throws),
		strings.ReplaceAll(v.Poker.Combination.String(), "_", " "), wallet.Format(v.Poker.Prize, "en"),
		v.Jackpot.Case, wallet.Format(v.Jackpot.Prize, "en"))
}

func list(label string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	return label + strings.Join(items, "+")
}
