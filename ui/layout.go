package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// area is a rectangle of the screen, in cells.
type area struct{ x, y, w, h int }

// centered returns a w×h area centered in a.
func (a area) centered(w, h int) area {
	return area{a.x + max(0, (a.w-w)/2), a.y + max(0, (a.h-h)/2), w, h}
}

// layer places content at the area's corner under a name that mouse hits
// report (an empty name is never hit).
func layer(id string, a area, content string) *lipgloss.Layer {
	l := lipgloss.NewLayer(content).X(a.x).Y(a.y)
	if id != "" {
		l = l.ID(id)
	}
	return l
}

// fit renders content into exactly w×h cells, centered.
func fit(w, h int, content string) string {
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, content)
}

func spaces(n int) string { return strings.Repeat(" ", max(0, n)) }

func blank(w, h int) string {
	row := spaces(w)
	rows := make([]string, h)
	for i := range rows {
		rows[i] = row
	}
	return strings.Join(rows, "\n")
}

// tickMsg advances an animation: id names it, gen drops the ticks of an
// animation that was restarted or ended (a stale tick changes nothing).
type tickMsg struct {
	id  string
	gen int
}

func (m *Model) onTick(t tickMsg) tea.Cmd {
	switch {
	case strings.HasPrefix(t.id, "cup:"):
		return m.yamsTick(t)
	case strings.HasPrefix(t.id, "vegas"):
		return m.vegasTick(t)
	}
	return nil
}
