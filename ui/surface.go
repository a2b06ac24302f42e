package ui

import (
	"strings"

	"tapis/game/vegas"
)

// coatedSurface is a surface of the live ticket under its coating, as last
// drawn row by row: a scratch draws again only the rows whose coating it
// changed, the others are the same strings as before.
type coatedSurface struct {
	ticket *vegas.Ticket
	gen    int  // the coatings' generation
	lit    bool // the chosen surface's frame
	grid   *grid
	cover  func(x, y int) (rune, bool)
	edges  frameParts
	top    int // the width of edges.top
	bottom int // the width of edges.bottom
	drawn  [surfaceH]bool
	masks  [surfaceH]uint64 // each row's covered cells, as drawn
	rows   [surfaceH]string // each row as drawn, its edges included
	widths [surfaceH]int
}

// drawCoated draws surface f of the live ticket under its coating, as surface
// draws it, from the rows kept in c.kept.coats where they did not change.
func (c *common) drawCoated(t *ticketView, f int) *drawing {
	cs := &c.kept.coats[f]
	lit := t.focus == f && !t.done()
	if cs.grid == nil || cs.ticket != t.ticket || cs.gen != t.gen {
		score := t.ticket.Score()
		*cs = coatedSurface{ticket: t.ticket, gen: t.gen, lit: !lit,
			grid: c.surfaceGrid(t.ticket, vegas.Surface(f), &score, false), cover: c.coverOf(&t.coats[f])}
	}
	if cs.lit != lit {
		cs.lit, cs.drawn = lit, [surfaceH]bool{}
		cs.edges = frameOf(c.surfaceFrame(lit), surfaceW, c.surfaceTitle(f), "")
		cs.top, cs.bottom = cellWidth(cs.edges.top), cellWidth(cs.edges.bottom)
	}
	coat := &t.coats[f]
	d := &drawing{lines: make([]string, 0, surfaceH+2), widths: make([]int, 0, surfaceH+2)}
	d.lines, d.widths = append(d.lines, cs.edges.top), append(d.widths, cs.top)
	for y := range surfaceH {
		var mask uint64
		for x, on := range coat.covered[y*surfaceW : (y+1)*surfaceW] {
			if on {
				mask |= 1 << x
			}
		}
		if !cs.drawn[y] || cs.masks[y] != mask {
			var b strings.Builder
			b.WriteString(cs.edges.left)
			cs.grid.renderRow(&b, c.gridInks(), y, cs.cover)
			b.WriteString(cs.edges.right)
			cs.rows[y], cs.masks[y], cs.drawn[y] = b.String(), mask, true
			cs.widths[y] = cellWidth(cs.rows[y])
		}
		d.lines, d.widths = append(d.lines, cs.rows[y]), append(d.widths, cs.widths[y])
	}
	d.lines, d.widths = append(d.lines, cs.edges.bottom), append(d.widths, cs.bottom)
	for _, w := range d.widths {
		d.w = max(d.w, w)
	}
	return d
}
