package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"charm.land/lipgloss/v2"
)

// area is a rectangle of the screen, in cells.
type area struct{ x, y, w, h int }

// centered returns a w×h area centered in a.
func (a area) centered(w, h int) area {
	return area{a.x + max(0, (a.w-w)/2), a.y + max(0, (a.h-h)/2), w, h}
}

// drawing is a text measured once: its lines and the width of each in
// cells. A frame pastes drawings as they are, without measuring them again;
// the memo keeps those that depend only on their key from frame to frame.
type drawing struct {
	lines  []string
	widths []int
	w      int // the widest line's width
}

// measure cuts s into lines and measures each.
func measure(s string) *drawing {
	n := strings.Count(s, "\n") + 1
	d := &drawing{lines: make([]string, 0, n), widths: make([]int, 0, n)}
	for line := range strings.SplitSeq(s, "\n") {
		w := ansi.StringWidth(line)
		d.lines = append(d.lines, line)
		d.widths = append(d.widths, w)
		d.w = max(d.w, w)
	}
	return d
}

// rows returns the lines from, to of a drawing, measured already.
func (d *drawing) rows(from, to int) *drawing {
	r := &drawing{lines: d.lines[from:to], widths: d.widths[from:to]}
	for _, w := range r.widths {
		r.w = max(r.w, w)
	}
	return r
}

// height is the drawing's count of lines.
func (d *drawing) height() int { return len(d.lines) }

// String returns the drawing as text.
func (d *drawing) String() string { return strings.Join(d.lines, "\n") }

// layer is a drawing placed on the screen, with what the mouse hits there:
// the view paints the layers, and a click goes to the named layer under it.
type layer struct {
	x, y int
	id   target // noTarget: the mouse never hits it
	d    *drawing
}

// named places a drawing at the area's corner under a name that mouse hits
// report.
func named(t target, a area, d *drawing) layer { return layer{x: a.x, y: a.y, id: t, d: d} }

// place places a drawing at the area's corner: the mouse never hits it.
func place(a area, d *drawing) layer { return layer{x: a.x, y: a.y, d: d} }

// hit returns the named layer under the cell (x, y), the last one drawn
// when named layers overlap there.
func hit(layers []layer, x, y int) (layer, bool) {
	for i := len(layers) - 1; i >= 0; i-- {
		l := layers[i]
		if l.id.kind != noTarget && x >= l.x && x < l.x+l.d.w && y >= l.y && y < l.y+l.d.height() {
			return l, true
		}
	}
	return layer{}, false
}

// fit renders content into exactly w×h cells, centered.
func fit(w, h int, content string) string {
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, content)
}

// segment is a line of a layer on a row of the frame.
type segment struct {
	x, w int
	s    string
}

// paint draws flat, non-overlapping layers into w×h cells: each line of a
// layer is pasted at its place, as measured once, and the gaps are blank.
// It is what a compositor would draw, without parsing every cell back out
// of the layers' escape codes. A line that overlaps the one before it on
// its row is cut, as is what passes the frame's right edge.
func paint(w, h int, layers []layer) string {
	// The lines, bucketed by row in the layers' order.
	count := make([]int, h+1)
	size := 0
	for _, l := range layers {
		for i := range l.d.lines {
			if y := l.y + i; y >= 0 && y < h {
				count[y+1]++
				size += len(l.d.lines[i])
			}
		}
	}
	for y := range h {
		count[y+1] += count[y]
	}
	segs := make([]segment, count[h])
	next := count[:h:h]
	for _, l := range layers {
		for i, line := range l.d.lines {
			if y := l.y + i; y >= 0 && y < h {
				segs[next[y]] = segment{l.x, l.d.widths[i], line}
				next[y]++
			}
		}
	}
	var b strings.Builder
	b.Grow(size + w*h + h)
	from := 0
	for y := range h {
		if y > 0 {
			b.WriteByte('\n')
		}
		row := segs[from:next[y]]
		from = next[y]
		for i := 1; i < len(row); i++ { // by x, in the layers' order where equal: rows hold a few
			for j := i; j > 0 && row[j].x < row[j-1].x; j-- {
				row[j], row[j-1] = row[j-1], row[j]
			}
		}
		at := 0
		for _, sg := range row {
			s, sw := sg.s, sg.w
			if sg.x < at {
				s = ansi.TruncateLeft(s, at-sg.x, "")
				sw = ansi.StringWidth(s)
			} else {
				pad(&b, sg.x-at)
				at = sg.x
			}
			if at+sw > w {
				s = ansi.Truncate(s, max(0, w-at), "")
				sw = ansi.StringWidth(s)
			}
			b.WriteString(s)
			at += sw
		}
		pad(&b, w-at)
	}
	return b.String()
}

// blanks are spaces to cut from.
const blanks = "                                                                " +
	"                                                                "

// spaces returns n spaces (none when n < 0).
func spaces(n int) string {
	if n <= len(blanks) {
		return blanks[:max(0, n)]
	}
	return strings.Repeat(" ", n)
}

// pad writes n spaces (none when n < 0).
func pad(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(blanks))
		b.WriteString(blanks[:k])
		n -= k
	}
}

// body is the area a screen lays itself out in, as Model.layers gives it:
// between the header and the keys' help, above the QA status line when it
// shows. Screens that page by keys read their size from it in update.
func (c *common) body() area {
	b := area{0, 1, c.width, c.height - 2}
	if c.qa && c.nav.screen != ReplayScreen {
		b.h--
	}
	return b
}
