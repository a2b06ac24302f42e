package journal

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/internal/hostile"
	"tapis/ledger"
	"tapis/store"
)

// startLine returns the start record of a new journal, as Open writes it.
func startLine(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	return string(writeJournal(t, Options{Seed: game.SeedFrom(1), Balance: decimal.NewFromInt(100), Path: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables, Now: clock()}, 0))
}

// TestReadLinesStopsAtLongLine: a line past 1 MiB is refused once that much
// of it is read, even when it never ends.
func TestReadLinesStopsAtLongLine(t *testing.T) {
	start := startLine(t)
	z := &hostile.Zeros{}
	_, _, _, err := ReadLines(io.MultiReader(strings.NewReader(start), z))
	var p Problem
	if !errors.As(err, &p) || p.Line != 2 || !strings.Contains(p.Msg, "longer than 1 MiB") {
		t.Fatalf("error %v, want line 2 longer than 1 MiB", err)
	}
	if z.N > maxLine+2<<16 {
		t.Errorf("read %d bytes of an endless line", z.N)
	}
	rep, err := Verify(io.MultiReader(strings.NewReader(start), &hostile.Zeros{}), store.SmallTables)
	if err != nil || rep.OK() || len(rep.Problems) != 1 || rep.Problems[0].Line != 2 {
		t.Errorf("verify: %+v, %v", rep, err)
	}
}

// TestReadLinesByteOrderMark skips a UTF-8 byte-order mark, and counts it in
// the length of the good lines (which a torn line is cut back to).
func TestReadLinesByteOrderMark(t *testing.T) {
	start := startLine(t)
	lines, good, torn, err := ReadLines(strings.NewReader("\xef\xbb\xbf" + start + `{"kind":"bu`))
	if err != nil || len(lines) != 1 || lines[0].Record.Kind != KindStart || torn != 2 || good != int64(3+len(start)) {
		t.Errorf("%+v, good %d, torn %d, %v", lines, good, torn, err)
	}
}

// TestVerifyEscapesControlCharacters: what a journal holds reaches the
// report with its control characters escaped.
func TestVerifyEscapesControlCharacters(t *testing.T) {
	journal := startLine(t) +
		`{"kind":"shown","time":"2026-11-29T20:00:01Z","unit":"x\u001b]0;pwned\u0007"}` + "\n" +
		`{"kind":"reveal","time":"2026-11-29T20:00:02Z","block":"\u001b[2Jyams:1:1","block_seed":"00"}` + "\n"
	rep, err := Verify(strings.NewReader(journal), store.SmallTables)
	if err != nil || rep.OK() {
		t.Fatalf("%+v, %v", rep, err)
	}
	var all []string
	for _, p := range rep.Problems {
		all = append(all, p.Msg)
		if bytes.ContainsAny([]byte(p.Msg), "\x1b\a") {
			t.Errorf("line %d: %q holds control characters", p.Line, p.Msg)
		}
	}
	joined := strings.Join(all, "\n")
	if !strings.Contains(joined, `x\x1b]0;pwned\a`) || !strings.Contains(joined, `\x1b[2Jyams:1:1`) {
		t.Errorf("problems %q", all)
	}
}
