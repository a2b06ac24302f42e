package cli

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Sizes of a table's columns.
const (
	heldRows  = 1000 // rows held to size the columns before any is written
	maxColumn = 160  // a cell wider than this overflows its row, and widens no column
	padding   = 2    // spaces after each cell but the last
)

// table writes rows of cells in aligned columns, as text/tabwriter does, but
// without holding every row: it holds the first heldRows rows to size the
// columns, then writes each row as it comes. A later cell wider than its
// column widens it from that row on; a cell wider than maxColumn overflows
// its own row only. Widths count runes, as text/tabwriter's do.
type table struct {
	w      io.Writer
	widths []int
	held   [][]string
	flowed bool // the held rows are written: rows are written as they come
	err    error
}

func newTable(w io.Writer) *table { return &table{w: w} }

// Row adds a row of cells.
func (t *table) Row(cells ...string) {
	if t.flowed {
		t.widen(cells)
		t.write(cells)
		return
	}
	t.held = append(t.held, cells)
	if len(t.held) == heldRows {
		t.Flush()
	}
}

// Flush writes the rows held, and returns the first error writing any row.
func (t *table) Flush() error {
	for _, r := range t.held {
		t.widen(r)
	}
	for _, r := range t.held {
		t.write(r)
	}
	t.held, t.flowed = nil, true
	return t.err
}

// widen makes the columns wide enough for the cells of a row, the last aside.
func (t *table) widen(cells []string) {
	for i, c := range cells[:max(len(cells)-1, 0)] {
		if i == len(t.widths) {
			t.widths = append(t.widths, 0)
		}
		if n := utf8.RuneCountInString(c); n > t.widths[i] && n <= maxColumn {
			t.widths[i] = n
		}
	}
}

func (t *table) write(cells []string) {
	if t.err != nil {
		return
	}
	var b strings.Builder
	for i, c := range cells {
		b.WriteString(c)
		if i == len(cells)-1 {
			break
		}
		b.WriteString(strings.Repeat(" ", max(t.widths[i]-utf8.RuneCountInString(c), 0)+padding))
	}
	b.WriteByte('\n')
	_, t.err = io.WriteString(t.w, b.String())
}
