package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// View draws the screen.
func (m *Model) View() tea.View {
	v, rows := m.view(true)
	if rows != nil {
		v.SetContent(m.paint.joined())
	}
	return v
}

// Lines draws the screen as View does, with its content as rows rather
// than joined into one string: a row that did not change since the last
// frame is the last frame's very string, which a server's screen tells
// from a new one by its address alone, and no frame's worth of bytes is
// copied for a clock's second. The rows are the model's own, good until
// its next frame: a caller keeping them copies the slice.
func (m *Model) Lines() (tea.View, []string) {
	v, rows := m.view(true)
	if rows == nil && v.Content != "" {
		rows, v.Content = strings.Split(v.Content, "\n"), ""
	}
	return v, rows
}

// view draws the screen, its content as the painter's rows, or for a
// frame the painter does not draw (no size yet, too small) as the view's
// content and no rows; with reuse, a frame after nothing but the
// header's second moved paints the header again over the last frame's
// layers (headerOnly), rather than laying the whole screen out again.
func (m *Model) view(reuse bool) (tea.View, []string) {
	v := tea.NewView("")
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "tapis"
	m.headerTime = HeaderTime{}
	if m.width == 0 {
		return v, nil
	}
	if m.tooSmall() {
		msg := m.t.f("small", MinWidth, MinHeight, m.width, m.height)
		if !m.demo.enabled {
			msg += m.t.get("small.quit")
		}
		if n := m.noticeLine(); n != "" {
			msg += "\n\n" + n
		}
		v.SetContent(lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center,
			lipgloss.NewStyle().Width(max(10, m.width-4)).Align(lipgloss.Center).Render(msg)))
		return v, nil
	}
	var rows []string
	if reuse && m.headerOnly() {
		forget := m.framing()
		m.laid[0] = m.headerLayer() // layers laid it first
		forget()
		rows = m.paint.repaint(m.width, m.height, m.laid, 0)
	} else {
		rows = m.paint.paint(m.width, m.height, m.layers())
		m.drawnWhole, m.onlyClock = m.clock.Now(), true
	}
	m.headerTime = m.timeOf(rows)
	return v, rows
}

// headerOnly reports whether the next frame may be the last one with its
// header painted again: since the last frame laid out whole, nothing came
// but the header's seconds (clockMsg, which changed nothing else: Update
// says), within the same minute of the clock. What the body shows of the
// time changes by the minute at the finest (a loss limit's "until 14:05",
// the history's day), and a whole frame each minute shows it. The
// header's second is most of what a session sitting on a screen draws; a
// whole frame would lay out every part of the screen again, each a memo
// lookup, where the header is one.
func (m *Model) headerOnly() bool {
	if !m.onlyClock || m.drawnWhole.IsZero() || len(m.laid) == 0 {
		return false
	}
	now := m.clock.Now()
	return now.Truncate(time.Minute).Equal(m.drawnWhole.Truncate(time.Minute))
}

// sawOnly keeps headerOnly's promise across an Update: a message but
// the header's second, or a second that changed more than the header (the
// demo woken, the reality check opened, the game quitting), and the next
// frame is laid out whole.
func (m *Model) sawOnly(msg tea.Msg, before screenMark) {
	if _, ok := msg.(clockMsg); !ok || m.markScreen() != before {
		m.onlyClock = false
	}
}

// screenMark is what a second's message may change beyond the header,
// read before and after it.
type screenMark struct {
	screen   Screen
	demo     bool
	reality  bool
	closing  bool
	panel    bool
	notices  int
	quitting bool
}

func (m *Model) markScreen() screenMark {
	return screenMark{screen: m.nav.screen, demo: m.demo.on, reality: m.reality != nil && m.reality.open,
		closing: m.closing.on, panel: m.panel != nil, notices: len(m.notices), quitting: m.quitAsk}
}
