// Package ui is the terminal game: one Bubble Tea model owning the screens
// (menu, Yam's, Vegas, history, rules, help), drawn as named lipgloss layers
// that serve both the picture and the mouse. It reads and changes the game
// only through the game/lottery shop and the wallet.
package ui

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/session"
	"tapis/wallet"
)

// Screen names one screen of the game.
type Screen int

// The screens.
const (
	MenuScreen Screen = iota
	YamsScreen
	VegasScreen
	HistoryScreen
	RulesScreen
	HelpScreen
)

// Minimum terminal size.
const (
	MinWidth  = 80
	MinHeight = 24
)

// historyLimit bounds what the session keeps of its units.
const historyLimit = 200

// Options configures a session.
type Options struct {
	Lang    Lang
	Balance decimal.Decimal
	Seed    game.Seed
	Start   Screen           // MenuScreen, YamsScreen or VegasScreen
	Now     func() time.Time // the clock; time.Now when nil
	SeedSet bool             // Seed was given: a journal of another seed is refused
	Stake   decimal.Decimal  // the Yam's stake chosen at start (1 € when zero)
	Journal string           // the journal's path, or "" to keep the session in memory
	QA      bool             // the QA status line and forcing panel (f)
	Demo    bool             // the trade-show demo: an attract loop when idle
	Idle    time.Duration    // the demo's idle time before it plays again
	// Playlist replaces the demo's built-in playlist.
	Playlist []lottery.PlaylistItem
}

// played is a unit of the session and its presentation, for the history.
type played struct {
	op     wallet.Operation
	layout lottery.Layout
}

// Model is the root of the game: the only tea.Model, owning every screen.
type Model struct {
	t       text
	keys    keys
	st      styles
	inks    inks
	art     ticketArt
	memo    map[string]string // drawings that depend only on their key
	help    help.Model
	now     func() time.Time
	start   time.Time
	clock   time.Time
	width   int
	height  int
	screen  Screen
	back    Screen // where help and history return
	session *session.Session
	rng     *rand.Rand // animation noise only: outcomes come from the shop
	played  []played
	menu    menuState
	yams    yamsState
	vegas   vegasState
	history historyState
	rules   rulesState
	qa      bool           // QA mode: status line and forcing panel
	force   *pendingForce  // what the next purchase plays, in QA mode
	panel   *qaPanel       // the forcing panel, when open
	forced  map[string]int // forced units played, by label (QA, DEMO)
	replay  replayState    // the layouts of tapis replay
	demo    demoState      // the trade-show demo
	party   partyState     // the flashing of a big win's banner
}

// New returns a session's model.
func New(o Options) (*Model, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	t := newText(o.Lang)
	m := &Model{
		t: t, keys: newKeys(t), st: newStyles(), help: help.New(), now: now,
		rng:    rand.New(rand.NewPCG(uint64(o.Seed), 0x7461706973)),
		screen: o.Start, back: MenuScreen, qa: o.QA,
	}
	m.memo = map[string]string{}
	m.forced = map[string]int{}
	m.start = now()
	m.demo = newDemoState(o, m.start)
	sess, err := session.Open(session.Options{Seed: o.Seed, SeedSet: o.SeedSet, Balance: o.Balance,
		Journal: o.Journal, Limit: historyLimit, Now: now})
	if err != nil {
		return nil, err
	}
	m.session = sess
	m.clock = m.start
	m.yams = newYamsState(&m.st)
	m.inks = newInks(&m.st)
	m.art = newTicketArt()
	m.vegas = newVegasState()
	for i, st := range lottery.Yams().Stakes {
		if st.Equal(o.Stake) {
			m.yams.stake = i
		}
	}
	m.takeUp(sess.Restored())
	return m, nil
}

// clockMsg refreshes the time played, once a second.
type clockMsg struct{}

func clockTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return clockMsg{} })
}

