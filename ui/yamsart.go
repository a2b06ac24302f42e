package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"tapis/assets"
)

// yamsArt holds the drawings of the board at one size, styled once for the
// session: dice of five cells for 80 columns, of seven for wide windows.
type yamsArt struct {
	matW     int          // the width of a mat
	dieW     int          // the width of a die
	dice     [6][3]string // each face's three rows, with its edges
	cups     [3][]string  // each cup's rows, its number written on it, mat-wide
	blankRow string       // an empty row of felt, mat-wide
	// The felt left and right of five dice in a row.
	left, margin string
	// The widths of each, in cells, as cellWidth measures them.
	diceW                  [6][3]int
	cupsW                  [3][]int
	blankW, leftW, marginW int
}

// wideBoard is the width from which the board uses large dice.
const wideBoard = 117

func newYamsArt(st *styles, wide bool) yamsArt {
	a := yamsArt{matW: 26, dieW: 5}
	if wide {
		a.matW, a.dieW = 37, 7
	}
	for f, face := range assets.MustDrawing("dice.txt") {
		for r, row := range face {
			if wide { // a pip every other cell
				row = string([]rune{rune(row[0]), ' ', rune(row[1]), ' ', rune(row[2])})
			}
			a.dice[f][r] = st.dieEdge.Render("▐") + st.die.Render(pips(row)) + st.dieEdge.Render("▌")
		}
	}
	for i := range a.cups {
		for _, r := range assets.MustDrawing("cup.txt")[b2i(wide)] { // the wide board's cup is wider
			r = strings.Replace(r, "#", strconv.Itoa(i+1), 1)
			a.cups[i] = append(a.cups[i], st.cup.Width(a.matW).Align(lipgloss.Center).Render(r))
		}
	}
	a.blankRow = st.felt.Render(spaces(a.matW))
	a.left = st.felt.Render(spaces((a.matW - 5*a.dieW) / 2))
	a.margin = st.felt.Render(spaces(a.matW - 5*a.dieW - (a.matW-5*a.dieW)/2))
	for f := range a.dice {
		for r := range a.dice[f] {
			a.diceW[f][r] = cellWidth(a.dice[f][r])
		}
	}
	for i := range a.cups {
		for _, r := range a.cups[i] {
			a.cupsW[i] = append(a.cupsW[i], cellWidth(r))
		}
	}
	a.blankW, a.leftW, a.marginW = cellWidth(a.blankRow), cellWidth(a.left), cellWidth(a.margin)
	return a
}

// boardArt returns the drawings that fit a board w cells wide.
func (c *common) boardArt(w int) *yamsArt { return c.art.yams[b2i(w >= wideBoard)] }
