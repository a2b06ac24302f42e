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
	refill   decimal.Decimal // the balance the wallet is topped up to
	visitor  bool            // a visitor's wallet is in play, not the loop's
	// lastVisitor is the balance the last visitor left, once one came.
	lastVisitor *decimal.Decimal
	interrupted time.Time // the operator's first ctrl+c
}

func newDemoState(o Options, now time.Time) demoState {
	d := demoState{enabled: o.Demo, playlist: o.Playlist, idle: o.Idle, last: now, refill: o.Balance}
	if len(d.playlist) == 0 {
		d.playlist = lottery.DefaultPlaylist()
	}
	if d.idle <= 0 {
		d.idle = DefaultIdle
	}
	if d.refill.LessThan(decimal.NewFromInt(100)) {
		d.refill = decimal.NewFromInt(100)
	}
	return d
}

func demoTick(gen int, after time.Duration) tea.Cmd {
	return tea.Tick(after, func(time.Time) tea.Msg { return tickMsg{id: "demo", gen: gen} })
}

// startDemo starts the attract loop: a unit a visitor left half revealed
// is revealed first.
func (m *Model) startDemo() tea.Cmd {
	d := &m.demo
	d.on, d.step = true, 0
	d.gen++
	m.panel = nil
	var cmds []tea.Cmd
	if m.yams.revealing() {
		cmds = append(cmds, m.rollAll())
	}
	if m.vegas.revealing() {
		m.vegas.autoOn = true
		m.vegas.gen++
		cmds = append(cmds, scratchTick(m.vegas.gen))
	}
	return tea.Batch(append(cmds, demoTick(d.gen, demoPause))...)
}

// handOver gives the game to a visitor at once: the loop stops, its pending
// unit is dropped, the idle time starts counting, and the visitor starts
// fresh: the loop's unit is put away (it stays in the loop's count), the
// wallet is a new one of the starting balance, the history is empty.
func (m *Model) handOver() {
	d := &m.demo
	d.last = m.now()
	if !d.on {
		return
	}
	d.on = false
	d.gen++
	if m.force != nil && m.force.label == demoLabel {
		m.force = nil
	}
	m.freshWallet()
	d.visitor = true
}

// freshWallet retires the wallet in play (its units stay in the run's
// totals) and starts a new one of the starting balance, with empty screens
// and history.
func (m *Model) freshWallet() {
	m.retire()
	if err := m.session.Restart(m.balance); err != nil {
		m.notice = err.Error()
		return
	}
	m.played, m.waiting = nil, nil
	stake := m.yams.stake
	m.yams = yamsState{stake: stake, arts: m.yams.arts, gen: m.yams.gen}
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

// demoStep plays the next step of the current playlist item and schedules
// the one after.
func (m *Model) demoStep(t tickMsg) tea.Cmd {
	d := &m.demo
	if !d.on || t.gen != d.gen {
		return nil
	}
	it := d.playlist[d.item%len(d.playlist)]
	if d.step == 0 {
		if m.Revealing() { // a visitor's unit still being revealed
			return demoTick(d.gen, demoPause)
		}
		m.prepareDemo(it)
		d.step = 1
		return demoTick(d.gen, demoPause)
	}
	if d.step == 1 { // the purchase tops the wallet up if need be
		d.step = 2
		if it.Game.Name == vegas.Name {
			return tea.Batch(m.buyTicket(), demoTick(d.gen, demoPause))
		}
		return tea.Batch(m.yamsPlay(false), demoTick(d.gen, demoPause))
	}
	if m.Revealing() {
		if it.Game.Name == vegas.Name {
			m.nextCovered()
			m.vegas.coats[m.vegas.focus].dabs(m.rng, 3)
			m.nextCovered()
			return demoTick(d.gen, demoScratch)
		}
		for i, p := range m.yams.phase {
			if p == cupCovered {
				return tea.Batch(m.rollCup(i), demoTick(d.gen, demoPause))
			}
		}
		return demoTick(d.gen, demoPause) // the last cup is rolling
	}
	// The result is on screen: show it, longer for a big win, then go on.
	show := demoShow
	if s := m.lastSold(it.Game.Name); s != nil && s.Unit.Prize.GreaterThanOrEqual(it.Stake.Mul(decimal.NewFromInt(10))) {
		show = demoBigShow
	}
	if d.step == 2 {
		d.step = 3
		return demoTick(d.gen, show)
	}
	d.item = (d.item + 1) % len(d.playlist)
	d.step = 0
	return demoTick(d.gen, 0)
}

// prepareDemo goes to the item's game and stake, and sets its force. The
// loop plays from a wallet of its own: a visitor's is put aside first.
func (m *Model) prepareDemo(it lottery.PlaylistItem) {
	if d := &m.demo; d.visitor {
		b := m.session.Wallet().Balance()
		d.lastVisitor, d.visitor = &b, false
		m.freshWallet()
	}
	m.goTo(YamsScreen)
	if it.Game.Name == vegas.Name {
		m.goTo(VegasScreen)
	} else if i := lottery.Yams().StakeIndex(it.Stake); i >= 0 {
		m.yams.stake = i
	}
	m.force = &pendingForce{game: it.Game.Name, force: it.Force, label: demoLabel, detail: it.Force.Describe()}
}

// refillDemo tops the loop's wallet up when it could not pay for ten
// units.
func (m *Model) refillDemo(stake decimal.Decimal) {
	if b := m.session.Wallet().Balance(); b.LessThan(stake.Mul(decimal.NewFromInt(10))) {
		if err := m.session.Deposit(m.demo.refill.Sub(b)); err != nil {
			m.notice = err.Error()
		}
	}
}

// lastSold returns the unit on the screen of a game.
func (m *Model) lastSold(gameName string) *lottery.Sold {
	if gameName == vegas.Name {
		return m.vegas.sold
	}
	return m.yams.sold
}