// Init starts the clock, and the attract loop in demo mode.
func (m *Model) Init() tea.Cmd {
	if m.demo.enabled {
		return tea.Batch(clockTick(), m.startDemo())
	}
	return clockTick()
}

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if party := m.noteShown(); party != nil {
		cmd = tea.Batch(cmd, party)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
		return nil
	case clockMsg:
		m.clock = m.now()
		return tea.Batch(clockTick(), m.demoIdle())
	case tickMsg:
		return m.onTick(msg)
	case layoutsMsg:
		m.onLayouts(msg)
	case tea.KeyPressMsg:
		m.handOver()
		return m.onKey(msg)
	case tea.MouseClickMsg:
		m.handOver()
		return m.onMouse(msg.Mouse(), false)
	case tea.MouseWheelMsg:
		m.handOver()
	case tea.MouseMotionMsg:
		if msg.Button == tea.MouseLeft {
			m.handOver()
			return m.onMouse(msg.Mouse(), true)
		}
	case tea.MouseReleaseMsg:
		m.vegasRelease()
	}
	return nil
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	g := m.keys.global
	if m.panel != nil {
		if msg.String() == "ctrl+c" {
			return tea.Quit
		}
		return m.qaKey(msg)
	}
	if m.qa && key.Matches(msg, m.keys.global.Force) && (m.screen == YamsScreen || m.screen == VegasScreen) && !m.Revealing() {
		m.panel = &qaPanel{}
		return nil
	}
	switch {
	case key.Matches(msg, g.Quit):
		return tea.Quit
	case key.Matches(msg, g.Help):
		if m.screen == HelpScreen {
			m.screen = m.back
		} else {
			m.back, m.screen = m.screen, HelpScreen
		}
		return nil
	case m.screen == ReplayScreen && !key.Matches(msg, g.Help):
		return m.replayKey(msg)
	case key.Matches(msg, g.Menu):
		if m.screen == HelpScreen || (m.screen == HistoryScreen && m.history.replay != nil) {
			m.leaveOverlay()
			return nil
		}
		m.screen = MenuScreen
		return nil
	case key.Matches(msg, g.History) && m.screen != HelpScreen:
		m.openHistory()
		return nil
	}
	switch m.screen {
	case ReplayScreen:
		return m.replayKey(msg)
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

// leaveOverlay closes help or a history replay.
func (m *Model) leaveOverlay() {
	if m.screen == HistoryScreen && m.history.replay != nil {
		m.history.replay = nil
		return
	}
	m.screen = m.back
}

// onMouse finds the named layer under the pointer, on the same layers the
// view draws, and acts on it. drag is true for motion with the button held.
func (m *Model) onMouse(p tea.Mouse, drag bool) tea.Cmd {
	if m.tooSmall() {
		return nil
	}
	hit := lipgloss.NewCompositor(m.layers()...).Hit(p.X, p.Y)
	if hit.Empty() {
		return nil
	}
	id := hit.ID()
	if !drag {
		if cmd, ok := m.menuClick(id); ok {
			return cmd
		}
	}
	switch m.screen {
	case YamsScreen:
		if !drag {
			return m.yamsClick(id)
		}
	case VegasScreen:
		b := hit.Bounds()
		return m.vegasPointer(id, p.X-b.Min.X, p.Y-b.Min.Y)
	case HistoryScreen:
		if !drag {
			return m.historyClick(id)
		}
	}
	return nil
}

// Summary is the line printed once the terminal is restored; it counts the
// forced units, if any were played.
func (m *Model) Summary() string {
	tot := m.session.Wallet().Totals()
	s := m.t.f("summary", tot.Played, m.t.money(tot.Staked), m.t.money(tot.Won), m.t.money(m.session.Wallet().Balance()))
	for _, label := range []string{forcedLabel, demoLabel} {
		if n := m.forced[label]; n > 0 {
			s += " · " + label + " " + strconv.Itoa(n)
		}
	}
	return s
}

func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView("")
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "tapis"
	if m.width == 0 {
		return v
	}
	if m.tooSmall() {
		msg := m.t.f("small", MinWidth, MinHeight, m.width, m.height)
		v.SetContent(lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center,
			lipgloss.NewStyle().Width(max(10, m.width-4)).Align(lipgloss.Center).Render(msg)))
		return v
	}
	v.SetContent(paint(m.width, m.height, m.layers()))
	return v
}

// layers lays the current screen out as named layers: the header, the
// screen's body, and the key help at the bottom. The view paints them and
// the mouse finds what it points at among them.
func (m *Model) layers() []*lipgloss.Layer {
	layers := []*lipgloss.Layer{m.header()}
	body := area{0, 1, m.width, m.height - 2}
	if m.qa {
		body.h--
		status := m.st.qa.Render(" " + m.qaStatus() + " ")
		layers = append(layers, layer("", area{0, m.height - 2, m.width, 1}, ansi.Truncate(status, m.width, "…")))
	}
	switch {
	case m.panel != nil:
		layers = append(layers, m.panelLayers(body)...)
	case m.screen == MenuScreen:
		layers = append(layers, m.menuLayers(body)...)
	case m.screen == YamsScreen:
		layers = append(layers, m.yamsLayers(body)...)
	case m.screen == VegasScreen:
		layers = append(layers, m.vegasLayers(body)...)
	case m.screen == HistoryScreen:
		layers = append(layers, m.historyLayers(body)...)
	case m.screen == RulesScreen:
		layers = append(layers, m.rulesLayers(body)...)
	case m.screen == HelpScreen:
		layers = append(layers, m.helpLayers(body)...)
	case m.screen == ReplayScreen:
		layers = append(layers, m.replayScreenLayers(body)...)
	}
	footer := m.memoize(fmt.Sprint("help:", m.screen, m.width), func() string {
		return m.st.help.Render(m.help.ShortHelpView(m.keyMap().ShortHelp()))
	})
	return append(layers, lipgloss.NewLayer(footer).X(1).Y(m.height-1))
}

