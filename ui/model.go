// Package ui is the terminal game: one Bubble Tea model owning the screens
// (menu, Yam's, Vegas, history, rules, help), drawn as named layers
// that serve both the picture and the mouse. It reads and changes the game
// only through the game/lottery shop and the wallet.
package ui

import (
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/session"
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
	StatsScreen
)

// Minimum terminal size.
const (
	MinWidth  = 80
	MinHeight = 24
)

// Options configures a session.
type Options struct {
	Lang Lang
	// Balance is the starting balance of the kiosk's wallets; with
	// BalanceSet, the balance asked for: a journal or an account taken up
	// keeps its own, and the screen says so.
	Balance    decimal.Decimal
	BalanceSet bool
	Start      Screen // MenuScreen, YamsScreen or VegasScreen
	// Clock tells the time and ticks the animations; the system's when nil.
	Clock Clock
	Stake decimal.Decimal // the Yam's stake chosen at start (1 € when zero)
	QA    bool            // the QA status line and forcing panel (f)
	Demo  bool            // the trade-show demo: an attract loop when idle
	Idle  time.Duration   // the demo's idle time before it plays again
	// Playlist replaces the demo's built-in playlist.
	Playlist []lottery.PlaylistItem
	// Hooks are called around a suspension (ctrl+z, SIGTSTP).
	Hooks Hooks
	// Profile is the terminal's colour profile, when known before the
	// program starts (a remote player's); Bubble Tea's report replaces it.
	Profile colorprofile.Profile
	// RealityCheck shows, every so long of play, the time played and the
	// session's net result, to continue or quit; 0 never does.
	RealityCheck time.Duration
	// Speed is the reveals' pace at start (--speed); a key changes it.
	Speed Speed
	// Bell rings the terminal's bell when a big win is celebrated (--bell).
	Bell bool
	// Guest is how a guest of tapis serve (a player without a key) keeps
	// an account: the command that connects with a key (ssh -i KEY …).
	// The menu tells them their account ends with the connection, and
	// this; "" for a player with an account.
	Guest string
	// Remote is a player over SSH: the reveals are as long, in fewer and
	// longer steps (remotePaces), as a server's frames cost it.
	Remote bool
	// DrawsSeconds is a caller that moves the header's time played on
	// between the model's frames (HeaderTime, a server's screen): the
	// model then wakes once a minute rather than each second, where
	// nothing else on its screen changes by the second.
	DrawsSeconds bool
}

// Hooks let the program's signal handling step aside while Bubble Tea
// suspends the process: it stops it with SIGTSTP itself, which a handler
// still catching SIGTSTP would swallow. Both are called from commands,
// never from Update; either may be nil.
type Hooks struct {
	BeforeSuspend func() // just before the terminal is released and the process stops
	AfterResume   func() // once the process runs again and the terminal is taken back
}

// Model is the root of the game, the only tea.Model: it routes messages to
// the screen on show and holds what all screens share. One Model serves one
// player.
type Model struct {
	*common
	screens   map[Screen]screen
	games     []gameScreen // Yam's, then Vegas
	panel     *qaPanel     // the forcing panel, when open
	hooks     Hooks
	start     time.Time       // when the player started
	shownAt   time.Time       // the time the header shows, refreshed each second (DrawsSeconds: each message)
	balance   decimal.Decimal // the starting balance of each wallet (the kiosk's visitors)
	quitAsk   bool            // q was pressed once while a unit is being revealed
	headMoney headMoney       // the header's balance and net, as last written
	demo      demoState       // the trade-show demo
	closing   closingState    // the server closing (ClosingMsg)
	stand     StandMsg        // what the stand's host set: sales paused, an announcement
	reality   *realityCheck
	// laid is the last frame's layers, whose array the next one reuses:
	// what reads them (paint, hit) is done with them by then.
	laid []layer
	// onlyClock: since the frame laid out whole at drawnWhole, only the
	// header's second moved (view.go, headerOnly).
	onlyClock  bool
	drawnWhole time.Time
	// Options.DrawsSeconds, the next clockMsg's generation and when it
	// comes (zero: none set), and the last frame's HeaderTime.
	drawsSeconds bool
	tickGen      int
	tickDue      time.Time
	headerTime   HeaderTime
	// closed is closed by Close: the system clock's waits end with it.
	closed    chan struct{}
	closeOnce sync.Once
}

