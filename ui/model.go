// Package ui is the terminal game: one Bubble Tea model owning the screens
// (menu, Yam's, Vegas, history, rules, help), drawn as named lipgloss layers
// that serve both the picture and the mouse. It reads and changes the game
// only through the game/lottery shop and the wallet.
package ui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/session"
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
	// BalanceSet is true when the balance was given: a journal taken up
	// keeps its own, and the screen says so.
	BalanceSet bool
	Seed       game.Seed
	Start      Screen           // MenuScreen, YamsScreen or VegasScreen
	Now        func() time.Time // the clock; time.Now when nil
	SeedSet    bool             // Seed was given: a journal of another seed is refused
	Stake      decimal.Decimal  // the Yam's stake chosen at start (1 € when zero)
	Journal    string           // the journal's path, or "" to keep the session in memory
	QA         bool             // the QA status line and forcing panel (f)
	Demo       bool             // the trade-show demo: an attract loop when idle
	Idle       time.Duration    // the demo's idle time before it plays again
	// Playlist replaces the demo's built-in playlist.
	Playlist []lottery.PlaylistItem
	// Hooks are called around a suspension (ctrl+z, SIGTSTP).
	Hooks Hooks
}

// Hooks let the program's signal handling step aside while Bubble Tea
// suspends the process: it stops it with SIGTSTP itself, which a handler
// still catching SIGTSTP would swallow. Both are called from commands,
// never from Update; either may be nil.
type Hooks struct {
	BeforeSuspend func() // just before the terminal is released and the process stops
	AfterResume   func() // once the process runs again and the terminal is taken back
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
	backs   []Screen // the screens History, Rules and Help were opened from: esc returns there
	notice  string   // a line shown in place of the keys' help until the next key
	quitAsk bool     // q was pressed once while a unit is being revealed
	plain   bool     // no colours: what is chosen shows in reverse video
	dark    bool     // the terminal's background is dark (assumed until it answers)
	hooks   Hooks
	balance decimal.Decimal // the starting balance of each wallet (the kiosk's visitors)
	stake   int             // the Yam's stake chosen at start, an index into its stakes
	least   decimal.Decimal // the smallest stake of all the games
	session *session.Session
	rng     *rand.Rand // animation noise only: outcomes come from the shop
	played  []played
	waiting []session.Played // units of an earlier run never shown, not on a screen yet
	carried wallet.Totals    // what the wallets this run retired played (the kiosk's)
	seenWon decimal.Decimal  // the prizes of the units revealed during this run
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
		t: t, keys: newKeys(t), st: newStyles(false, true), dark: true, help: help.New(), now: now,
		rng:    rand.New(rand.NewPCG(uint64(o.Seed), 0x7461706973)),
		screen: o.Start, qa: o.QA, hooks: o.Hooks, balance: o.Balance, least: leastStake(),
	}
	m.help.Styles = m.st.keys
	m.memo = map[string]string{}
	m.forced = map[string]int{}
	m.start = now()
	m.demo = newDemoState(o, m.start)
	sess, err := session.Open(session.Options{Seed: o.Seed, SeedSet: o.SeedSet, Balance: o.Balance, QA: o.QA,
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
	if i := lottery.Yams().StakeIndex(o.Stake); i >= 0 {
		m.yams.stake = i
	}
	m.stake = m.yams.stake
	m.takeUp(sess.Restored())
	var notices []string // what opening the journal has to say
	if sess.Torn > 0 {
		notices = append(notices, m.t.f("journal.torn", sess.Torn))
	}
	if st := sess.Restored(); st != nil && o.BalanceSet && !st.Start.Equal(o.Balance) {
		notices = append(notices, m.t.get("journal.balance"))
	}
	m.notice = strings.Join(notices, " · ")
	return m, nil
}

// setLook builds the styles for a terminal without colours (plain) or
// with, on a dark background or a light one.
func (m *Model) setLook(plain, dark bool) {
	if plain == m.plain && dark == m.dark {
		return
	}
	m.plain, m.dark = plain, dark
	m.st = newStyles(plain, dark)
	m.help.Styles = m.st.keys
	m.inks = newInks(&m.st)
	m.yams.arts = newYamsState(&m.st).arts
	clear(m.memo)
}

// clockMsg refreshes the time played, once a second.
type clockMsg struct{}

func clockTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return clockMsg{} })
}

