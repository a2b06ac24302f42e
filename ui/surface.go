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
	edges  *surfaceEdges
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
	if cs.lit != lit || cs.edges == nil {
		cs.lit, cs.drawn = lit, [surfaceH]bool{}
		cs.edges = memo(c, surfaceEdgesKey{f, lit}, func() *surfaceEdges {
			e := &surfaceEdges{frameParts: frameOf(c.surfaceFrame(lit), surfaceW, c.surfaceTitle(f), "")}
			e.topW, e.sidesW, e.bottomW = cellWidth(e.top), cellWidth(e.left)+cellWidth(e.right), cellWidth(e.bottom)
			return e
		})
	}
	e := cs.edges
	coat := &t.coats[f]
	d := &drawing{lines: make([]string, 0, surfaceH+2), widths: make([]int, 0, surfaceH+2)}
	d.lines, d.widths = append(d.lines, e.top), append(d.widths, e.topW)
	for y := range surfaceH {
		var mask uint64
		for x, on := range coat.covered[y*surfaceW : (y+1)*surfaceW] {
			if on {
				mask |= 1 << x
			}
		}
		if !cs.drawn[y] || cs.masks[y] != mask {
			var b strings.Builder
			b.Grow(len(cs.rows[y])) // the row as last drawn: about as long
			b.WriteString(e.left)
			narrowOnly := cs.grid.renderRow(&b, c.gridInks(), y, cs.cover)
			b.WriteString(e.right)
			cs.rows[y], cs.masks[y], cs.drawn[y] = b.String(), mask, true
			if cs.widths[y] = e.sidesW + surfaceW; !narrowOnly {
				cs.widths[y] = cellWidth(cs.rows[y])
			}
		}
		d.lines, d.widths = append(d.lines, cs.rows[y]), append(d.widths, cs.widths[y])
	}
	d.lines, d.widths = append(d.lines, e.bottom), append(d.widths, e.bottomW)
	for _, w := range d.widths {
		d.w = max(d.w, w)
	}
	return d
}

// surfaceEdges are the frame of a surface under its coating, and the
// widths of its parts: the same for every ticket.
type surfaceEdges struct {
	frameParts
	topW, sidesW, bottomW int
}

// surfaceEdgesKey is surface f's frame, the chosen one's when lit.
type surfaceEdgesKey struct {
	f   int
	lit bool
}
