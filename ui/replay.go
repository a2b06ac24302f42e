package ui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"tapis/game/lottery"
	safe "tapis/text"
	"tapis/wallet"
)

// ReplayScreen shows layouts read from a file, uncovered, without a wallet
// (tapis replay FILE).
const ReplayScreen Screen = 100

// replayState is the list of layouts of `tapis replay` and the one shown.
type replayState struct {
	entries []lottery.Entry
	at      int
	invalid int  // invalid layouts of the file, listed on standard error once the terminal is back
	leftOut bool // the file held more layouts than are shown
}

// NewReplay returns a model that shows the given layouts (valid entries of
// a layout file), one at a time, fully revealed. The header counts the
// invalid layouts (the program lists them on standard error once the
// terminal is given back) and says when the file held more layouts than
// are shown.
func NewReplay(entries []lottery.Entry, lang Lang, invalid int, leftOut bool) *Model {
	m, _ := New(Options{Lang: lang, Start: ReplayScreen})
	m.replay = replayState{entries: entries, invalid: invalid, leftOut: leftOut}
	return m
}

func (m *Model) replayKey(msg tea.KeyPressMsg) tea.Cmd {
	n := len(m.replay.entries)
	switch msg.String() {
	case "right", "down", "n", "space", "enter", "pgdown":
		m.replay.at = min(n-1, m.replay.at+1)
	case "left", "up", "p", "pgup":
		m.replay.at = max(0, m.replay.at-1)
	case "home":
		m.replay.at = 0
	case "end":
		m.replay.at = n - 1
	}
	return nil
}

// replayScreenLayers shows the current layout like a unit of the history.
func (m *Model) replayScreenLayers(body area) []*lipgloss.Layer {
	e := m.replay.entries[m.replay.at]
	caption := m.t.f("replay.line", e.Line)
	if e.Unit != "" {
		caption = safe.Printable(e.Unit) + " · " + caption
	}
	p := played{op: wallet.Operation{Unit: caption, Stake: e.Layout.Stake(), Prize: e.Layout.Score().Prize()}, layout: e.Layout}
	return m.replayLayers(body, &p)
}

// replayHeader is the header's right side in replay mode: where we are in
// the file.
func (m *Model) replayHeader() string {
	said := ""
	if n := m.replay.invalid; n > 0 {
		said = m.st.bad.Render(m.t.count("replay.said", n, n)) + m.st.header.Render("   ")
	}
	if m.replay.leftOut {
		said += m.st.bad.Render(m.t.f("replay.leftout", len(m.replay.entries))) + m.st.header.Render("   ")
	}
	return said + m.st.label.Render(m.t.get("replay.title")+" ") +
		m.st.value.Render(strconv.Itoa(m.replay.at+1)+"/"+strconv.Itoa(len(m.replay.entries))) + m.st.header.Render(" ")
}
