package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/game/vegas"
)

// demoLabel marks the units the attract loop plays.
const demoLabel = "DEMO"

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
}

func newDemoState(o Options, now time.Time) demoState {
	d := demoState{enabled: o.Demo, playlist: o.Playlist, idle: o.Idle, last: now, wallet: o.Balance}
	if len(d.playlist) == 0 {
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

func demoTick(gen int, after time.Duration) tea.Cmd {
	return tea.Tick(after, func(time.Time) tea.Msg { return tickMsg{id: "demo", gen: gen} })
}

// startDemo starts the attract loop: a unit a visitor left half revealed
// is revealed first, at the loop's pace.
func (m *Model) startDemo() tea.Cmd {
	d := &m.demo
	d.on, d.step = true, 0
	d.gen++
	m.panel = nil
	return demoTick(d.gen, demoPause)
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
	d.last = m.now()
	if !d.on {
		return false
	}
	d.on = false
	d.gen++
	if m.force != nil && m.force.label == demoLabel {
		m.force = nil
	}
	m.freshWallet(m.balance)
	m.yams.stake = m.stake
	m.start, m.clock = m.now(), m.now()
	d.visitor = true
	return true
}

// freshWallet retires the wallet in play (its units stay in the run's
// totals) and starts a new one of a balance, with empty screens and
// history.
func (m *Model) freshWallet(balance decimal.Decimal) {
	done := m.session.Wallet().Totals()
	if err := m.session.Restart(balance); err != nil {
		m.notice = err.Error()
		return
	}
	m.retire(done)
	m.waiting = nil
	m.yams = yamsState{stake: m.yams.stake, arts: m.yams.arts, gen: m.yams.gen}
	m.vegas.start(nil)
	m.history, m.party = historyState{}, partyState{gen: m.party.gen}
	if m.screen != YamsScreen && m.screen != VegasScreen {
		m.goTo(MenuScreen)
	}
}

// demoIdle starts the loop again once nobody has touched anything for the
// idle time.
func (m *Model) demoIdle() tea.Cmd {
	d := &m.demo
	if !d.enabled || d.on || m.clock.Sub(d.last) < d.idle {
		return nil
	}
	return m.startDemo()
}

// demoStep plays the next step of the loop and schedules the one after: a
// unit being revealed (the loop's, or one a visitor left) is revealed a
// little more; otherwise the current playlist item goes on: its game and
// force, its purchase, its result on screen, then the next item.
func (m *Model) demoStep(t tickMsg) tea.Cmd {
	d := &m.demo
	if !d.on || t.gen != d.gen {
		return nil
	}
	if m.Revealing() {
		return m.demoReveal()
	}
	it := d.playlist[d.item%len(d.playlist)]
	switch d.step {
	case 0:
		m.prepareDemo(it)
		d.step = 1
		return demoTick(d.gen, demoPause)
	case 1:
		d.step = 2
		if it.Game.Name == vegas.Name {
			return tea.Batch(m.buyTicket(), demoTick(d.gen, demoPause))
		}
		return tea.Batch(m.yamsPlay(false), demoTick(d.gen, demoPause))
	case 2: // the result is on screen: longer for a big win
		d.step = 3
		show := demoShow
		if s := m.lastSold(it.Game.Name); s != nil && s.Unit.Prize.GreaterThanOrEqual(it.Stake.Mul(decimal.NewFromInt(10))) {
			show = demoBigShow
		}
		return demoTick(d.gen, show)
	}
	d.item = (d.item + 1) % len(d.playlist)
	d.step = 0
	return demoTick(d.gen, 0)
}

// demoReveal reveals a little more of the unit being revealed, on its
// game's screen, at a pace people can follow: one cup, or a few strokes of
// the coin.
func (m *Model) demoReveal() tea.Cmd {
	d := &m.demo
	if m.vegas.revealing() {
		m.goTo(VegasScreen)
		m.nextCovered()
		m.vegas.coats[m.vegas.focus].dabs(m.rng, 3)
		m.nextCovered()
		return demoTick(d.gen, demoScratch)
	}
	m.goTo(YamsScreen)
	for i, p := range m.yams.phase {
		if p == cupCovered {
			return tea.Batch(m.rollCup(i), demoTick(d.gen, demoPause))
		}
	}
	return demoTick(d.gen, demoPause) // the last cup is rolling
}

// prepareDemo goes to the item's game and stake, and sets its force. The
// loop plays each unit from a new wallet of its own, so that its header
// shows each unit's effect and never piles up its forced prizes; a
// visitor's wallet is put aside first.
func (m *Model) prepareDemo(it lottery.PlaylistItem) {
	if d := &m.demo; d.visitor {
		b := m.shownBalance() // the loop has revealed what the visitor left
		d.lastVisitor, d.visitor = &b, false
	}
	m.freshWallet(m.demo.wallet)
	m.goTo(YamsScreen)
	if it.Game.Name == vegas.Name {
		m.goTo(VegasScreen)
	} else if i := lottery.Yams().StakeIndex(it.Stake); i >= 0 {
		m.yams.stake = i
	}
	m.force = &pendingForce{game: it.Game.Name, label: demoLabel, force: it.Force, detail: it.Force.Describe()}
}

// lastSold returns the unit on the screen of a game.
func (m *Model) lastSold(gameName string) *lottery.Sold {
	if gameName == vegas.Name {
		return m.vegas.sold
	}
	return m.yams.sold
}
