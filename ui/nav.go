package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tapis/game/vegas"
)

// operatorWindow is how soon a second ctrl+c must follow the first to quit
// the kiosk.
const operatorWindow = 2 * time.Second

// SuspendMsg asks the game to suspend as ctrl+z does: the program sends it
// when the process gets SIGTSTP from outside, so that both take one path.
type SuspendMsg struct{}

// leaveKey handles the keys that quit or suspend, which work on every
// screen and behind the enlarge message; it reports whether msg was one.
// Any other key drops a notice and the question q asked.
func (m *Model) leaveKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	g := m.keys.global
	asked := m.quitAsk
	m.notice, m.quitAsk = "", false
	switch {
	case key.Matches(msg, g.Interrupt):
		return m.interrupt(), true
	case key.Matches(msg, g.Suspend) && m.demo.enabled: // a visitor never stops the kiosk
		return nil, true
	case key.Matches(msg, g.Suspend):
		return m.suspend(), true
	case key.Matches(msg, g.Quit) && m.screen == ReplayScreen:
		return tea.Quit, true
	case key.Matches(msg, g.Quit) && m.panel == nil:
		return m.quit(asked), true
	}
	return nil, false
}

// onKey handles a key: the keys of every screen first, then the screen's.
func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	g := m.keys.global
	if cmd, ok := m.leaveKey(msg); ok {
		return cmd
	}
	if m.panel != nil {
		return m.qaKey(msg)
	}
	if m.qa && key.Matches(msg, g.Force) && (m.screen == YamsScreen || m.screen == VegasScreen) && !m.Revealing() {
		m.panel = &qaPanel{}
		return nil
	}
	switch {
	case key.Matches(msg, g.Help):
		if m.screen == HelpScreen {
			m.back()
		} else {
			m.open(HelpScreen)
		}
		return nil
	case m.screen == ReplayScreen:
		return m.replayKey(msg)
	case key.Matches(msg, g.Menu):
		m.escape()
		return nil
	case key.Matches(msg, g.History) && m.screen != HelpScreen && m.screen != HistoryScreen:
		m.openHistory()
		return nil
	}
	switch m.screen {
	case MenuScreen:
		return m.menuKey(msg)
	case YamsScreen:
		return m.yamsKey(msg)
	case VegasScreen:
		return m.vegasKey(msg)
	case HistoryScreen:
		return m.historyKey(msg)
	case RulesScreen:
		return m.rulesKey(msg)
	}
	return nil
}

// smallKey handles a key while the window is too small to show the game:
// only quitting (and suspending) works, so that nothing is bought or
// revealed unseen.
func (m *Model) smallKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, _ := m.leaveKey(msg)
	return cmd
}

// quit quits on q, asking once while a unit is being revealed (it stays in
// the history, paid). In the kiosk, q never quits.
func (m *Model) quit(asked bool) tea.Cmd {
	if m.demo.enabled {
		return nil
	}
	if m.Revealing() && !asked {
		m.quitAsk = true
		m.notice = m.t.get("quit.ask")
		return nil
	}
	return tea.Quit
}

// interrupt quits on ctrl+c at once; in the kiosk, only a second ctrl+c
// within operatorWindow does.
func (m *Model) interrupt() tea.Cmd {
	if !m.demo.enabled {
		return tea.Quit
	}
	now := m.now()
	if last := m.demo.interrupted; !last.IsZero() && now.Sub(last) <= operatorWindow {
		return tea.Quit
	}
	m.demo.interrupted = now
	return nil
}

// suspend suspends the program (ctrl+z): the hook lets the program's own
// SIGTSTP handler step aside first, then Bubble Tea restores the terminal
// and stops the process.
func (m *Model) suspend() tea.Cmd {
	before := m.hooks.BeforeSuspend
	return func() tea.Msg {
		if before != nil {
			before()
		}
		return tea.SuspendMsg{}
	}
}

// resumed runs once the process runs again: Bubble Tea has taken the
// terminal back and redraws; the program's handler steps in again.
func (m *Model) resumed() tea.Cmd {
	after := m.hooks.AfterResume
	if after == nil {
		return nil
	}
	return func() tea.Msg {
		after()
		return nil
	}
}

