package server

import (
	"strings"

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
func rowCells(was, now []cell, old, line string, width int) (w, n []cell, from int) {
	p := commonPrefix(old, line)
	var wr, nr cellRead
	was, now = was[:0], now[:0]
	// The last sequence both start before p: the grapheme before it ends
	// there in both (a control breaks a grapheme), read once for both.
	if a := strings.LastIndexByte(old[:p], ansi.ESC); a > 0 {
		was, wr = cellsRead(was, old, width, wr, a)
		if wr.i == a {
			// The last column read may still change: a mark after the
			// sequence joins it.
			now, nr, from = append(now, was...), wr, max(0, wr.col-1)
		}
	}
	if b := tailCut(old, len(old)-commonSuffix(old[p:], line[p:])); b >= 0 {
		bn := b + len(line) - len(old)
		was, wr = cellsRead(was, old, width, wr, b)
		now, nr = cellsRead(now, line, width, nr, bn)
		if wr.i == b && nr.i == bn && wr.col == nr.col && wr.sgr == nr.sgr {
			return was, now, from // the same bytes read from the same column and style: the same columns
		}
	}
	was, _ = cellsRead(was, old, width, wr, len(old))
	now, _ = cellsRead(now, line, width, nr, len(line))
	return was, now, from
}

// tailCut is where in line, at from or after it, the columns of an end
// shared with another row can be left out: at a sequence (which starts a
// column's style, and ends the grapheme before it) whose sequences are
// followed by a printable ASCII byte or the end, never a mark that would
// join the column before the cut. -1 when there is none.
func tailCut(line string, from int) int {
	for from < len(line) {
		k := strings.IndexByte(line[from:], ansi.ESC)
		if k < 0 {
			return -1
		}
		b := from + k
		j := b
		for j < len(line) && line[j] == ansi.ESC {
			j += escapeLen(line[j:])
		}
		if j >= len(line) || line[j] >= 0x20 && line[j] < 0x7f {
			return b
		}
		from = j
	}
	return -1
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
