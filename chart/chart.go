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
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Glyphs shared by the charts, each one cell wide.
const (
	glyphMarker   = '┃' // the expected share or the target, on a bar
	glyphOverflow = '»' // a bar's value beyond its scale
	glyphRef      = '┈' // a line chart's reference rule
	glyphAxis     = '│'
	glyphTick     = '┤'
	glyphFull     = '█'
	ellipsis      = "…"
)

// eighths are the left-aligned partial blocks, from one eighth of a cell to
// a full cell.
var eighths = [...]rune{'▏', '▎', '▍', '▌', '▋', '▊', '▉', glyphFull}

// pen applies a style to runs of text. It renders the style once and keeps
// what comes before and after the text, so that a chart of thousands of
// cells costs a few renders, not one per cell.
type pen struct {
	pre, post string
	style     lipgloss.Style
	direct    bool // render each run: the style's output could not be split
}

const sentinel = "\uE000"

func newPen(s lipgloss.Style) pen {
	s = ink(s)
	p := pen{style: s}
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

func (p *pen) write(b []byte, text []byte) []byte {
	if len(text) == 0 {
		return b
	}
	if p.direct {
		return append(b, p.style.Render(string(text))...)
	}
	b = append(b, p.pre...)
	b = append(b, text...)
	return append(b, p.post...)
}

// line builds one line of a chart from runs of text, each in a pen (nil for
// plain text); consecutive runs in the same pen are rendered together. It
// counts the cells put, so that a line is fitted to its width without
// measuring it again.
type line struct {
	out, run []byte
	cur      *pen
	cells    int
}

// put adds text, which is one line of plain text.
func (l *line) put(p *pen, text string) {
	l.switchTo(p)
	l.run = append(l.run, text...)
	l.cells += widthOf(text)
}

// putCell adds a one-cell character.
func (l *line) putCell(p *pen, r rune) {
	l.switchTo(p)
	l.run = utf8.AppendRune(l.run, r)
	l.cells++
}

func (l *line) switchTo(p *pen) {
	if p != l.cur {
		l.flush()
		l.cur = p
	}
}

func (l *line) flush() {
	if l.cur == nil {
		l.out = append(l.out, l.run...)
	} else {
		l.out = l.cur.write(l.out, l.run)
	}
	l.run = l.run[:0]
}

// done ends the line, fitted to exactly width cells, and readies l for the
// next one.
func (l *line) done(width int) string {
	if l.cells < width {
		l.put(nil, strings.Repeat(" ", width-l.cells))
	}
	l.flush()
	s := string(l.out)
	if l.cells > width {
		s = ansi.Truncate(s, width, "")
	}
	l.out = l.out[:0]
	l.cur, l.cells = nil, 0
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
