package ui

import (
	"strings"
	"unicode/utf8"

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
		w := cellWidth(line)
		d.lines = append(d.lines, line)
		d.widths = append(d.widths, w)
		d.w = max(d.w, w)
	}
	return d
}

// cellWidth is ansi.StringWidth, quicker on what the game draws: SGR and
// other CSI sequences take no cell, and the runes of narrowRunes one each
// (no two of them join into one grapheme); a line holding anything else
// (another escape, a control, a wide or combining rune) is measured by
// ansi.StringWidth. TestCellWidth checks both agree.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2 // parameters and intermediates, up to the final byte
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x40 {
				j++
			}
			if j == len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j + 1
		case c < 0x80:
			return ansi.StringWidth(s)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !narrow(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		}
	}
	return n
}

// narrowRunes are ranges of runes that take one cell each and join no
// neighbour into a grapheme: Latin letters, punctuation, currency signs,
// arrows, box drawing, blocks and shapes, the stars, suits and sparkle the
// game draws, and braille (the charts). The soft hyphen and the two shapes
// drawn as emoji are left out.
var narrowRunes = [...][2]rune{
	{0xa0, 0xac}, {0xae, 0x24f}, {0x2010, 0x2027}, {0x2030, 0x205e}, {0x20a0, 0x20c0}, {0x2190, 0x21ff},
	{0x2500, 0x25fc}, {0x25ff, 0x25ff}, {0x2605, 0x2606}, {0x2660, 0x2667}, {0x2726, 0x2726}, {0x2800, 0x28ff},
}

func narrow(r rune) bool {
	for _, rg := range narrowRunes {
		if r < rg[0] {
			return false
		}
		if r <= rg[1] {
			return true
		}
	}
	return false
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

// fit renders content into exactly w×h cells, centered, as lipgloss.Place
// does (TestFitIsPlace holds it to it). Its lines are padded here: Place
// measures every space of the padding it writes, which made the line
// under Yam's mats, drawn again at each cup landing, a fifth of a roll.
func fit(w, h int, content string) string {
	if strings.ContainsAny(content, "\t\r") { // Place's own rules for those
		return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, content)
	}
	lines := strings.Split(content, "\n")
	widest := 0
	widths := make([]int, len(lines))
	for i, l := range lines {
		widths[i] = ansi.StringWidth(l)
		widest = max(widest, widths[i])
	}
	if widest < w {
		var b strings.Builder
		b.Grow(len(content) + len(lines)*(w-widest+1))
		for i, l := range lines {
			gap := w - widths[i] // the line's and the block's: centered in w as one
			left := gap / 2
			b.WriteString(spaces(left))
			b.WriteString(l)
			b.WriteString(spaces(gap - left))
			if i < len(lines)-1 {
				b.WriteByte('\n')
			}
		}
		content = b.String()
	}
	if len(lines) >= h {
		return content
	}
	return lipgloss.PlaceVertical(h, lipgloss.Center, content)
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
