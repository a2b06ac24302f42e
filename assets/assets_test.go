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
	if len(cup) != 1 || len(cup[0]) != 3 {
		t.Fatalf("cup %q", cup)
	}
	for name, rows := range map[string]int{"card.txt": 3, "reel.txt": 3, "wheel.txt": 3, "suits.txt": 1, "coating.txt": 7} {
		d := MustDrawing(name)
		if len(d) != 1 || len(d[0]) != rows {
			t.Errorf("%s: %d blocks, want one of %d rows", name, len(d), rows)
		}
	}
	if _, err := Drawing("nope.txt"); err == nil {
		t.Error("a missing drawing was found")
	}
}

// TestDigits: the board's big figures are fourteen blocks of three rows,
// each row of a block as wide as the others.
func TestDigits(t *testing.T) {
	d := MustDrawing("digits.txt")
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
