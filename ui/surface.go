package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"tapis/game/vegas"
)

// coatedSurface is a surface of the live ticket under its coating, as last
// drawn row by row: a scratch draws again only the rows whose coating it
// changed, the others are the same strings as before.
type coatedSurface struct {
	ticket *vegas.Ticket
	gen    int  // the coatings' generation
	lit    bool // the chosen surface's frame
	size   ticketSize
	grid   *grid
	cover  func(x, y int) (rune, bool)
	edges  *surfaceEdges
	drawn  [largestH]bool
	masks  [largestH]uint64 // each row's covered cells of the coating, as drawn
	rows   [largestH]string // each row as drawn, its edges included
	widths [largestH]int
}

// drawCoated draws surface f of the live ticket under its coating, as surface
// draws it, from the rows kept in c.kept.coats where they did not change.
func (c *common) drawCoated(t *ticketView, f int) *drawing {
	cs := &c.kept.coats[f]
	lit := t.focus == f && !t.done()
	z := t.size
	if cs.grid == nil || cs.ticket != t.ticket || cs.gen != t.gen || cs.size != z {
		score := t.ticket.Score()
		*cs = coatedSurface{ticket: t.ticket, gen: t.gen, lit: !lit, size: z,
			grid: c.surfaceGrid(t.ticket, vegas.Surface(f), &score, false, z), cover: c.coverOf(&t.coats[f], f, z)}
	}
	if cs.lit != lit || cs.edges == nil {
		cs.lit, cs.drawn = lit, [largestH]bool{}
		cs.edges = memo(c, surfaceEdgesKey{f, lit, z}, func() *surfaceEdges {
			e := &surfaceEdges{frameParts: frameOf(c.surfaceFrame(lit), z.w, c.surfaceTitle(f), "")}
			e.topW, e.sidesW, e.bottomW = cellWidth(e.top), cellWidth(e.left)+cellWidth(e.right), cellWidth(e.bottom)
			return e
		})
	}
	e := cs.edges
	coat := &t.coats[f]
	d := &drawing{lines: make([]string, 0, z.h+2), widths: make([]int, 0, z.h+2)}
	d.lines, d.widths = append(d.lines, e.top), append(d.widths, e.topW)
	for y := range z.h {
		var mask uint64
		_, cy := z.coatAt(0, y)
		for x, on := range coat.covered[cy*surfaceW : (cy+1)*surfaceW] {
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
			if cs.widths[y] = e.sidesW + z.w; !narrowOnly {
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

// surfaceEdgesKey is surface f's frame at a size, the chosen one's when
// lit.
type surfaceEdgesKey struct {
	f    int
	lit  bool
	size ticketSize
}

// surfaceTitle is what a surface's frame says: its number and name.
func (c *common) surfaceTitle(f int) string {
	return strconv.Itoa(f+1) + " · " + c.t.get(surfaceKeys[f])
}

// surfaceFrame is the frame's style of a surface, the chosen one's when lit.
func (c *common) surfaceFrame(lit bool) lipgloss.Style {
	if lit {
		return c.st.surfaceOn
	}
	return c.st.surface
}

// coverOf returns what the coating of surface f shows of each cell: the
// coating's drawing, and "scratch here" across its middle row, where it is
// left. The Roulette's coating says it over the wheel, and each of its
// piles of chips bears its kind as the regulation names it (art. 4.2.1:
// « Pair/Impair », « Rouge/Noir », « Manque/Passe », « Numéro »).
func (c *common) coverOf(coat *coating, f int, z ticketSize) func(x, y int) (rune, bool) {
	label := []rune(c.t.get("v.scratchhere"))
	lx, ly := (z.w-len(label))/2, z.h/2
	var printed [largestH][]rune // what is printed on the coating, from pilesX
	betsY, pilesX, _, scratchY := z.roulette()
	if vegas.Surface(f) == vegas.RouletteSurface {
		ly = scratchY
		for k := range vegas.Kinds {
			printed[betsY+int(k)] = []rune(c.t.get(betKindKeys[k]))
		}
	}
	drawing := c.ticketArt().coat
	return func(x, y int) (rune, bool) {
		if cx, cy := z.coatAt(x, y); !coat.covered[cy*surfaceW+cx] {
			return 0, false
		}
		if y == ly && x >= lx && x < lx+len(label) {
			return label[x-lx], true
		}
		if p := printed[y]; x >= pilesX && x < pilesX+len(p) {
			return p[x-pilesX], true
		}
		row := drawing[y%len(drawing)]
		return row[x%len(row)], true
	}
}

// betKindKeys are the text keys of the Roulette's kinds of bets, as the
// regulation names their piles of chips.
var betKindKeys = [vegas.Kinds]string{
	vegas.ParityKind: "bet.parity", vegas.ColorKind: "bet.color",
	vegas.HalfKind: "bet.half", vegas.NumberKind: "bet.number",
}

// framed puts a frame in the border and colour of st around body, w cells
// wide, with a title in its top edge and a note in its bottom edge. The
// chosen surface has a heavy frame, plain to see without colours too.
func framed(st lipgloss.Style, w int, title, foot, body string) string {
	f := frameOf(st, w, title, foot)
	var b strings.Builder
	b.WriteString(f.top)
	for r := range strings.SplitSeq(body, "\n") {
		b.WriteString("\n" + f.left + r + f.right)
	}
	b.WriteString("\n" + f.bottom)
	return b.String()
}

// frameParts are a frame's parts as framed writes them: its top edge with the
// title, the left and right edges of a row, the bottom edge with the
// note.
type frameParts struct{ top, left, right, bottom string }

func frameOf(st lipgloss.Style, w int, title, foot string) frameParts {
	open, close, _ := strings.Cut(lipgloss.NewStyle().Foreground(st.GetBorderTopForeground()).Render("\x00"), "\x00")
	e := st.GetBorderStyle()
	// The title in the frame's own style but for its border (its padding
	// too, if any): the edge after it is as long as what it takes.
	titled := st.UnsetBorderStyle().Bold(true).Render(title)
	return frameParts{
		top: open + e.TopLeft + e.Top + " " + close + titled + open + " " +
			strings.Repeat(e.Top, max(0, w-3-lipgloss.Width(titled))) + e.TopRight + close,
		left: open + e.Left + close, right: open + e.Right + close,
		bottom: open + e.BottomLeft + strings.Repeat(e.Bottom, max(0, w-lipgloss.Width(foot)-1)) + close + foot + open + e.Bottom + e.BottomRight + close,
	}
}
