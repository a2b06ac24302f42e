package board

import (
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The smallest screen the board draws on; 80×24 shows every part.
const (
	MinWidth  = 40
	MinHeight = 12
)

// Layout constants, in cells.
const (
	wideW   = 150 // from this width: everything twice as large
	wideH   = 40  // and from this height
	sideBy  = 72  // from this width, the way to join on the left of the figures
	columns = 3   // between the way to join and the figures
)

// render draws the whole screen: the header, the body, the key help.
func (m *Model) render(w, h int) string {
	if w < MinWidth || h < MinHeight {
		msg := m.t.f("small", MinWidth, MinHeight, w, h)
		return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center,
			lipgloss.NewStyle().Width(max(10, w-4)).Align(lipgloss.Center).Render(msg))
	}
	lines := make([]string, 0, h)
	lines = append(lines, m.header(w))
	body := h - 2
	scale := 1
	if w >= wideW && h >= wideH {
		scale = 2
	}
	var join []string
	joinW := 0
	if w >= sideBy {
		join = m.joinPanel(body, scale)
		joinW = blockWidth(join)
	}
	rightW := w - joinW
	if joinW > 0 {
		rightW -= columns
	}
	var right []string
	switch {
	case !m.ok:
		note := m.t.get("reading")
		if m.err != nil {
			note = m.st.note.Render(m.t.get("paused"))
		}
		right = strings.Split(lipgloss.Place(rightW, body, lipgloss.Center, lipgloss.Center,
			lipgloss.NewStyle().Width(max(rightW-4, 10)).Align(lipgloss.Center).Render(note)), "\n")
	default:
		right = m.figures(rightW, body, scale)
	}
	if joinW > 0 {
		lines = append(lines, strings.Split(joinColumns([]string{
			strings.Join(fitLines(join, joinW, body), "\n"),
			strings.Join(fitLines(right, rightW, body), "\n")}, columns), "\n")...)
	} else {
		lines = append(lines, fitLines(right, w, body)...)
	}
	lines = append(lines, m.footer(w))
	return strings.Join(fitLines(lines, w, h), "\n")
}

// header is the top line: the title, the players connected and the sales
// per minute, the time of the reading.
func (m *Model) header(w int) string {
	left := m.st.brand.Render(" " + m.t.get("title") + " ")
	mid, right := "", ""
	if m.ok {
		b := m.board
		mid = m.st.header.Render(m.t.count("players", b.Players, m.t.number(int64(b.Players)))) +
			m.st.headerDim.Render(" · ") +
			m.st.header.Render(m.t.count("rate", b.PerMinute, m.t.number(int64(b.PerMinute))))
		right = m.st.header.Render(" " + m.clock(b.At) + " ")
	}
	gap := w - lipgloss.Width(left) - lipgloss.Width(mid) - lipgloss.Width(right)
	if gap < 2 {
		mid, gap = "", w-lipgloss.Width(left)-lipgloss.Width(right)
	}
	l := max(gap/2, 0)
	return left + m.st.header.Render(strings.Repeat(" ", l)) + mid + m.st.header.Render(strings.Repeat(" ", max(gap-l, 0))) + right
}

// footer is the bottom line: how to join when the screen is too narrow
// for its panel, the keys, and "Paused" while the store does not answer.
func (m *Model) footer(w int) string {
	help := m.t.get("help")
	if w < 90 {
		help = m.t.get("help.short")
	}
	if s := m.standLine(w); s != "" {
		return s
	}
	line := m.st.dim.Render(" " + help)
	if w < sideBy && !m.join.IsZero() {
		line = m.st.join.Render(" "+m.join.Command()+" ") + line
	}
	if m.ok && m.err != nil {
		// The room reads it: what is known, never the store's words
		// (its address among them); the log keeps them.
		paused := m.t.get("paused")
		if lipgloss.Width(line)+2+lipgloss.Width(paused) > w {
			paused = m.t.get("paused.short")
		}
		line += "  " + m.st.note.Render(paused)
	}
	return line
}

// clock writes a time of day as the screen shows it.
func (m *Model) clock(t time.Time) string { return t.In(m.loc).Format("15:04:05") }

// blockWidth is the width of the widest of lines.
func blockWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

// joinColumns sets blocks of lines side by side, gap cells apart.
func joinColumns(blocks []string, gap int) string {
	if len(blocks) == 0 {
		return ""
	}
	parts := []string{blocks[0]}
	for _, b := range blocks[1:] {
		parts = append(parts, strings.Repeat(" ", gap), b)
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, parts...)
}

// fitLines returns exactly h lines, each exactly w cells: cut, or padded
// with blanks.
func fitLines(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = fitLine(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return out
}

// fitLine cuts or pads a line to exactly w cells.
func fitLine(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	} else if n > w {
		return ansi.Truncate(s, w, "")
	}
	return s
}