// only returns a binding enabled only when on is true: the keys' help
// leaves out what does nothing at the moment.
func only(b key.Binding, on bool) key.Binding {
	b.SetEnabled(on)
	return b
}

// open shows History, Rules or Help over the current screen; esc returns.
func (m *Model) open(s Screen) {
	if m.screen != s {
		m.backs = append(m.backs, m.screen)
	}
	m.screen = s
}

// back returns to the screen the current one was opened from.
func (m *Model) back() {
	n := len(m.backs)
	if n == 0 {
		m.screen = MenuScreen
		return
	}
	m.screen, m.backs = m.backs[n-1], m.backs[:n-1]
}

// from returns the screen the current one was opened from.
func (m *Model) from() Screen {
	if n := len(m.backs); n > 0 {
		return m.backs[n-1]
	}
	return MenuScreen
}

// goTo shows a screen of its own (the menu, a game): nothing to return to.
func (m *Model) goTo(s Screen) {
	m.screen, m.backs = s, nil
}

// escape is esc: out of a replay, back from History, Rules and Help to
// where they were opened, and from a game to the menu.
func (m *Model) escape() {
	switch {
	case m.screen == HistoryScreen && m.history.replay != nil:
		m.history.replay = nil
	case m.screen == HelpScreen || m.screen == HistoryScreen || m.screen == RulesScreen:
		m.back()
	default:
		m.goTo(MenuScreen)
	}
}

// keyMap returns the bindings of the current screen.
func (m *Model) keyMap() keyMap { return m.keyMapFor(m.screen) }

// keyMapFor returns a screen's bindings: the bottom line shows the screen's
// own keys with help and quit; the help screen shows them all. The kiosk
// does not tell its visitors how to quit.
func (m *Model) keyMapFor(s Screen) keyMap {
	g := m.keys.global
	var own, short []key.Binding
	switch s {
	case MenuScreen:
		k := m.keys.menu
		number := k.Number
		if m.demo.enabled { // no Quit entry
			number.SetHelp("1-4", number.Help().Desc)
		}
		own = []key.Binding{k.Up, k.Choose, number}
	case YamsScreen:
		y := m.keys.yams
		own = []key.Binding{y.Stake, y.Play, y.Auto, y.Roll}
		// The bottom line shows what the keys do now.
		busy, pays := m.yams.revealing(), m.canPay(m.yamsStake())
		short = []key.Binding{only(y.Stake, !busy), only(y.Play, !busy && pays), only(y.Auto, busy || pays), only(y.Roll, busy)}
	case VegasScreen:
		v := m.keys.vegas
		own = []key.Binding{v.Buy, v.Choose, v.Scratch, v.All}
		busy, pays := m.vegas.revealing(), m.canPay(vegas.Price()) // the hint under the ticket says how to choose a surface
		short = []key.Binding{only(v.Buy, !busy && pays), only(v.Scratch, busy), only(v.All, busy || pays)}
	case HistoryScreen:
		k := m.keys.list
		own = []key.Binding{k.Up, k.Show, g.Back}
	case RulesScreen:
		k := m.keys.list
		own = []key.Binding{k.Up, k.Switch, g.Back}
	case HelpScreen:
		own = []key.Binding{g.Back}
	case ReplayScreen:
		k := m.keys.list
		return keyMap{short: []key.Binding{k.Page, g.Help, g.Quit}, full: [][]key.Binding{{k.Page}, {g.Help, g.Quit}}}
	}
	if short == nil {
		short = own
	}
	if m.qa && (s == YamsScreen || s == VegasScreen) {
		own, short = append(own, g.Force), append(short[:len(short):len(short)], g.Force)
	}
	short = append(short[:len(short):len(short)], g.Help)
	var all []key.Binding
	if s == YamsScreen || s == VegasScreen {
		all = append(all, g.Menu)
	}
	all = append(all, g.History, g.Help)
	if !m.demo.enabled {
		short = append(short, g.Quit)
		all = append(all, g.Quit, g.Interrupt, g.Suspend)
	}
	return keyMap{short: short, full: [][]key.Binding{own, all}}
}