// HistoryLimit is how many recent units a session opened for the game
// keeps (session.Options.Limit): the history lists them.
const HistoryLimit = 200

// New returns the model of a player's session, opened by the caller (in
// memory, on a journal or on a store: the caller chooses). The model
// takes the session: closing the model closes it.
func New(sess *session.Session, o Options) *Model {
	closed := make(chan struct{})
	clock := o.Clock
	if clock == nil {
		clock = systemClock{done: closed}
	}
	c := newCommon(o, sess.Seed(), clock, o.Profile != colorprofile.Unknown && o.Profile <= colorprofile.ASCII)
	m := &Model{common: c, hooks: o.Hooks, balance: o.Balance, closed: closed, drawsSeconds: o.DrawsSeconds}
	m.start = clock.Now()
	m.shownAt = m.start
	m.demo = newDemoState(o, m.start)
	m.reality = newRealityCheck(c, o.RealityCheck, m.beneath)
	c.till = &till{session: sess, forced: map[string]int{}, least: leastStake(), now: clock.Now,
		start: sess.Origin()}
	y, v := newYamsScreen(c, o.Stake), newVegasScreen(c)
	m.games = []gameScreen{y, v}
	c.till.games = m.games
	m.screens = map[Screen]screen{
		MenuScreen: &menuScreen{common: c}, YamsScreen: y, VegasScreen: v, HistoryScreen: &historyScreen{common: c},
		RulesScreen: &rulesScreen{common: c}, HelpScreen: &helpScreen{common: c, keysOf: m.keyMapFor},
		StatsScreen: newStatsScreen(c),
	}
	c.nav = nav{screen: o.Start, opened: m.opened}
	if first := c.till.takeUp(sess.Restored()); first != "" {
		// Every unit bought and never shown waits on its game's screen,
		// the oldest's screen first.
		for _, g := range m.games {
			if sold := c.till.offer(g.game().Name); sold != nil {
				g.take(sold, note{kind: noteRecovered})
			}
		}
		c.nav.goTo(m.screenOf(m.gameNamed(first)))
	}
	c.till.startFigures() // once the units of an earlier run wait on their screens
	if o.QA {
		// The QA line shows the blocks from the first frame: read once
		// here, then by command (refreshBlocks).
		c.till.blocks.take(readBlocks(sess))
	}
	if sess.Torn > 0 {
		c.notices = append(c.notices, note{kind: noteTorn, n: sess.Torn})
	}
	if st := sess.Restored(); st != nil && o.BalanceSet && !st.Start.Equal(o.Balance) {
		kind := noteBalance
		if sess.Wallet() == nil { // an account of a shared store
			kind = noteAccountBalance
		}
		c.notices = append(c.notices, note{kind: kind})
	}
	return m
}

// opened is told when a screen is opened or gone to.
func (m *Model) opened(s Screen) {
	if o, ok := m.screens[s].(opener); ok {
		o.opened()
	}
}

// screenOf returns the screen of a game.
func (m *Model) screenOf(g gameScreen) Screen {
	if g == m.games[1] {
		return VegasScreen
	}
	return YamsScreen
}

// gameNamed returns the screen of a game by its name: Yam's when none is.
func (m *Model) gameNamed(name string) gameScreen {
	for _, g := range m.games {
		if g.game().Name == name {
			return g
		}
	}
	return m.games[0]
}

// onGame returns the game on show, or the one Help was opened from; nil
// elsewhere.
func (m *Model) onGame() gameScreen {
	s := m.nav.screen
	if s == HelpScreen {
		s = m.nav.from()
	}
	switch s {
	case YamsScreen:
		return m.games[0]
	case VegasScreen:
		return m.games[1]
	}
	return nil
}

// current returns the screen on show: the reality check's modal while
// it shows.
func (m *Model) current() screen {
	if m.reality.open {
		return m.reality
	}
	return m.beneath()
}

