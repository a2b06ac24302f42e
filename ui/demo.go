package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	safe "tapis/text"
)

// demoLabel marks the units the attract loop plays: the label they are
// recorded with, the same in every language (the screen writes it in the
// player's: unitLabel).
const demoLabel = "DEMO"

// unitLabel is a forced unit's label as the screen marks it: the demo's in
// the player's language, QA's and a layout's own as they are.
func (c *common) unitLabel(label string) string {
	if label == demoLabel {
		return c.t.get("demo.mark")
	}
	return safe.Printable(label)
}

// DefaultIdle is how long the demo waits without a visitor before it plays
// by itself again.
const DefaultIdle = 60 * time.Second

// The pace of the attract loop: slow enough for people to follow.
const (
	demoPause   = 1200 * time.Millisecond // before buying, and between cups
	demoScratch = 160 * time.Millisecond  // between two strokes of the coin
	demoShow    = 3500 * time.Millisecond // on the result
	demoBigShow = 6 * time.Second         // on a big win
)

// demoState is the trade-show demo: the playlist it plays, where it is, and
// when a visitor last touched anything.
type demoState struct {
	enabled  bool
	on       bool // the attract loop is playing
	playlist []lottery.PlaylistItem
	item     int // the playlist item being played
	step     int // where in that item
	gen      int // drops the ticks of a loop that was handed over
	idle     time.Duration
	last     time.Time       // the last input from a visitor
	wallet   decimal.Decimal // the loop's wallet, new for each of its units
	visitor  bool            // a visitor's wallet is in play, not the loop's
	// lastVisitor is the balance the last visitor left, once one came.
	lastVisitor *decimal.Decimal
	interrupted time.Time // the operator's first ctrl+c
	// left is the unit a visitor left unrevealed, which the loop is
	// revealing: its result stays on screen before the loop takes the
	// wallet back.
	left *lottery.Sold
}

func newDemoState(o Options, now time.Time) demoState {
	d := demoState{enabled: o.Demo, playlist: o.Playlist, idle: o.Idle, last: now, wallet: o.Balance}
	if d.enabled && len(d.playlist) == 0 { // only the demo plays it
		d.playlist = lottery.DefaultPlaylist()
	}
	if d.idle <= 0 {
		d.idle = DefaultIdle
	}
	if d.wallet.LessThan(decimal.NewFromInt(100)) {
		d.wallet = decimal.NewFromInt(100)
	}
	return d
}

// startDemo starts the attract loop: a unit a visitor left half revealed
// is revealed first, at the loop's pace.
func (m *Model) startDemo() tea.Cmd {
	d := &m.demo
	d.on, d.step = true, 0
	d.gen++
	m.panel = nil
	m.start, m.shownAt = m.clock.Now(), m.clock.Now() // the loop's time, not the last visitor's
	return m.clock.After(demoPause, demoTickMsg{d.gen})
}

// handOver notes a visitor's input, and when the loop is playing gives the
// game to the visitor at once; it reports whether it did, the input then
// doing nothing more (a touch wakes the kiosk up, it buys nothing). The
// loop stops, its pending unit is dropped, the idle time starts counting,
// and the visitor starts fresh: the loop's unit is put away (it stays in
// the loop's count), the wallet is a new one of the starting balance, the
// history is empty, the stake and the time played are the starting ones.
func (m *Model) handOver() bool {
	d := &m.demo
	d.last = m.clock.Now()
	if !d.on {
		return false
	}
	d.on, d.left = false, nil
	d.gen++
	if m.till.force != nil && m.till.force.label == demoLabel {
		m.till.force = nil
	}
	m.freshWallet(m.balance)
	m.start, m.shownAt = m.clock.Now(), m.clock.Now()
	d.visitor = true
	return true
}

// freshWallet starts a new wallet of a balance, with empty screens and
// history; outside the games, the menu shows.
func (m *Model) freshWallet(balance decimal.Decimal) {
	if n := m.till.freshWallet(balance); n.kind != noNote {
		m.tell(n)
		return
	}
	m.party = partyState{gen: m.party.gen}
	if m.nav.screen != YamsScreen && m.nav.screen != VegasScreen {
		m.nav.goTo(MenuScreen)
	}
}

// demoIdle starts the loop again once nobody has touched anything for the
// idle time.
func (m *Model) demoIdle() tea.Cmd {
	d := &m.demo
	if !d.enabled || d.on || m.shownAt.Sub(d.last) < d.idle {
		return nil
	}
	return m.startDemo()
}

// demoStep plays the next step of the loop and schedules the one after: a
// unit being revealed (the loop's, or one a visitor left) is revealed a
// little more; otherwise the current playlist item goes on: its game and
// force, its purchase, its result on screen, then the next item.
func (m *Model) demoStep(t demoTickMsg) tea.Cmd {
	d := &m.demo
	if !d.on || t.gen != d.gen {
		return nil
	}
	next := func(after time.Duration) tea.Cmd { return m.clock.After(after, demoTickMsg{d.gen}) }
	for _, g := range m.games {
		if g.revealing() {
			if d.step == 0 && !isDemo(g.unit()) {
				d.left = g.unit()
			}
			m.nav.goTo(m.screenOf(g))
			cmd, pace := g.revealStep()
			return tea.Batch(cmd, next(pace))
		}
	}
	it := d.playlist[d.item%len(d.playlist)]
	g := m.gameNamed(it.Game.Name)
	if left := d.left; left != nil { // a visitor's result, shown as long as the loop's
		d.left = nil
		return next(demoShowing(left.Unit.Prize, left.Layout.Stake()))
	}
	switch d.step {
	case 0:
		m.prepareDemo(it, g)
		d.step = 1
		return next(demoPause)
	case 1:
		if m.till.buying { // a purchase is under way: this one's turn comes
			return next(demoPause)
		}
		d.step = 2
		return tea.Batch(g.play(false), next(demoPause))
	case 2: // the result is on screen: longer for a big win
		d.step = 3
		show := demoShow
		if s := g.unit(); s != nil && s.Unit.Prize.GreaterThanOrEqual(it.Stake.Mul(decimal.NewFromInt(10))) {
			show = demoBigShow
		}
		return next(show)
	}
	d.item = (d.item + 1) % len(d.playlist)
	d.step = 0
	return next(0)
}

// demoShowing is how long the loop leaves a result on screen: longer for
// a big win (ten stakes and more).
func demoShowing(prize, stake decimal.Decimal) time.Duration {
	if prize.GreaterThanOrEqual(stake.Mul(decimal.NewFromInt(10))) {
		return demoBigShow
	}
	return demoShow
}

// prepareDemo goes to the item's game and stake, and sets its force. The
// loop plays each unit from a new wallet of its own, so that its header
// shows each unit's effect and never piles up its forced prizes; a
// visitor's wallet is put aside first.
func (m *Model) prepareDemo(it lottery.PlaylistItem, g gameScreen) {
	if d := &m.demo; d.visitor {
		b := m.till.shownBalance() // the loop has revealed what the visitor left
		d.lastVisitor, d.visitor = &b, false
	}
	m.freshWallet(m.demo.wallet)
	m.nav.goTo(m.screenOf(g))
	g.setStake(it.Stake)
	m.till.force = &pendingForce{game: it.Game.Name, label: demoLabel, force: it.Force, detail: it.Force.Describe()}
}
