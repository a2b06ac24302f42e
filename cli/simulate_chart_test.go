package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSimulateChartColumns: the chart's count, share and table columns
// line up from row to row, in both languages, whatever the counts' widths.
func TestSimulateChartColumns(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		code, out, errOut := run(t, "", "simulate", "--game", "vegas", "--count", "3000", "--seed", "3", "--lang", lang)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		cols := map[string]map[int]bool{" · ": {}, "(table": {}, ")": {}}
		rows := 0
		for _, line := range strings.Split(out, "\n") {
			if !strings.Contains(line, "(table") {
				continue
			}
			rows++
			for sub, at := range cols {
				at[utf8.RuneCountInString(line[:strings.LastIndex(line, sub)])] = true
			}
		}
		if rows != 10 {
			t.Fatalf("%s: %d rows:\n%s", lang, rows, out)
		}
		for sub, at := range cols {
			if len(at) != 1 {
				t.Errorf("%s: %q at columns %v:\n%s", lang, sub, at, out)
			}
		}
	}
}
