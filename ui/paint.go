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

// painter paints a session's frames and keeps the last one: a row whose
// segments are the last frame's (the same lines at the same places) is
// copied from it rather than painted again, and a frame whose rows all are
// is the last frame itself. Its buffers are sized by the first frames and
// reused after.
type painter struct {
	w, h  int
	frame string    // the last frame
	ends  []int     // where each row of the last frame ends in it
	segs  []segment // the last frame's segments, by row, each row's by x
	from  []int     // where each row's segments start in segs; from[h] ends them

	// The next frame's, swapped with the last's once it is painted.
	nextEnds []int
	nextSegs []segment
	nextFrom []int
	changed  []bool
}

// paint draws flat, non-overlapping layers into w×h cells: each line of a
// layer is pasted at its place, as measured once, and the gaps are blank.
// It is what a compositor would draw, without parsing every cell back out
// of the layers' escape codes. A line that overlaps the one before it on
// its row is cut, as is what passes the frame's right edge.
func paint(w, h int, layers []layer) string {
	var p painter
	return p.paint(w, h, layers)
}

// paint is paint, copying from the last frame the rows that stay.
func (p *painter) paint(w, h int, layers []layer) string {
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
	next := p.nextEnds[:0] // a cursor a row, until the rows' ends are known
	next = append(next, from[:h]...)
	for _, l := range layers {
		for i, line := range l.d.lines {
			if y := l.y + i; y >= 0 && y < h {
				segs[next[y]] = segment{l.x, l.d.widths[i], line}
				next[y]++
			}
		}
	}
	// Which rows changed, and an upper bound of the frame's length.
	last := p.w == w && p.h == h && p.frame != ""
	changed := resize(p.changed, h)
	size := h
	for y := range h {
		row := segs[from[y]:from[y+1]]
		for i := 1; i < len(row); i++ { // by x, in the layers' order where equal: rows hold a few
			for j := i; j > 0 && row[j].x < row[j-1].x; j-- {
				row[j], row[j-1] = row[j-1], row[j]
			}
		}
		changed[y] = !last || !sameRow(row, p.segs[p.from[y]:p.from[y+1]])
		if !changed[y] {
			size += p.rowLen(y)
			continue
		}
		size += w
		for _, sg := range row {
			size += len(sg.s)
		}
	}
	ends := next[:0]
	frame := p.frame
	if !last || anyTrue(changed) {
		var b strings.Builder
		b.Grow(size)
		for y := 0; y < h; {
			if y > 0 {
				b.WriteByte('\n')
			}
			if changed[y] {
				paintRow(&b, w, segs[from[y]:from[y+1]])
				ends = append(ends, b.Len())
				y++
				continue
			}
			// The rows that stay from y on, copied at once with the line
			// breaks between them.
			z := y
			for z+1 < h && !changed[z+1] {
				z++
			}
			start := p.rowStart(y)
			shift := b.Len() - start
			b.WriteString(p.frame[start:p.ends[z]])
			for i := y; i <= z; i++ {
				ends = append(ends, p.ends[i]+shift)
			}
			y = z + 1
		}
		frame = b.String()
	} else {
		ends = append(ends, p.ends...)
	}
	p.nextEnds, p.nextSegs, p.nextFrom, p.changed = p.ends, p.segs, p.from, changed
	p.w, p.h, p.frame, p.ends, p.segs, p.from = w, h, frame, ends, segs, from
	return frame
}

// rowStart is where row y of the last frame starts in it.
func (p *painter) rowStart(y int) int {
	if y == 0 {
		return 0
	}
	return p.ends[y-1] + 1
}

// rowLen is the length of row y of the last frame.
func (p *painter) rowLen(y int) int { return p.ends[y] - p.rowStart(y) }

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

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// resize returns s with n elements, reusing its array when it holds them.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
