package server

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// rowCells appends to was and now the columns of a row as it was (old) and
// as it is (line), as cellsOf reads them, but for what drawRow would find
// the same in both: the bytes the two share at the start are read once,
// and where they share their end from a style on, the columns from there
// are left out of both (drawRow takes the columns past a slice's end as
// blanks, the same in both); from is the first column that may differ.
// A cup tumbling changes a few columns in the
// middle of rows of a hundred, each of ten or more bytes of styles a
// column: reading both rows whole was most of a frame's diff.
//
// With a marker, the shared start is read from old's last mark before the
// change (marks, made by the marker when old was line), not from the
// row's first byte: the columns before that mark are left blank in both,
// and drawRow reads none of them (drawBack). The marker
// gets line's marks: old's before the change, those read after it, and
// old's in the shared end, moved with it.
func rowCells(was, now []cell, old, line string, width int, marks []cellRead, mk *marker) (w, n []cell, from int) {
	p := commonPrefix(old, line)
	var wr, nr cellRead
	was, now = was[:0], now[:0]
	if mk != nil {
		mk.marks, mk.next = mk.marks[:0], 0
	} else {
		marks = nil
	}
	// The last sequence both start before p: the grapheme before it ends
	// there in both (a control breaks a grapheme), read once for both.
	if a := strings.LastIndexByte(old[:p], ansi.ESC); a > 0 {
		k := lastMark(marks, a)
		for {
			var r cellRead
			if k >= 0 {
				r = marks[k]
			}
			was, wr = cellsRead(blanks(was[:0], r.col), old, width, r, a, nil)
			if k < 0 || wr.i == a && wr.col-r.col >= drawBack {
				break
			}
			if wr.i != a { // the row's width reached before the change: read it all
				k = -1
			} else {
				k--
			}
		}
		if wr.i == a {
			// The last column read may still change: a mark after the
			// sequence joins it.
			now, nr, from = append(now, was...), wr, max(0, wr.col-1)
			if mk != nil {
				mk.keep(line, marks, a)
			}
		} // else the row's width was reached before a, from its start: was holds it
	}
	if b := tailCut(old, len(old)-commonSuffix(old[p:], line[p:])); b >= 0 {
		bn := b + len(line) - len(old)
		was, wr = cellsRead(was, old, width, wr, b, nil)
		now, nr = cellsRead(now, line, width, nr, bn, mk)
		if wr.i == b && nr.i == bn && wr.col == nr.col && wr.sgr == nr.sgr {
			// The same bytes read from the same column and style: the same
			// columns, and old's marks there are line's, moved.
			if mk != nil {
				mk.moved(marks, b, bn-b)
			}
			return was, now, from
		}
	}
	was, _ = cellsRead(was, old, width, wr, len(old), nil)
	now, _ = cellsRead(now, line, width, nr, len(line), mk)
	return was, now, from
}

// drawBack is how many columns before the change (the column read last,
// which a mark may still join) a line is read from at the least: from is
// then the mark's column or after it, and drawRow reads no column before
// from but the first half of a wide one whose second half is at from, and
// the column at the mark starts a grapheme.
const drawBack = 1

// markEvery is about how many bytes apart a line's marks are: a change is
// read from the last mark before it, within some markEvery bytes of it,
// for some 9 marks a row of 1 200 bytes (32 bytes each).
const markEvery = 128

// marker makes a line's marks as cellsRead reads it: where reading it may
// begin again, each at a sequence that no mark (a combining rune) follows
// to join the column before it (cutAt), about every bytes apart, in order.
type marker struct {
	marks []cellRead
	every int
	next  int // the least byte the next mark may be at
}

// at marks r, a sequence's start, where reading may begin again.
func (m *marker) at(line string, r cellRead) {
	if cutAt(line, r.i) {
		m.marks = append(m.marks, r)
		m.next = r.i + m.every
	}
}

// keep takes old's marks before a, where old and line are the same
// bytes, as line's, but those no longer a cut in line: only the last ones
// may be, whose run of sequences reaches the change (a run that holds a
// later mark ends where that one's does, and one that ends before it ends
// before the change).
func (m *marker) keep(line string, marks []cellRead, a int) {
	n := lastMark(marks, a-1) + 1
	for n > 0 && !cutAt(line, marks[n-1].i) {
		n--
	}
	m.marks = append(m.marks, marks[:n]...)
	if n > 0 {
		m.next = marks[n-1].i + m.every
	}
}

// moved takes old's marks from b on, where old and line end alike, as
// line's, by bytes further.
func (m *marker) moved(marks []cellRead, b, by int) {
	for _, r := range marks {
		if r.i >= b {
			r.i += by
			m.marks = append(m.marks, r)
		}
	}
}

// lastMark is the index of the last of marks before or at a, -1 when none.
func lastMark(marks []cellRead, a int) int {
	k := len(marks) - 1
	for k >= 0 && marks[k].i > a {
		k--
	}
	return k
}

// blanks appends n blank columns to cells.
func blanks(cells []cell, n int) []cell {
	for range n {
		cells = append(cells, blank)
	}
	return cells
}

// tailCut is where in line, at from or after it, the columns of an end
// shared with another row can be left out: at a sequence whose run of
// sequences cutAt allows. -1 when there is none.
func tailCut(line string, from int) int {
	for from < len(line) {
		k := strings.IndexByte(line[from:], ansi.ESC)
		if k < 0 {
			return -1
		}
		b := from + k
		j := seqRun(line, b)
		if cutAfter(line, j) {
			return b
		}
		from = j
	}
	return -1
}

// cutAt reports whether line may be cut at b, where a sequence starts
// (which starts a column's style, and ends the grapheme before it): its
// run of sequences is followed by what joins nothing before it
// (cutAfter), never a mark that would join the column before the cut.
func cutAt(line string, b int) bool { return cutAfter(line, seqRun(line, b)) }

// seqRun is where the run of sequences starting at b ends.
func seqRun(line string, b int) int {
	j := b
	for j < len(line) && line[j] == ansi.ESC {
		j += escapeLen(line[j:])
	}
	return j
}

// cutAfter reports whether what follows a run of sequences ending at j
// joins nothing before it: the end, a printable ASCII byte, or a rune
// that is a grapheme of its own (narrow: a die's dot, a box's border).
func cutAfter(line string, j int) bool {
	if j >= len(line) {
		return true
	}
	if b := line[j]; b < utf8.RuneSelf {
		return b >= 0x20 && b < 0x7f
	}
	return narrowNext(line[j:])
}

// commonPrefix is the length of the bytes a and b start with alike.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && a[i:i+8] == b[i:i+8] {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length of the bytes a and b end with alike.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && a[len(a)-i-8:len(a)-i] == b[len(b)-i-8:len(b)-i] {
		i += 8
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
