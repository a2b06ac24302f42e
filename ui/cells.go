package ui

import (
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
// any cell and show the one beneath when it is scratched off.
type grid struct {
	w, h  int
	runes []rune
	inks  []ink
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h, runes: make([]rune, w*h), inks: make([]ink, w*h)}
	for i := range g.runes {
		g.runes[i] = ' '
	}
	return g
}

// text writes s from (x, y), clipped to the grid. Every rune takes one cell.
func (g *grid) text(x, y int, s string, k ink) {
	if y < 0 || y >= g.h {
		return
	}
	for _, r := range s {
		if x >= 0 && x < g.w {
			g.runes[y*g.w+x], g.inks[y*g.w+x] = r, k
		}
		x++
	}
}

// center writes s centered on row y.
func (g *grid) center(y int, s string, k ink) {
	g.text((g.w-lipgloss.Width(s))/2, y, s, k)
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
		var run strings.Builder
		cur := ink(255)
		flush := func() {
			if run.Len() > 0 {
				out.WriteString(in[cur][0])
				out.WriteString(run.String())
				out.WriteString(in[cur][1])
				run.Reset()
			}
		}
		for x := range g.w {
			r, k := g.runes[y*g.w+x], g.inks[y*g.w+x]
			if cover != nil {
				if c, ok := cover(x, y); ok {
					r, k = c, inkCoat
				}
			}
			if k != cur {
				flush()
				cur = k
			}
			run.WriteRune(r)
		}
		flush()
	}
	return out.String()
}
