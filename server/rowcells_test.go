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
		was, now, from := rowCells(nil, nil, old, line, width)
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
	parts := []string{"ab", " ", "─", "€", "日", "e\u0301", "\u0301", "👍🏽", "\x1b[1;33m", "\x1b[38;2;1;2;3m", "\x1b[m", "\x1b[0m",
		"\x1b[2K", "\x1b]8;;x\x1b\\", "\x1b[3", "\t", "\x07", "é", "9"}
	rng := rand.New(rand.NewPCG(7, 11))
	row := func() string {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		return b.String()
	}
	for range 20000 {
		old := row()
		line := old
		switch rng.IntN(3) {
		case 0: // another row
			line = row()
		case 1: // a part put in
			at := rng.IntN(len(old) + 1)
			line = old[:at] + parts[rng.IntN(len(parts))] + old[at:]
		default: // some bytes changed
			if len(old) > 0 {
				at := rng.IntN(len(old))
				line = old[:at] + row() + old[min(len(old), at+rng.IntN(6)):]
			}
		}
		check(old, line, 1+rng.IntN(40))
	}
}
