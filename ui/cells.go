package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
)

// ink is the style of one cell of a grid.
type ink uint8

const (
	inkPlain ink = iota
	inkDim
	inkTitle
	inkWin
	inkCard
	inkCardRed
	inkCardLit
	inkDie
	inkReel
	inkCoat
)

// grid is a surface drawn cell by cell, so that the scratch coating can hide
// any cell and show the one beneath when it is scratched off. A checked grid
// also remembers which piece wrote each cell, so that a test can check that
// every piece fits and stands apart from its neighbours.
type grid struct {
	w, h   int
	runes  []rune
	inks   []ink
	owner  []uint16 // checked grids: the piece that wrote each cell, from 1; 0 for none
	gaps   []int    // checked grids: for each piece, the blank cells it wants on each side
	faults []string // checked grids: pieces that did not fit the grid or overlapped another
}

// newGrid returns a blank grid; checked, it keeps what its problems need.
func newGrid(w, h int, checked bool) *grid {
	g := &grid{w: w, h: h, runes: make([]rune, w*h), inks: make([]ink, w*h)}
	if checked {
		g.owner, g.gaps = make([]uint16, w*h), []int{0}
	}
	for i := range g.runes {
		g.runes[i] = ' '
	}
	return g
}

// Gaps between pieces on a row: drawings (cards, reels) may touch each
// other, words stand one blank cell apart, and amounts two, since French
// amounts hold spaces themselves ("10 000 €").
const (
	gapArt    = 0
	gapWord   = 1
	gapAmount = 2
)

// put writes s from (x, y) as one piece wanting gap blank cells on each
// side. Every rune takes one cell.
func (g *grid) put(x, y int, s string, k ink, gap int) {
	if g.owner == nil {
		for _, r := range s {
			if y >= 0 && y < g.h && x >= 0 && x < g.w {
				g.runes[y*g.w+x], g.inks[y*g.w+x] = r, k
			}
			x++
		}
		return
	}
	g.gaps = append(g.gaps, gap)
	id := uint16(len(g.gaps) - 1)
	for _, r := range s {
		switch {
		case y < 0 || y >= g.h || x < 0 || x >= g.w:
			g.faults = append(g.faults, fmt.Sprintf("%q at %d,%d is cut by the frame", s, x, y))
			return
		case g.owner[y*g.w+x] != 0 && r != ' ':
			g.faults = append(g.faults, fmt.Sprintf("%q at %d,%d overlaps %q", s, x, y, g.pieceAt(x, y)))
		}
		if r != ' ' || g.owner[y*g.w+x] == 0 {
			g.runes[y*g.w+x], g.inks[y*g.w+x], g.owner[y*g.w+x] = r, k, id
		}
		x++
	}
}

// text writes a word; amount writes an amount; art writes a row of a
// drawing.
func (g *grid) text(x, y int, s string, k ink)   { g.put(x, y, s, k, gapWord) }
func (g *grid) amount(x, y int, s string, k ink) { g.put(x, y, s, k, gapAmount) }
func (g *grid) art(x, y int, s string, k ink)    { g.put(x, y, s, k, gapArt) }

// right writes an amount ending at column x (included).
func (g *grid) right(x, y int, s string, k ink) { g.amount(x+1-lipgloss.Width(s), y, s, k) }

// center writes s centered on row y.
func (g *grid) center(y int, s string, k ink) {
	g.text((g.w-lipgloss.Width(s))/2, y, s, k)
}

// pieceAt returns the text of the piece that wrote a cell.
func (g *grid) pieceAt(x, y int) string {
	id := g.owner[y*g.w+x]
	var b strings.Builder
	for i := range g.runes {
		if g.owner[i] == id && i/g.w == y {
			b.WriteRune(g.runes[i])
		}
	}
	return b.String()
}

// problems lists the pieces of a checked grid that do not fit it, overlap,
// or stand closer to a neighbour on their row than either wants.
func (g *grid) problems() []string {
	out := append([]string(nil), g.faults...)
	for y := range g.h {
		last, end := uint16(0), 0
		for x := range g.w {
			id := g.owner[y*g.w+x]
			if id == 0 || g.runes[y*g.w+x] == ' ' {
				continue
			}
			if last != 0 && id != last {
				if want := max(g.gaps[id], g.gaps[last]); x-end-1 < want {
					out = append(out, fmt.Sprintf("row %d: %q and %q are %d cells apart, want %d",
						y, g.pieceAt(end, y), g.pieceAt(x, y), x-end-1, want))
				}
			}
			last, end = id, x
		}
	}
	return out
}

// inks holds, for each ink, the escape codes that open and close its style,
// so that a grid of hundreds of runs renders without a Style.Render each.
type inks [inkCoat + 1][2]string

func newInks(st *styles) inks {
	var out inks
	for k, s := range map[ink]lipgloss.Style{
		inkPlain: lipgloss.NewStyle(), inkDim: st.dim, inkTitle: st.boxTitle, inkWin: st.win,
		inkCard: st.card, inkCardRed: st.cardRed, inkCardLit: st.cardLit, inkDie: st.die, inkReel: st.reel, inkCoat: st.coating,
	} {
		open, close, _ := strings.Cut(s.Render("\x00"), "\x00")
		out[k] = [2]string{open, close}
	}
	return out
}

// render draws the grid; cells for which cover returns a rune show it in
// the coating's ink instead.
func (g *grid) render(in *inks, cover func(x, y int) (rune, bool)) string {
	var out strings.Builder
	for y := range g.h {
		if y > 0 {
			out.WriteByte('\n')
		}
		g.renderRow(&out, in, y, cover)
	}
	return out.String()
}

// renderRow writes row y of the grid to out, each run of cells of one ink
// between its escape codes. It reports whether every rune it wrote is
// narrow (narrowRunes, or printable ASCII): the row is then as many cells
// wide as the grid, as cellWidth measures it.
func (g *grid) renderRow(out *strings.Builder, in *inks, y int, cover func(x, y int) (rune, bool)) bool {
	narrowOnly := true
	cur := ink(255) // none yet
	for x := range g.w {
		r, k := g.runes[y*g.w+x], g.inks[y*g.w+x]
		if cover != nil {
			if c, ok := cover(x, y); ok {
				r, k = c, inkCoat
			}
		}
		if k != cur {
			if cur != 255 {
				out.WriteString(in[cur][1])
			}
			out.WriteString(in[k][0])
			cur = k
		}
		out.WriteRune(r)
		narrowOnly = narrowOnly && (r >= 0x20 && r < 0x7f || r >= 0x80 && narrow(r))
	}
	if cur != 255 {
		out.WriteString(in[cur][1])
	}
	return narrowOnly
}
