package ui

import (
	"strings"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
)

// segment is a line of a layer on a row of the frame.
type segment struct {
	x, w int
	s    string
}

// same reports whether two segments write the same: the same line at the
// same place. A line of a drawing kept from frame to frame is the very
// same string, told at once by its address.
func (sg segment) same(o segment) bool {
	return sg.x == o.x && sg.w == o.w && len(sg.s) == len(o.s) &&
		(unsafe.StringData(sg.s) == unsafe.StringData(o.s) || sg.s == o.s)
}

// painter paints a session's frames and keeps the last one, row by row:
// a row whose segments are the last frame's (the same lines at the same
// places) is the last frame's very row, the same string, rather than
// painted again. A server's screen tells a row that stayed by its
// address alone (Model.Lines); a terminal's renderer is handed the rows
// joined, once for each frame that changed. Its buffers are sized by the
// first frames and reused after.
type painter struct {
	w, h  int
	rows  []string  // the last frame's rows
	frame string    // the last frame's rows joined, once asked for; "" until then
	segs  []segment // the last frame's segments, by row, each row's by x
	from  []int     // where each row's segments start in segs; from[h] ends them

	// The next frame's, swapped with the last's once it is painted.
	nextSegs []segment
	nextFrom []int
	next     []int     // paint's cursors
	row      []segment // repaint's row
}

// paint draws flat, non-overlapping layers into w×h cells: each line of a
// layer is pasted at its place, as measured once, and the gaps are blank.
// It is what a compositor would draw, without parsing every cell back out
// of the layers' escape codes. A line that overlaps the one before it on
// its row is cut, as is what passes the frame's right edge.
func paint(w, h int, layers []layer) string {
	var p painter
	p.paint(w, h, layers)
	return p.joined()
}

// paint is paint, keeping from the last frame the rows that stay, and
// returns the frame's rows: the painter's own, good until the next paint.
func (p *painter) paint(w, h int, layers []layer) []string {
	// The lines, bucketed by row in the layers' order.
	from := resize(p.nextFrom, h+1)
	clear(from)
	for _, l := range layers {
		for i := range l.d.lines {
			if y := l.y + i; y >= 0 && y < h {
				from[y+1]++
			}
		}
	}
	for y := range h {
		from[y+1] += from[y]
	}
	segs := resize(p.nextSegs, from[h])
	next := append(p.next[:0], from[:h]...) // a cursor a row
	p.next = next
	for _, l := range layers {
		for i, line := range l.d.lines {
			if y := l.y + i; y >= 0 && y < h {
				segs[next[y]] = segment{l.x, l.d.widths[i], line}
				next[y]++
			}
		}
	}
	last := p.w == w && p.h == h && len(p.rows) == h
	if !last {
		p.rows = make([]string, h)
	}
	for y := range h {
		row := segs[from[y]:from[y+1]]
		sortRow(row)
		if last && sameRow(row, p.segs[p.from[y]:p.from[y+1]]) {
			continue
		}
		p.rows[y], p.frame = paintedRow(w, row), ""
	}
	p.nextSegs, p.nextFrom = p.segs, p.from
	p.w, p.h, p.segs, p.from = w, h, segs, from
	return p.rows
}

// repaint is paint for a frame whose layers are the last frame's but on
// row y (the header's second): the other rows are the last frame's
// without a look, where paint buckets every line of every layer again.
func (p *painter) repaint(w, h int, layers []layer, y int) []string {
	if p.w != w || p.h != h || len(p.rows) != h || y < 0 || y >= h {
		return p.paint(w, h, layers)
	}
	row := p.row[:0]
	for _, l := range layers {
		if i := y - l.y; i >= 0 && i < len(l.d.lines) {
			row = append(row, segment{l.x, l.d.widths[i], l.d.lines[i]})
		}
	}
	p.row = row
	sortRow(row)
	last := p.segs[p.from[y]:p.from[y+1]]
	if len(row) != len(last) { // the rows' segments move in segs: paint them all
		return p.paint(w, h, layers)
	}
	if sameRow(row, last) {
		return p.rows
	}
	copy(last, row)
	p.rows[y], p.frame = paintedRow(w, row), ""
	return p.rows
}

// sortRow orders a row's segments by x, in the layers' order where equal
// (an insertion sort: rows hold a few).
func sortRow(row []segment) {
	for i := 1; i < len(row); i++ {
		for j := i; j > 0 && row[j].x < row[j-1].x; j-- {
			row[j], row[j-1] = row[j-1], row[j]
		}
	}
}

// paintedRow is a row's segments, sorted by x, painted w wide.
func paintedRow(w int, row []segment) string {
	if len(row) == 1 && row[0].x == 0 && row[0].w == w {
		return row[0].s // the row whole (the header's): painted as it is
	}
	size := w
	for _, sg := range row {
		size += len(sg.s)
	}
	var b strings.Builder
	b.Grow(size)
	paintRow(&b, w, row)
	return b.String()
}

// joined is the last frame, its rows joined by line breaks: made once for
// each frame that changed.
func (p *painter) joined() string {
	if p.frame == "" && len(p.rows) > 0 {
		p.frame = strings.Join(p.rows, "\n")
	}
	return p.frame
}

// paintRow writes a row's segments, sorted by x, and the gaps between.
func paintRow(b *strings.Builder, w int, row []segment) {
	at := 0
	for _, sg := range row {
		s, sw := sg.s, sg.w
		if sg.x < at {
			s = ansi.TruncateLeft(s, at-sg.x, "")
			sw = ansi.StringWidth(s)
		} else {
			pad(b, sg.x-at)
			at = sg.x
		}
		if at+sw > w {
			s = ansi.Truncate(s, max(0, w-at), "")
			sw = ansi.StringWidth(s)
		}
		b.WriteString(s)
		at += sw
	}
	pad(b, w-at)
}

func sameRow(a, b []segment) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].same(b[i]) {
			return false
		}
	}
	return true
}

// resize returns s with n elements, reusing its array when it holds them.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4) // room for a frame of a few more
	}
	return s[:n]
}
