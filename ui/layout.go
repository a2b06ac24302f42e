package ui

import (
	"slices"
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

// layer places content at the area's corner under a name that mouse hits
// report.
func layer(t target, a area, content string) *lipgloss.Layer {
	return place(a, content).ID(t.String())
}

// place places content at the area's corner: the mouse never hits it.
func place(a area, content string) *lipgloss.Layer {
	return lipgloss.NewLayer(content).X(a.x).Y(a.y)
}

// fit renders content into exactly w×h cells, centered.
func fit(w, h int, content string) string {
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, content)
}

// paint draws flat, non-overlapping layers into w×h cells: each line of a
// layer is pasted at its place, and the gaps are blank. It is what the
// compositor would draw, without parsing every cell back out of the
// layers' escape codes; the compositor still answers mouse hits on the same
// layers. A layer that overlaps the one before it on a line is cut.
func paint(w, h int, layers []*lipgloss.Layer) string {
	type seg struct {
		x int
		s string
	}
	rows := make([][]seg, h)
	for _, l := range layers {
		for i, line := range strings.Split(l.GetContent(), "\n") {
			if y := l.GetY() + i; y >= 0 && y < h {
				rows[y] = append(rows[y], seg{l.GetX(), line})
			}
		}
	}
	var b strings.Builder
	for y, segs := range rows {
		if y > 0 {
			b.WriteByte('\n')
		}
		slices.SortStableFunc(segs, func(a, b seg) int { return a.x - b.x })
		at := 0
		for _, sg := range segs {
			s := sg.s
			if sg.x < at {
				s = ansi.TruncateLeft(s, at-sg.x, "")
			} else {
				b.WriteString(spaces(sg.x - at))
				at = sg.x
			}
			if sw := ansi.StringWidth(s); at+sw > w {
				s = ansi.Truncate(s, w-at, "")
			}
			b.WriteString(s)
			at += ansi.StringWidth(s)
		}
		b.WriteString(spaces(w - at))
	}
	return b.String()
}

func spaces(n int) string { return strings.Repeat(" ", max(0, n)) }

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
