// Package chart draws small charts in a terminal with lipgloss: a line chart
// of a series in braille dots, horizontal bars against an expected value,
// and a gauge of a value against a target. It knows nothing of what it
// draws: values are float64, their labels come formatted from the caller,
// and the palette comes in as lipgloss styles (of which only colours and
// text attributes are used: padding, margins, borders and sizes are
// ignored, so that every chart is exactly as wide and as high as asked).
//
// Every chart reads without colour: the series, the bars, the expected
// markers and the reference rules are each drawn with their own characters.
package chart

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Glyphs shared by the charts.
const (
	glyphMarker   = "┃" // the expected share or the target, on a bar
	glyphOverflow = "»" // a gauge's value beyond its scale
	glyphRef      = "┈" // a line chart's reference rule
	glyphAxis     = "│"
	glyphTick     = "┤"
	ellipsis      = "…"
)

// eighths are the left-aligned partial blocks, from one eighth of a cell to
// a full cell.
var eighths = [...]string{"▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"}

// pen applies a style to runs of text. It renders the style once and keeps
// what comes before and after the text, so that a chart of thousands of
// cells costs a few renders, not one per cell.
type pen struct {
	pre, post string
	style     lipgloss.Style
	direct    bool // render each run: the style treats spaces apart
}

const sentinel = "\uE000"

func newPen(s lipgloss.Style) pen {
	s = ink(s)
	p := pen{style: s}
	if s.GetUnderline() || s.GetStrikethrough() {
		p.direct = true
		return p
	}
	out := s.Render(sentinel)
	i := strings.Index(out, sentinel)
	if i < 0 {
		p.direct = true
		return p
	}
	p.pre, p.post = out[:i], out[i+len(sentinel):]
	return p
}

// ink keeps the colours and attributes of a style and drops what would
// change the size of what it renders.
func ink(s lipgloss.Style) lipgloss.Style {
	return s.Inline(true).UnsetWidth().UnsetHeight().UnsetMaxWidth().UnsetMaxHeight().
		UnsetPadding().UnsetMargins().UnsetBorderStyle().UnsetBorderTop().UnsetBorderRight().
		UnsetBorderBottom().UnsetBorderLeft().UnsetAlign().UnsetTransform().UnsetString()
}

func (p *pen) write(b *strings.Builder, text string) {
	if text == "" {
		return
	}
	if p.direct {
		b.WriteString(p.style.Render(text))
		return
	}
	b.WriteString(p.pre)
	b.WriteString(text)
	b.WriteString(p.post)
}

// line builds one line of a chart from runs of text, each in a pen (nil for
// plain text); consecutive runs in the same pen are rendered together.
type line struct {
	out strings.Builder
	run strings.Builder
	cur *pen
}

func (l *line) put(p *pen, text string) {
	if p != l.cur {
		l.flush()
		l.cur = p
	}
	l.run.WriteString(text)
}

func (l *line) flush() {
	if l.cur == nil {
		l.out.WriteString(l.run.String())
	} else {
		l.cur.write(&l.out, l.run.String())
	}
	l.run.Reset()
}

// String ends the line, fitted to exactly width cells.
func (l *line) done(width int) string {
	l.flush()
	s := fit(l.out.String(), width)
	l.out.Reset()
	l.cur = nil
	return s
}

// fit cuts or pads a line to exactly width cells.
func fit(s string, width int) string {
	w := ansi.StringWidth(s)
	switch {
	case w > width:
		return ansi.Truncate(s, width, "")
	case w < width:
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// clip makes a caller's text one line of at most width cells, ending it
// with an ellipsis when it is cut.
func clip(s string, width int) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, ansi.Strip(s))
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, ellipsis)
}

// padLeft right-aligns s in width cells; padRight left-aligns it.
func padLeft(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return strings.Repeat(" ", width-w) + s
	}
	return s
}

func padRight(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// widthOf returns how many cells s takes.
func widthOf(s string) int { return ansi.StringWidth(s) }

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// join ends a chart: its lines joined by newlines.
func join(lines []string) string { return strings.Join(lines, "\n") }
