package server

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// TestRowCellsDrawAsCellsOf: a row drawn from rowCells' columns is
// written as the same row drawn from each whole row's cellsOf, for the
// rows of a remote player's Auto one frame after another and for rows
// made of styles, wide graphemes, marks, controls and other sequences
// changed at random (a mark after a style, a wide one at the edge, a
// sequence cut short).
func TestRowCellsDrawAsCellsOf(t *testing.T) {
	styles := &styleMemo{}
	change := func(from, to string) string { return styles.change(from, to, colorprofile.TrueColor) }
	check := func(old, line string, width int) {
		t.Helper()
		var want, got bytes.Buffer
		was, now := cellsOf(nil, old, width), cellsOf(nil, line, width)
		wantSGR := drawRow(&want, 3, was, now, 0, width, "", change)
		was, now, from := rowCells(nil, nil, old, line, width, nil, nil)
		gotSGR := drawRow(&got, 3, was, now, from, width, "", change)
		if got.String() != want.String() || gotSGR != wantSGR {
			t.Fatalf("from %+q to %+q, %d wide: wrote %+q (style %+q), want %+q (style %+q)",
				old, line, width, got.String(), gotSGR, want.String(), wantSGR)
		}
	}
	frames := autoFrames(t, 100, 30, 120)
	rows := 0
	for i := 1; i < len(frames); i++ {
		for y, line := range frames[i].rows {
			if old := frames[i-1].rows[y]; old != line {
				check(old, line, 100)
				rows++
			}
		}
	}
	if rows < 100 {
		t.Fatalf("%d rows changed in 120 frames of Auto, want more to check", rows)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 20000 {
		old := randomRow(rng, 24)
		check(old, changedRow(rng, old), 1+rng.IntN(40))
	}
}

// rowParts are what randomRow makes rows of: styles, wide graphemes,
// marks, controls and other sequences, some cut short.
var rowParts = []string{"ab", " ", "─", "€", "日", "e\u0301", "\u0301", "👍🏽", "\x1b[1;33m", "\x1b[38;2;1;2;3m", "\x1b[m", "\x1b[0m",
	"\x1b[2K", "\x1b]8;;x\x1b\\", "\x1b[3", "\t", "\x07", "é", "9"}

// randomRow is a row of up to n rowParts.
func randomRow(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range rng.IntN(n) {
		b.WriteString(rowParts[rng.IntN(len(rowParts))])
	}
	return b.String()
}

// changedRow is old changed: another row, a part put in, or some bytes
// changed.
func changedRow(rng *rand.Rand, old string) string {
	switch rng.IntN(3) {
	case 0:
		return randomRow(rng, 24)
	case 1:
		at := rng.IntN(len(old) + 1)
		return old[:at] + rowParts[rng.IntN(len(rowParts))] + old[at:]
	}
	if len(old) == 0 {
		return old
	}
	at := rng.IntN(len(old))
	return old[:at] + randomRow(rng, 24) + old[min(len(old), at+rng.IntN(6)):]
}

// TestRowCellsFromMarksDrawAsCellsOf: a row read from the marks rowCells
// made of the row before it, frame after frame, is written as the same row
// drawn from each whole row's cellsOf; and each mark is where reading the
// row from its start arrives at that byte, at a cut. For the rows of a
// remote player's Auto as a screen keeps them (marks markEvery apart), and
// for random rows changed again and again, marked a few bytes apart.
func TestRowCellsFromMarksDrawAsCellsOf(t *testing.T) {
	styles := &styleMemo{}
	change := func(from, to string) string { return styles.change(from, to, colorprofile.TrueColor) }
	// chain draws each of rows from the one before it, from its marks.
	chain := func(rows []string, width, every int) {
		t.Helper()
		var marks []cellRead
		mk := marker{every: every}
		old := ""
		for _, line := range rows {
			var want, got bytes.Buffer
			was, now := cellsOf(nil, old, width), cellsOf(nil, line, width)
			wantSGR := drawRow(&want, 3, was, now, 0, width, "", change)
			was, now, from := rowCells(nil, nil, old, line, width, marks, &mk)
			gotSGR := drawRow(&got, 3, was, now, from, width, "", change)
			if got.String() != want.String() || gotSGR != wantSGR {
				t.Fatalf("from %+q (marks %+v) to %+q, %d wide: wrote %+q (style %+q), want %+q (style %+q)",
					old, marks, line, width, got.String(), gotSGR, want.String(), wantSGR)
			}
			last := -1
			for _, r := range mk.marks {
				_, at := cellsRead(nil, line, width, cellRead{}, r.i, nil)
				if r.i <= last || at != r || !cutAt(line, r.i) {
					t.Fatalf("%+q, %d wide: mark %+v (after %d), reading from the start arrives at %+v", line, width, r, last, at)
				}
				last = r.i
			}
			old, marks = line, append(marks[:0], mk.marks...)
		}
	}
	frames := autoFrames(t, 100, 30, 120)
	for y := range frames[0].rows {
		rows := make([]string, len(frames))
		for i, f := range frames {
			rows[i] = f.rows[y]
		}
		chain(rows, 100, markEvery)
	}
	rng := rand.New(rand.NewPCG(5, 13))
	for range 2000 {
		rows := []string{randomRow(rng, 60)}
		for range 10 {
			rows = append(rows, changedRow(rng, rows[len(rows)-1]))
		}
		chain(rows, 1+rng.IntN(60), 1+rng.IntN(12))
	}
}
