package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/shopspring/decimal"

	safe "tapis/text"
)

// historyState is the history screen: the row chosen, and the unit shown
// again, if any (art. 4.1: a player who could not see the end checks it).
type historyState struct {
	cursor int
	replay *played
}

func (m *Model) openHistory() {
	m.open(HistoryScreen)
	m.history = historyState{}
}

// newest returns the last units of the session (historyLimit at most),
// newest first.
func (m *Model) newest() []played {
	h := m.session.Recent()
	out := make([]played, len(h))
	for i, p := range h {
		out[len(out)-1-i] = played{op: p.Op, layout: p.Sold.Layout}
	}
	return out
}

func (m *Model) historyKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.list
	n := len(m.session.Recent())
	switch {
	case m.history.replay != nil:
		return nil
	case key.Matches(msg, k.Up):
		m.history.cursor = max(0, m.history.cursor-1)
	case key.Matches(msg, k.Down):
		m.history.cursor = min(max(0, n-1), m.history.cursor+1)
	case key.Matches(msg, k.Show):
		if n > 0 {
			m.showAgain(m.history.cursor)
		}
	}
	return nil
}

// showAgain shows the unit of a history row again, once it is revealed: a
// unit still to reveal keeps its result for its own screen.
func (m *Model) showAgain(row int) {
	p := m.newest()[row]
	if m.unshown(p.op.Unit) {
		m.notice = m.t.get("hist.unshown")
		return
	}
	m.history.replay = &p
}

// unshown reports whether a unit is bought and not revealed yet: on a
// game's screen, or waiting from an earlier run.
func (m *Model) unshown(name string) bool {
	for u := range m.notShown() {
		if u.name == name {
			return true
		}
	}
	return false
}

// hiddenSince returns, for the history, what the prizes not shown yet add
// to the balances the wallet recorded: by purchase number, the sum of the
// hidden prizes of that purchase and all before it.
func (m *Model) hiddenSince(units []played) func(seq int) decimal.Decimal {
	type hidden struct {
		seq   int
		prize decimal.Decimal
	}
	var hs []hidden
	for _, p := range units {
		if m.unshown(p.op.Unit) {
			hs = append(hs, hidden{p.op.Seq, p.op.Prize})
		}
	}
	return func(seq int) decimal.Decimal {
		sum := decimal.Zero
		for _, h := range hs {
			if h.seq <= seq {
				sum = sum.Add(h.prize)
			}
		}
		return sum
	}
}

func (m *Model) historyClick(id string) tea.Cmd {
	n, ok := strings.CutPrefix(id, "hist:")
	if !ok || m.history.replay != nil {
		return nil
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 0 || i >= len(m.newest()) {
		return nil
	}
	m.history.cursor = i
	m.showAgain(i)
	return nil
}

func (m *Model) historyLayers(body area) []*lipgloss.Layer {
	if p := m.history.replay; p != nil {
		return m.replayLayers(body, p)
	}
	units := m.newest()
	if len(units) == 0 {
		return []*lipgloss.Layer{layer("", body, fit(body.w, body.h, m.st.dim.Render(m.t.get("hist.empty"))))}
	}
	head := m.historyRow("#", m.t.get("hist.unit"), m.t.get("hist.stake"), m.t.get("hist.prize"),
		m.t.get("hist.before"), m.t.get("hist.after"))
	w := lipgloss.Width(head)
	x := body.x + max(0, (body.w-w)/2)
	layers := []*lipgloss.Layer{
		layer("", area{x, body.y + 1, w, 1}, m.st.boxTitle.Render(head)),
	}
	rows := body.h - 4
	first := max(0, min(m.history.cursor-rows/2, len(units)-rows))
	// Balances as the player has seen them: without the prizes not shown yet.
	hidden := m.hiddenSince(units)
	for i := first; i < len(units) && i < first+rows; i++ {
		op := units[i].op
		prize := m.t.money(op.Prize)
		if m.unshown(op.Unit) { // its result is for its own screen to show
			prize, op.Prize = m.t.get("hist.hidden"), decimal.Zero
		}
		line := m.historyRow(strconv.Itoa(op.Seq), safe.Printable(op.Unit), m.t.money(op.Stake), prize,
			m.t.money(op.Before.Sub(hidden(op.Seq-1))), m.t.money(op.After.Sub(hidden(op.Seq))))
		style := m.st.row
		if i == m.history.cursor {
			style = m.st.rowLit
		} else if op.Prize.IsPositive() {
			style = m.st.win
		}
		layers = append(layers, layer("hist:"+strconv.Itoa(i), area{x, body.y + 2 + i - first, w, 1}, style.Render(line)))
	}
	layers = append(layers, layer("", area{x, body.y + body.h - 1, w, 1}, m.st.dim.Render(m.t.get("hist.hint"))))
	return layers
}

func (m *Model) historyRow(cols ...string) string {
	widths := []int{5, 22, 11, 13, 13, 13}
	var sb strings.Builder
	for i, c := range cols {
		if i < 2 {
			sb.WriteString(padRight(c, widths[i]))
		} else {
			sb.WriteString(padLeft(c, widths[i]))
		}
	}
	return sb.String()
}

// replayLayers shows a unit of the history again exactly as dealt, fully
// revealed and marked as a replay.
func (m *Model) replayLayers(body area, p *played) []*lipgloss.Layer {
	caption := safe.Printable(p.op.Unit) + " · " + m.t.money(p.op.Stake) + " → " + m.t.money(p.op.Prize)
	if p.layout.Yams != nil {
		title := m.st.dim.Render(caption)
		layers := []*lipgloss.Layer{layer("", area{body.x + body.w - lipgloss.Width(title) - 1, body.y + 1, 0, 1}, title)}
		b := yamsBoard{stake: p.layout.Yams.Stake, unit: p.layout.Yams, replay: true,
			phase: [3]cupPhase{cupShown, cupShown, cupShown}}
		return append(layers, m.boardLayers(&b, m.boardArea(body))...)
	}
	t := ticketView{ticket: p.layout.Vegas, replay: true, caption: safe.Printable(p.op.Unit)}
	t.uncoverAll()
	return m.ticketLayers(body, &t)
}
