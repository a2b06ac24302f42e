package board

import (
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tapis/store"
)

// The smallest screen the board draws on; 80×24 shows every part.
const (
	MinWidth  = 40
	MinHeight = 12
)

// Layout constants, in cells.
const (
	panelMin = 38  // the narrowest panel of a game and stake
	winW     = 38  // a big win's line in the narrow layout
	wideW    = 150 // from this width: the panels left, sales and wins right
	wideH    = 30  // and from this height
	allBars  = 10  // every lot of the regulations' tables, the losing lot included
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
	switch {
	case !m.ok:
		note := m.t.get("reading")
		if m.err != nil {
			note = m.st.note.Render(m.t.get("paused"))
		}
		body := lipgloss.Place(w, h-2, lipgloss.Center, lipgloss.Center, lipgloss.NewStyle().Width(w-4).Align(lipgloss.Center).Render(note))
		lines = append(lines, strings.Split(body, "\n")...)
	case w >= wideW && h >= wideH:
		seal := m.seal(w)
		lines = append(lines, m.wide(w, h-2-len(seal))...)
		lines = append(lines, seal...)
	default:
		seal := m.seal(w)
		lines = append(lines, m.narrow(w, h-2-len(seal))...)
		lines = append(lines, seal...)
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

// footer is the bottom line: the keys, and "Paused" while the store does not answer.
func (m *Model) footer(w int) string {
	help := m.t.get("help")
	if w < 90 {
		help = m.t.get("help.short")
	}
	if s := m.standLine(w); s != "" {
		return s
	}
	line := m.st.dim.Render(" " + help)
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

// seal is the lines above the footer: the fingerprint of the key the
// emission is sealed with, and the store's last signed head (its number,
// the start of its hash, when it was signed), which anyone may note and
// compare with the log's heads or give to verify --heads. One line when
// both fit, else one each, cut to the width.
func (m *Model) seal(w int) []string {
	b := m.board
	key := m.st.dim.Render(" "+m.t.get("key")+" ") + m.st.value.Render(b.HouseKey.Fingerprint())
	head := m.st.dim.Render(m.t.get("head.none"))
	if h := b.Head; h != nil {
		head = m.st.dim.Render(m.t.get("head")+" ") + m.st.value.Render(m.t.number(h.N)) +
			m.st.dim.Render(" · ") + m.st.value.Render(h.Hash.String()[:16]) +
			m.st.dim.Render(" · "+m.clock(h.At))
	}
	if one := key + m.st.dim.Render(" · ") + head; ansi.StringWidth(one) <= w {
		return []string{one}
	}
	return []string{ansi.Truncate(key, w, "…"), ansi.Truncate(" "+head, w, "…")}
}

// clock writes a time of day as the screen shows it.
func (m *Model) clock(t time.Time) string { return t.In(m.loc).Format("15:04:05") }

// narrow lays the board out in one column: the panels of the games and
// stakes, two side by side when they fit, then the sales per minute and
// the latest big wins. Height goes to the panels' lots first, then to the
// wins, then to the sales.
func (m *Model) narrow(w, h int) []string {
	seqs := m.board.Sequences
	cols := 1
	if w >= 2*panelMin+2 {
		cols = 2
	}
	rows := (len(seqs) + cols - 1) / cols
	winCols := max(1, min(3, (w+2)/(winW+2)))
	spark, winsTitle, winRows := 1, 1, 1
	gaps := rows // between the rows of panels, and before the sales
	per := func() int { return (h - spark - winsTitle - winRows - gaps) / max(rows, 1) }
	if per()-2 < 3 {
		gaps = 0
	}
	if per()-2 < 3 {
		winsTitle, winRows = 0, 0
	}
	ph := per()
	bars := min(ph-2, allBars)
	extras := 0
	if bars == allBars {
		extras = min(ph-2-allBars, 2)
	}
	ph = 2 + extras + max(bars, 0)
	left := h - rows*ph - gaps - spark - winsTitle - winRows
	if winsTitle > 0 {
		more := min(left, (Keep+winCols-1)/winCols-winRows)
		winRows += more
		left -= more
	}
	spark += min(left, 3)

	var out []string
	colW := (w - (cols-1)*2) / cols
	for r := range rows {
		if r > 0 && gaps > 0 {
			out = append(out, "")
		}
		var row []string
		for c := range cols {
			if i := r*cols + c; i < len(seqs) {
				row = append(row, strings.Join(fitLines(m.panel(seqs[i], colW, bars, extras), colW, ph), "\n"))
			}
		}
		out = append(out, strings.Split(joinColumns(row, 2), "\n")...)
	}
	if gaps > 0 {
		out = append(out, "")
	}
	out = append(out, m.sales(w, spark)...)
	if winsTitle > 0 {
		title := m.t.f("wins", store.BigWinFactor)
		if ansi.StringWidth(title) > w {
			title = m.t.get("wins.short")
		}
		out = append(out, m.st.title.Render(title))
		out = append(out, m.wins(w, winRows, winCols)...)
	}
	return fitLines(out, w, h)
}

// wide lays the board out in two columns: on the left the panels, boxed,
// two side by side, and the sales per minute below them; on the right
// the big wins, as many as the feed keeps.
func (m *Model) wide(w, h int) []string {
	rightW := min(72, max(50, w/3))
	leftW := w - rightW - 3
	seqs := m.board.Sequences
	cols := 1
	if leftW >= 2*(panelMin+4)+1 {
		cols = 2
	}
	rows := (len(seqs) + cols - 1) / cols
	ph := min(h/max(rows, 1), 2+2+2+allBars) // the box's borders, two lines, the extras, the lots
	colW := (leftW - (cols-1)*1) / cols
	inner := ph - 2
	bars := min(inner-2, allBars)
	extras := 0
	if bars == allBars {
		extras = min(inner-2-allBars, 2)
	}
	var left []string
	for r := range rows {
		var row []string
		for c := range cols {
			if i := r*cols + c; i < len(seqs) {
				body := fitLines(m.panel(seqs[i], colW-4, bars, extras), colW-4, inner)
				row = append(row, m.st.box.Width(colW).Height(ph).Render(strings.Join(body, "\n")))
			}
		}
		left = append(left, strings.Split(joinColumns(row, 1), "\n")...)
	}
	var right []string
	if rest := h - len(left); rest >= 5 {
		left = append(left, "", " "+m.st.title.Render(m.t.get("sales")))
		for _, l := range m.sales(leftW-2, rest-2) {
			left = append(left, " "+l)
		}
	} else {
		right = append(right, m.st.title.Render(m.t.get("sales")))
		right = append(right, m.sales(rightW, min(8, max(2, h/6)))...)
		right = append(right, "")
	}
	right = append(right, m.st.title.Render(m.t.f("wins", store.BigWinFactor)))
	right = append(right, m.wins(rightW, h-len(right), 1)...)
	left, right = fitLines(left, leftW, h), fitLines(right, rightW, h)
	return strings.Split(joinColumns([]string{strings.Join(left, "\n"), strings.Join(right, "\n")}, 3), "\n")
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