// memoize returns the drawing for key, drawing it once. Only drawings that
// depend on nothing but their key go through it; it is bounded.
func (m *Model) memoize(key string, draw func() string) string {
	if s, ok := m.memo[key]; ok {
		return s
	}
	if len(m.memo) > 256 {
		clear(m.memo)
	}
	s := draw()
	m.memo[key] = s
	return s
}

// header shows the balance, the session's net result and the time played.
func (m *Model) header() *lipgloss.Layer {
	tot := m.session.Wallet().Totals()
	hidden := m.pending()
	net := tot.Net.Sub(hidden)
	netStyle := m.st.value
	switch {
	case net.IsPositive():
		netStyle = m.st.good
	case net.IsNegative():
		netStyle = m.st.bad
	}
	sep := m.st.header.Render("   ")
	if m.screen == ReplayScreen || (m.screen == HelpScreen && m.back == ReplayScreen) {
		return m.headerWith(m.replayHeader())
	}
	right := m.st.label.Render(m.t.get("balance")+" ") + m.st.value.Render(m.t.money(m.session.Wallet().Balance().Sub(hidden))) + sep +
		m.st.label.Render(m.t.get("net")+" ") + netStyle.Render(m.t.signed(net)) + sep +
		m.st.label.Render(m.t.get("time")+" ") + m.st.value.Render(elapsed(m.clock.Sub(m.start))) + m.st.header.Render(" ")
	return m.headerWith(right)
}

// headerWith draws the header bar with the given right side.
// The money on the right always shows; the title gives way when both do not
// fit.
func (m *Model) headerWith(right string) *lipgloss.Layer {
	left := m.st.brand.Render(" ♦ tapis ") + m.st.label.Render(m.screenTitle())
	if lipgloss.Width(left)+lipgloss.Width(right) >= m.width {
		short := ""
		if m.demo.on {
			short = "· " + demoLabel
		}
		left = m.st.brand.Render(" ♦ tapis ") + m.st.label.Render(short)
	}
	gap := max(1, m.width-lipgloss.Width(left)-lipgloss.Width(right))
	return lipgloss.NewLayer(left + m.st.header.Render(spaces(gap)) + right)
}

func (m *Model) screenTitle() string {
	if m.demo.on {
		return "· " + m.t.get("demo.on")
	}
	switch m.screen {
	case YamsScreen:
		return "· " + m.t.get("yams")
	case VegasScreen:
		return "· " + m.t.get("vegas")
	case HistoryScreen:
		return "· " + m.t.get("history")
	case RulesScreen:
		return "· " + m.t.get("rules")
	case HelpScreen:
		return "· " + m.t.get("help")
	case ReplayScreen:
		return "· " + m.t.get("replay.title")
	}
	return ""
}

// keyMap returns the bindings of the current screen.
func (m *Model) keyMap() keyMap { return m.keyMapFor(m.screen) }

// keyMapFor returns a screen's bindings: the bottom line shows the screen's
// own keys with help and quit; the help screen shows them all.
func (m *Model) keyMapFor(s Screen) keyMap {
	g := m.keys.global
	var short, own []key.Binding
	switch s {
	case MenuScreen:
		k := m.keys.menu
		short, own = []key.Binding{k.Up, k.Choose}, []key.Binding{k.Up, k.Choose}
	case YamsScreen:
		y := m.keys.yams
		short, own = []key.Binding{y.Stake, y.Play, y.Auto, y.Roll}, []key.Binding{y.Stake, y.Play, y.Auto, y.Roll}
		if m.qa {
			short, own = append(short, g.Force), append(own, g.Force)
		}
	case VegasScreen:
		v := m.keys.vegas
		short, own = []key.Binding{v.Buy, v.Choose, v.Scratch, v.All}, []key.Binding{v.Buy, v.Choose, v.Scratch, v.All}
		if m.qa {
			short, own = append(short, g.Force), append(own, g.Force)
		}
	case HistoryScreen:
		k := m.keys.list
		short, own = []key.Binding{k.Up, k.Show}, []key.Binding{k.Up, k.Show}
	case RulesScreen:
		k := m.keys.list
		short, own = []key.Binding{k.Up, k.Switch}, []key.Binding{k.Up, k.Switch}
	case ReplayScreen:
		k := m.keys.list
		return keyMap{short: []key.Binding{k.Page, g.Help, g.Quit}, full: [][]key.Binding{{k.Page}, {g.Help, g.Quit}}}
	}
	return keyMap{
		short: append(short, g.Help, g.Quit),
		full:  [][]key.Binding{own, {g.Menu, g.History, g.Help, g.Quit}},
	}
}

func elapsed(d time.Duration) string {
	s := int(d.Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

// Revealing reports whether a unit is bought and not fully shown yet.
func (m *Model) Revealing() bool { return m.yams.revealing() || m.vegas.revealing() }

// Totals returns what the session has played so far.
func (m *Model) Totals() wallet.Totals { return m.session.Wallet().Totals() }

// Balance returns the wallet's balance, prizes of units still being revealed
// included.
func (m *Model) Balance() decimal.Decimal { return m.session.Wallet().Balance() }
