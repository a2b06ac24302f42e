package ui

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// operatorWindow is how soon a second ctrl+c must follow the first to quit
// the kiosk.
const operatorWindow = 2 * time.Second

// SuspendMsg asks the game to suspend as ctrl+z does: the program sends it
// when the process gets SIGTSTP from outside, so that both take one path.
type SuspendMsg struct{}

// leaveKey handles the keys that quit or suspend, which work on every
// screen and behind the enlarge message; it reports whether msg was one.
// Any other key drops the notices and the question q asked.
func (m *Model) leaveKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	g := m.keys.global
	asked := m.quitAsk
	m.notices, m.quitAsk = nil, false
	switch {
	case key.Matches(msg, g.Interrupt):
		return m.interrupt(), true
	case key.Matches(msg, g.Suspend) && m.demo.enabled: // a visitor never stops the kiosk
		return nil, true
	case key.Matches(msg, g.Suspend):
		return m.suspend(), true
	case key.Matches(msg, g.Quit) && m.nav.screen == ReplayScreen:
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
	if m.reality.open {
		return m.reality.update(msg)
	}
	if m.panel != nil {
		return m.panel.update(msg)
	}
	s := m.nav.screen
	if on := m.onGame(); m.qa && key.Matches(msg, g.Force) && s != HelpScreen && on != nil && !m.Revealing() {
		m.panel = &qaPanel{common: m.common, g: on}
		return nil
	}
	switch {
	case key.Matches(msg, g.Help):
		if s == HelpScreen {
			m.nav.back()
		} else {
			m.nav.open(HelpScreen)
		}
		return nil
	case s == ReplayScreen:
		return m.current().update(msg)
	case key.Matches(msg, g.Menu):
		m.escape()
		return nil
	case key.Matches(msg, g.History) && s != HelpScreen && s != HistoryScreen:
		m.nav.open(HistoryScreen)
		return nil
	case key.Matches(msg, g.Stats) && s != HelpScreen && s != StatsScreen:
		m.nav.open(StatsScreen)
		return nil
	}
	return m.current().update(msg)
}

// smallKey handles a key while the window is too small to show the game:
// only quitting (and suspending) works, so that nothing is bought or
// revealed unseen.
func (m *Model) smallKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, _ := m.leaveKey(msg)
	return cmd
}

// quitAnswered drops the question q asked once the unit it was about is
// seen to its end: its notice no longer says what the next q does (it
// quits at once).
func (m *Model) quitAnswered() {
	m.quitAsk = false
	m.notices = slices.DeleteFunc(m.notices, func(n note) bool { return n.kind == noteQuitAsk })
}

// quit quits on q, asking once while a unit is being revealed (it stays in
// the history, paid). In the kiosk, q never quits.
func (m *Model) quit(asked bool) tea.Cmd {
	if m.demo.enabled {
		return nil
	}
	if m.revealingUnseen() && !asked {
		m.quitAsk = true
		m.tell(note{kind: noteQuitAsk})
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
	now := m.clock.Now()
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

// escape is esc: out of a unit shown again, back from History, Rules, Help
// and Stats to where they were opened, and from a game to the menu.
func (m *Model) escape() {
	e, ok := m.current().(escaper)
	switch s := m.nav.screen; {
	case ok && e.escape():
	case overlay(s):
		m.nav.back()
	default:
		m.nav.goTo(MenuScreen)
	}
}

// only returns a binding enabled only when on is true: the keys' help
// leaves out what does nothing at the moment.
func only(b key.Binding, on bool) key.Binding {
	b.SetEnabled(on)
	return b
}

// keyMapFor returns a screen's bindings, for the help screen.
func (m *Model) keyMapFor(s Screen) keyMap {
	if sc, ok := m.screens[s]; ok {
		return sc.keyMap()
	}
	return keyMap{}
}

// withGlobal completes a screen's bindings with those of every screen: the
// bottom line shows the screen's own keys (short: what they do now) with
// help and quit; the help screen shows them all. The kiosk does not tell
// its visitors how to quit.
func (c *common) withGlobal(s Screen, own, short []key.Binding) keyMap {
	g := c.keys.global
	if c.qa && (s == YamsScreen || s == VegasScreen) {
		own, short = append(own[:len(own):len(own)], g.Force), append(short[:len(short):len(short)], g.Force)
	}
	short = append(short[:len(short):len(short)], g.Help)
	var all []key.Binding
	if s == YamsScreen || s == VegasScreen {
		all = append(all, g.Menu)
	}
	all = append(all, g.History, g.Stats, g.Help)
	if !c.kiosk {
		short = append(short, g.Quit)
		all = append(all, g.Quit, g.Interrupt, g.Suspend)
	}
	return keyMap{short: short, full: [][]key.Binding{own, all}}
}
