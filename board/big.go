package board

import (
	"strings"

	"tapis/assets"
)

// bigRunes are the figures of assets/figures.txt, in its order.
const bigRunes = "0123456789 ,.€"

// bigFont is the board's large type: a figure's rows, by rune, three rows
// tall, drawn in half blocks.
type bigFont map[rune][]string

// newBigFont reads the figures of assets/figures.txt.
func newBigFont() bigFont {
	f := bigFont{}
	glyphs := assets.MustDrawing("figures.txt")
	for i, r := range []rune(bigRunes) {
		if i < len(glyphs) {
			f[r] = glyphs[i]
		}
	}
	return f
}

// bigRows is how many rows the large type takes at scale 1.
const bigRows = 3

// quadrants are the half and quarter blocks the figures are drawn with,
// as their four quarters: top left, top right, bottom left, bottom right.
var quadrants = map[rune][4]bool{
	'█': {true, true, true, true}, '▀': {true, true, false, false}, '▄': {false, false, true, true},
	'▜': {true, true, false, true}, '▌': {true, false, true, false}, '▐': {false, true, false, true},
	' ': {},
}

// render draws s in large type, scale times as large (1 or 2: at 2, each
// quarter of a cell is a cell), figures one blank column (at scale) apart.
// It reports false when s holds a rune the font does not draw.
func (f bigFont) render(s string, scale int) ([]string, bool) {
	scale = max(1, min(scale, 2))
	rows := make([]strings.Builder, bigRows*scale)
	for i, r := range []rune(s) {
		g, ok := f[r]
		if !ok {
			return nil, false
		}
		for y, line := range g {
			for k := range scale {
				out := &rows[y*scale+k]
				if i > 0 {
					out.WriteString(strings.Repeat(" ", scale))
				}
				if scale == 1 {
					out.WriteString(line)
					continue
				}
				for _, c := range line {
					q := quadrants[c]
					for _, on := range q[2*k : 2*k+2] {
						if on {
							out.WriteRune('█')
						} else {
							out.WriteRune(' ')
						}
					}
				}
			}
		}
	}
	out := make([]string, len(rows))
	for i := range rows {
		out[i] = rows[i].String()
	}
	return out, true
}
