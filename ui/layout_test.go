package ui

import (
	"math/rand/v2"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestNarrowRunes checks that every rune cellWidth counts as one cell is
// one cell for ansi.StringWidth, alone and between letters.
func TestNarrowRunes(t *testing.T) {
	for _, rg := range narrowRunes {
		for r := rg[0]; r <= rg[1]; r++ {
			if w, in := ansi.StringWidth(string(r)), ansi.StringWidth("a"+string(r)+"b"); w != 1 || in != 3 {
				t.Errorf("%U is %d cells (%d between two letters)", r, w, in)
			}
		}
	}
}

// TestCellWidth checks that cellWidth measures as ansi.StringWidth does:
// every line the screens draw, and random lines of narrow and other runes
// with escape sequences, whole or cut.
func TestCellWidth(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, keys := range [][]string{nil, {"1", "a"}, {"2", "enter", "space", "tab", "space"}, {"4"}, {"1", "?"}, {"1", "a", "s"}, {"1", "a", "h"}} {
			m := newModel(t, lang, MenuScreen, 120, 40)
			press(m, keys...)
			settle(m)
			for _, l := range m.layers() {
				for i, line := range l.d.lines {
					if want := ansi.StringWidth(line); l.d.widths[i] != want {
						t.Errorf("%q: %d cells, ansi.StringWidth %d", line, l.d.widths[i], want)
					}
				}
			}
		}
	}
	pieces := []string{"a", "Z", " ", "~", "é", "«", "\u00a0", "€", "…", "→", "─", "▐", "●", "◀", "★", "♦", "✦", "⣿",
		"\x1b[1m", "\x1b[38;2;242;193;78m", "\x1b[m", "\x1b[0;48;5;22m",
		"界", "\u0301", "👍", "\ufe0f", "\u200d", "\u00ad", "☕", "\t", "\x1b]8;;x\x07", "\x1b[", "\x1b[3é"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Fatalf("%q: cellWidth %d, ansi.StringWidth %d", s, got, want)
		}
	}
}

// TestFitIsPlace: fit writes what lipgloss.Place centered writes, for
// lines of one or more rows, styled, wide, wider than the block, in
// blocks taller and shorter than them.
func TestFitIsPlace(t *testing.T) {
	parts := []string{"Brelan", " ", "€", "日本", "\x1b[1;33m", "\x1b[m", "●", "é", "\n", "a\tb", "x\r\ny", ""}
	rng := rand.New(rand.NewPCG(3, 5))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s, w, h := b.String(), rng.IntN(30), rng.IntN(5)
		if got, want := fit(w, h, s), lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, s); got != want {
			t.Fatalf("fit(%d, %d, %q) = %q, want Place's %q", w, h, s, got, want)
		}
	}
}