// beneath returns the screen on show under the reality check's modal.
func (m *Model) beneath() screen {
	if m.panel != nil {
		return m.panel
	}
	return m.screens[m.nav.screen]
}

// clockTick sets the next second's clockMsg, where the model moves its
// header's time on itself (armClock where the caller does: Update sets
// it).
func (m *Model) clockTick() tea.Cmd {
	if m.drawsSeconds {
		return nil
	}
	return m.clock.After(time.Second, clockMsg{})
}

// Lazy reports whether msg changes nothing a player waits for: the
// header's time played moving a second, or the store's answer that a
// unit's showing is recorded. A server may draw what it changes with the
// next frame a moment later (an animation's step), rather than in a
// frame of its own.
func Lazy(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case clockMsg:
		return !msg.countdown
	case shownMsg:
		return msg.err == nil
	}
	return false
}

// Init starts the clock, asks the terminal its background, and starts the
// attract loop in demo mode.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.clockTick(), m.armClock(), tea.RequestBackgroundColor, m.reality.start()}
	if m.demo.enabled {
		cmds = append(cmds, m.startDemo())
	}
	return tea.Batch(cmds...)
}

// Update handles a message: what concerns every screen here, the rest on
// the screen it is for. Once a game's unit is seen fully revealed, the
// journal records it and a big win is celebrated.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	screen, panel := m.nav.screen, m.panel
	defer m.sawOnly(msg, m.markScreen())
	if m.drawsSeconds {
		m.shownAt = m.clock.Now() // the screen moves it on between frames
	}
	cmd := m.update(msg)
	if m.nav.screen != screen || (panel == nil && m.panel != nil) {
		cmd = tea.Batch(cmd, m.refreshBlocks()) // a screen showing the blocks came up
	}
	if m.panel != nil && m.panel.closed {
		m.panel = nil
	}
	for _, g := range m.games {
		if sold := g.shownNow(); sold != nil && !m.till.shownAlready(sold) {
			cmd = tea.Batch(cmd, m.till.shown(sold), m.celebrateWin(sold.Unit.Prize, sold.Layout.Stake()))
		}
	}
	if m.quitAsk && !m.revealingUnseen() {
		m.quitAnswered()
	}
	if quit := m.quitIfClosed(); quit != nil {
		cmd = tea.Batch(cmd, quit)
	}
	if m.reality.waiting() {
		m.reality.show(m.start, m.Revealing(), m.till.seen.Staked)
	}
	if m.drawsSeconds {
		cmd = tea.Batch(cmd, m.armClock()) // the seconds came back to the model, or went away
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
		if plain := msg.Profile <= colorprofile.ASCII; plain != m.plain {
			m.restyle(plain, m.dark)
		}
	case tea.BackgroundColorMsg:
		if dark := msg.IsDark(); dark != m.dark {
			m.restyle(m.plain, dark)
		}
	case clockMsg:
		if m.drawsSeconds {
			if msg.gen != m.tickGen {
				return nil // a wait replaced by a sooner one
			}
			m.tickDue = time.Time{} // Update sets the next (armClock)
		} else {
			m.shownAt = m.clock.Now()
		}
		var blocks tea.Cmd
		if m.qa { // other sellers of a shared store move the blocks too
			blocks = m.refreshBlocks()
		}
		return tea.Batch(m.clockTick(), m.demoIdle(), blocks)
	case blocksMsg:
		m.till.blocks.take(msg)
	case cupTickMsg, scratchTickMsg, partyTickMsg:
		if m.tooSmall() {
			// Nothing moves unseen: the animation waits for the window.
			return m.clock.After(waitEvery, msg)
		}
		if t, ok := msg.(partyTickMsg); ok {
			return m.partyTick(t)
		}
		return tea.Batch(m.games[0].update(msg), m.games[1].update(msg))
	case realityTickMsg:
		return m.reality.tick(msg)
	case demoTickMsg:
		if m.tooSmall() {
			return m.clock.After(waitEvery, msg)
		}
		return m.demoStep(msg)
	case boughtMsg:
		if m.till.bought(msg) {
			return tea.Batch(m.gameNamed(msg.game).update(msg), m.refreshBlocks())
		}
		if b := m.till.restart; b != nil { // the fresh wallet waited for the purchase
			m.till.restart = nil
			m.freshWallet(*b)
		}
	case shownMsg:
		m.till.recording--
		if cause, ok := journalCause(msg.err); ok {
			m.tell(note{kind: noteShownLost, text: cause})
		} else if msg.err != nil {
			m.tell(note{kind: noteShownLater}) // the store's words are its own
		}
	case layoutsMsg:
		if m.panel != nil {
			return m.panel.update(msg)
		}
	case ClosingMsg:
		return m.closingStarts(msg)
	case StandMsg:
		m.standSet(msg)
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
		if m.handOver() || m.tooSmall() {
			return nil
		}
		return m.current().update(msg)
	case tea.MouseMotionMsg:
		if msg.Button == tea.MouseLeft && !m.tooSmall() && !m.handOver() {
			return m.onMouse(msg.Mouse(), true)
		}
	case tea.MouseReleaseMsg:
		return m.current().update(releaseMsg{})
	case tea.PasteMsg:
		if !m.tooSmall() && !m.handOver() {
			return m.current().update(msg)
		}
	}
	return nil
}