// Init asks the terminal for its background colour and starts the clock,
// and the attract loop in demo mode.
func (m *Model) Init() tea.Cmd {
	if m.demo.enabled {
		return tea.Batch(tea.RequestBackgroundColor, clockTick(), m.startDemo())
	}
	return tea.Batch(tea.RequestBackgroundColor, clockTick())
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
	case tea.ColorProfileMsg:
		m.setLook(msg.Profile <= colorprofile.ASCII, m.dark)
	case tea.BackgroundColorMsg:
		m.setLook(m.plain, msg.IsDark())
	case clockMsg:
		m.clock = m.now()
		return tea.Batch(clockTick(), m.demoIdle())
	case tickMsg:
		if m.tooSmall() {
			// Nothing moves unseen: the animation waits for the window.
			return tea.Tick(waitEvery, func(time.Time) tea.Msg { return msg })
		}
		return m.onTick(msg)
	case layoutsMsg:
		m.onLayouts(msg)
	case SuspendMsg:
		return m.suspend()
	case tea.ResumeMsg:
		return m.resumed()
	case tea.KeyPressMsg:
		if m.tooSmall() {
			return m.smallKey(msg)
		}
		if !key.Matches(msg, m.keys.global.Interrupt) && m.handOver() { // the operator's ctrl+c is no visitor
			return nil
		}
		return m.onKey(msg)
	case tea.MouseClickMsg:
		if m.tooSmall() || m.handOver() {
			return nil
		}
		return m.onMouse(msg.Mouse(), false)
	case tea.MouseWheelMsg:
		m.handOver()
	case tea.MouseMotionMsg:
		if msg.Button == tea.MouseLeft && !m.tooSmall() && !m.handOver() {
			return m.onMouse(msg.Mouse(), true)
		}
	case tea.MouseReleaseMsg:
		m.vegasRelease()
	}
	return nil
}

// waitEvery is how often a paused animation looks whether the window is
// large enough again.
const waitEvery = 250 * time.Millisecond

// onMouse finds the named layer under the pointer, on the same layers the
// view draws, and acts on it. drag is true for motion with the button held.
func (m *Model) onMouse(p tea.Mouse, drag bool) tea.Cmd {
	m.notice, m.quitAsk = "", false
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
		if !m.demo.enabled {
			msg += m.t.get("small.quit")
		}
		if m.notice != "" {
			msg += "\n\n" + m.notice
		}
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
		status := m.st.qa.Render(" " + m.qaStatus(m.width-2) + " ")
		layers = append(layers, layer("", area{0, m.height - 2, m.width, 1}, status))
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
	return append(layers, lipgloss.NewLayer(m.footer()).X(1).Y(m.height-1))
}

// footer is the bottom line: the screen's keys, or a notice until the next
// key.
func (m *Model) footer() string {
	if m.notice != "" {
		return m.st.note.Render(ansi.Truncate(m.notice, m.width-2, "…"))
	}
	key := fmt.Sprint("help:", m.screen, m.width, m.demo.enabled, m.plain, m.yams.revealing(), m.vegas.revealing(),
		m.canPay(m.yamsStake()), m.canPay(vegas.Price()), m.yams.stake)
	return m.memoize(key, func() string {
		return m.st.help.Render(m.help.ShortHelpView(m.keyMap().ShortHelp()))
	})
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

// header shows the balance, the session's net result and the time played:
// both leave out the prizes of units not shown yet, so they always agree
// with each other and with what the player has seen.
func (m *Model) header() *lipgloss.Layer {
	if m.screen == ReplayScreen || (m.screen == HelpScreen && m.from() == ReplayScreen) {
		return m.headerWith(m.replayHeader())
	}
	balance := m.shownBalance()
	net := balance.Sub(m.session.Origin())
	netStyle := m.st.value
	switch {
	case net.IsPositive():
		netStyle = m.st.good
	case net.IsNegative():
		netStyle = m.st.bad
	}
	sep := m.st.header.Render("   ")
	right := m.st.label.Render(m.t.get("balance")+" ") + m.st.value.Render(m.t.money(balance)) + sep +
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

func elapsed(d time.Duration) string {
	s := int(d.Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

// Revealing reports whether a unit is bought and not fully shown yet.
func (m *Model) Revealing() bool { return m.yams.revealing() || m.vegas.revealing() }

// Balance returns the wallet's balance, prizes of units still being revealed
// included.
func (m *Model) Balance() decimal.Decimal { return m.session.Wallet().Balance() }
