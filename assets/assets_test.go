package assets

import (
	"testing"
	"unicode/utf8"
)

func TestDrawings(t *testing.T) {
	dice := MustDrawing("dice.txt")
	if len(dice) != 6 {
		t.Fatalf("%d die faces", len(dice))
	}
	for i, face := range dice {
		pips := 0
		for _, row := range face {
			if utf8.RuneCountInString(row) != 3 {
				t.Errorf("face %d: row %q", i+1, row)
			}
			for _, c := range row {
				if c == 'o' {
					pips++
				}
			}
		}
		if len(face) != 3 || pips != i+1 {
			t.Errorf("face %d: %d rows, %d pips", i+1, len(face), pips)
		}
	}
	cup := MustDrawing("cup.txt")
	if len(cup) != 2 || len(cup[0]) != 3 || len(cup[1]) != 3 {
		t.Fatalf("cup %q", cup)
	}
	for name, rows := range map[string]int{"reel.txt": 4, "wheel.txt": 3, "suits.txt": 1, "coating.txt": 7} {
		d := MustDrawing(name)
		if len(d) != 1 || len(d[0]) != rows {
			t.Errorf("%s: %d blocks, want one of %d rows", name, len(d), rows)
		}
	}
	if card := MustDrawing("card.txt"); len(card) != 2 || len(card[0]) != 3 || len(card[1]) != 5 {
		t.Errorf("card.txt: %q, want a card of 3 rows and a larger one of 5", card)
	}
	if _, err := Drawing("nope.txt"); err == nil {
		t.Error("a missing drawing was found")
	}
}

// TestFigures: the board's big figures are fourteen blocks of three rows,
// each row of a block as wide as the others.
func TestFigures(t *testing.T) {
	d := MustDrawing("figures.txt")
	if len(d) != 14 {
		t.Fatalf("%d figures, want 0-9, space, comma, point, euro", len(d))
	}
	for i, g := range d {
		if len(g) != 3 {
			t.Errorf("figure %d: %d rows", i, len(g))
		}
		for _, row := range g {
			if utf8.RuneCountInString(row) != utf8.RuneCountInString(g[0]) {
				t.Errorf("figure %d: rows %q", i, g)
			}
		}
	}
}

// TestSymbolsAndLettering checks the Jackpot's six symbols and the big
// lettering: each named, its rows as wide as each other, a symbol fitting
// its reel.
func TestSymbolsAndLettering(t *testing.T) {
	for name, want := range map[string]struct{ blocks, rows, maxW int }{
		"symbols.txt": {6, 2, 8}, "lettering.txt": {21, 5, 5},
	} {
		d := MustDrawing(name)
		if len(d) != want.blocks {
			t.Errorf("%s: %d blocks, want %d", name, len(d), want.blocks)
		}
		for _, b := range d {
			if len(b) != want.rows+1 {
				t.Errorf("%s: %q has %d rows, want %d", name, b[0], len(b)-1, want.rows)
				continue
			}
			w := utf8.RuneCountInString(b[1])
			for _, row := range b[1:] {
				if n := utf8.RuneCountInString(row); n != w || n > want.maxW {
					t.Errorf("%s: %q has a row %q of %d cells (first %d, at most %d)", name, b[0], row, n, w, want.maxW)
				}
			}
		}
	}
}