// refreshBlocks returns the command reading the blocks again, when what
// is on show draws them: the rules' commitments, the QA line or panel.
func (m *Model) refreshBlocks() tea.Cmd {
	if m.qa || m.nav.screen == RulesScreen || m.panel != nil {
		return loadBlocks(m.till.session)
	}
	return nil
}

// waitEvery is how often a paused animation looks whether the window is
// large enough again.
const waitEvery = 250 * time.Millisecond

// onMouse finds the named layer under the pointer, on the same layers the
// view draws, and hands the screen what it hit. drag is true for motion
// with the button held.
func (m *Model) onMouse(p tea.Mouse, drag bool) tea.Cmd {
	m.notices, m.quitAsk = nil, false
	l, ok := hit(m.layers(), p.X, p.Y)
	if !ok {
		return nil
	}
	if cmd, ok := m.onFootButton(l.id); ok {
		if !drag {
			return cmd
		}
		return nil
	}
	return m.current().update(clickMsg{target: l.id, x: p.X - l.x, y: p.Y - l.y, drag: drag})
}

func (m *Model) tooSmall() bool { return m.width < MinWidth || m.height < MinHeight }

// layers lays the current screen out as named layers: the header, the
// screen's body, and the key help at the bottom. The view paints them and
// the mouse finds what it points at among them. The balance the player
// has seen is read once for all of them.
func (m *Model) layers() []layer {
	defer m.framing()()
	layers := append(m.laid[:0], m.headerLayer())
	body := area{0, 1, m.width, m.height - 2}
	if m.qa && m.nav.screen != ReplayScreen {
		body.h--
		on := m.onGame()
		if on == nil {
			on = m.games[0]
		}
		text := m.qaStatus(on, m.width-2)
		status := drawn(m.common, qaStatusKey{text}, func() string { return m.st.qa.Render(" " + text + " ") })
		layers = append(layers, place(area{0, m.height - 2, m.width, 1}, status))
	}
	layers = append(layers, m.current().layers(body)...)
	m.laid = m.footLayers(layers)
	return m.laid
}

// framing reads the balance the player has seen once for a frame's
// layers, and returns what forgets it once they are laid.
func (m *Model) framing() func() {
	m.till.frame = frameState{on: true, spendable: m.till.session.Spendable()}
	return func() { m.till.frame = frameState{} }
}

// headerLayer is the header, on the frame's first row.
func (m *Model) headerLayer() layer { return place(area{0, 0, m.width, 1}, m.header()) }

// noticeLine is the notices, joined, as the screen's language says them.
func (m *Model) noticeLine() string {
	var parts []string
	for _, n := range m.notices {
		parts = append(parts, m.say(n))
	}
	return strings.Join(parts, " · ")
}
