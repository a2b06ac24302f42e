package board

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// quiet is the margin of light modules drawn around a QR code: the
// standard asks for four, phones read two off a screen, and the board's
// height is dear.
const quiet = 2

// qrMatrix returns the modules of a QR code of text, true for a dark
// one, with its quiet margin: medium error correction (15 %), enough for
// a screen seen at an angle.
func qrMatrix(text string) ([][]bool, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("a QR code of %q: %w", text, err)
	}
	q.DisableBorder = true
	code := q.Bitmap()
	n := len(code) + 2*quiet
	out := make([][]bool, n)
	for y := range out {
		out[y] = make([]bool, n)
		if y >= quiet && y < n-quiet {
			copy(out[y][quiet:], code[y-quiet])
		}
	}
	return out, nil
}

// halfBlocks draws a module matrix two rows a line, one column a cell:
// ▀ ▄ █ and blanks, the glyphs drawing the modules that are ink (dark
// ones when ink is true, light ones when false: on a terminal without
// colours and a dark background, the glyphs are the light). A matrix of
// an odd height ends on a row of light modules.
func halfBlocks(m [][]bool, ink bool) []string {
	at := func(y, x int) bool { return y < len(m) && m[y][x] == ink }
	var out []string
	for y := 0; y < len(m); y += 2 {
		var b strings.Builder
		for x := range m[y] {
			top, bottom := at(y, x), at(y+1, x)
			if y+1 >= len(m) {
				bottom = !ink // the row below the code is light
			}
			switch {
			case top && bottom:
				b.WriteRune('█')
			case top:
				b.WriteRune('▀')
			case bottom:
				b.WriteRune('▄')
			default:
				b.WriteRune(' ')
			}
		}
		out = append(out, b.String())
	}
	return out
}

// fullBlocks draws a module matrix one row a line, two cells a module: a
// code twice as large as halfBlocks', for a wall.
func fullBlocks(m [][]bool, ink bool) []string {
	out := make([]string, len(m))
	for y, row := range m {
		var b strings.Builder
		for _, dark := range row {
			if dark == ink {
				b.WriteString("██")
			} else {
				b.WriteString("  ")
			}
		}
		out[y] = b.String()
	}
	return out
}
