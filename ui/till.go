package ui

import (
	"errors"
	"io/fs"
	"iter"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/session"
	"tapis/stats"
	"tapis/store"
	"tapis/store/journal"
	safe "tapis/text"
	"tapis/wallet"
)

// till is where a player buys: the session (shop, wallet, journal), the
// units of an earlier run still to show, the force the next purchase plays
// (QA, the demo), and what this run has played. The game screens buy
// through it; a purchase is a command, off the update loop, and its answer
// a boughtMsg.
type till struct {
	session *session.Session
	games   []gameScreen     // what each game's screen holds
	waiting []session.Played // units of an earlier run never shown, not on a screen yet
	carried wallet.Totals    // what the wallets this run retired played (the kiosk's)
	seenWon decimal.Decimal  // the prizes of the units revealed during this run
	// seen is what the units revealed during this run played, every
	// wallet's: "this session", as the stats and the summary count it.
	seen    wallet.Totals
	force   *pendingForce    // what the next purchase plays, in QA mode and in the demo
	forced  map[string]int   // forced units played, by label (QA, DEMO)
	least   decimal.Decimal  // the smallest stake of all the games
	buying  bool             // a purchase is under way: no other starts
	restart *decimal.Decimal // a fresh wallet waiting for the purchase under way
	epoch   int              // the wallet's generation, for the drawings of its figures
	sales   int              // purchases booked this run, for the drawings that follow the blocks
	start   decimal.Decimal  // the balance the wallet started from (its journal's first, when resumed)
	blocks  blocks           // where the blocks stand, as the store last said
	figures *stats.Session   // the player's figures, counted as units are shown
	// figuresLost counts the units the figures refused (none should be).
	figuresLost int
	now         func() time.Time
	// closed is true once the server is closing: nothing is bought any
	// more; tampered, because its store was changed under it.
	closed, tampered bool
	// halted is true while the stand's host paused sales (StandMsg).
	halted bool
	// recording counts the units shown whose record is under way.
	recording int
	// paused is true while a reality check is due or shows: no purchase
	// starts, and pausedAsk says one was asked meanwhile.
	paused, pausedAsk bool
	// frame is what a frame being drawn reads once (Model.layers).
	frame frameState
	// early is the units shown in the history before their game's
	// screen revealed them (art. 4.1), by name: they count as shown, and
	// their screen's reveal, if it comes, records nothing again.
	early map[string]bool
}

// boughtMsg is a purchase's answer: the unit sold, on disk first when the
// session has a journal, or why it was not.
type boughtMsg struct {
	game   string
	sold   lottery.Sold
	label  string        // the force's label, when a force was played
	from   *pendingForce // the force pending when it was bought: used up only if still so
	forced bool
	auto   bool // reveal it all at once (Auto, « a »)
	err    error
}

// shownMsg is the answer of writing that a unit was fully revealed.
type shownMsg struct{ err error }

// buy returns the purchase of a unit of g at a stake as a command, or,
// when none can start, nil and the note saying why: the balance the player
// has seen must pay it (a prize not shown yet is not spent). In QA mode and
// in the demo the purchase plays the force set for the game.
func (t *till) buy(g lottery.Game, stake decimal.Decimal, auto bool) (tea.Cmd, note) {
	if t.paused {
		t.pausedAsk = true
	}
	if t.buying || t.restart != nil || t.paused {
		return nil, note{}
	}
	var force *lottery.Force
	label := ""
	from := t.force
	if p := t.force; p != nil && p.game == g.Name {
		f := p.force
		force, label, stake = &f, p.label, f.Stake(stake)
	}
	if !t.canPay(stake) { // said by payNote; the session would refuse it
		return nil, note{}
	}
	t.buying = true
	s := t.session
	return func() tea.Msg {
		sold, _, err := s.Buy(g, stake, force, label)
		return boughtMsg{game: g.Name, sold: sold, label: label, from: from, forced: force != nil, auto: auto, err: err}
	}, note{}
}

// bought books a purchase's answer, and reports whether its screen is to
// show it: not when a fresh wallet waits for it (the root starts it).
func (t *till) bought(msg boughtMsg) bool {
	t.buying = false
	if msg.err == nil {
		t.sales++
		if msg.forced {
			if t.force == msg.from {
				t.useForce()
			}
			t.forced[msg.label]++
		}
	}
	return t.restart == nil
}

// shown returns the command recording that a unit was fully revealed.
func (t *till) shown(sold *lottery.Sold) tea.Cmd {
	t.session.Seen(sold.Ref()) // its prize is spendable from this frame on
	t.seenWon = t.seenWon.Add(sold.Unit.Prize)
	t.seen = t.seen.Add(wallet.Totals{Played: 1, Staked: sold.Layout.Stake(), Won: sold.Unit.Prize,
		Net: sold.Unit.Prize.Sub(sold.Layout.Stake())})
	t.addFigures(sold)
	t.recording++
	s, unit := t.session, sold.Ref()
	return func() tea.Msg { return shownMsg{s.Shown(unit)} }
}

// shownEarly returns the command recording a unit as shown when the
// history shows its result before its game's screen revealed it: from
// then on it counts as shown, and the screen may still reveal it.
func (t *till) shownEarly(sold *lottery.Sold) tea.Cmd {
	if t.early == nil {
		t.early = map[string]bool{}
	}
	t.early[sold.Name()] = true
	return t.shown(sold)
}

// shownAlready reports whether a unit its screen just revealed was shown
// in the history first, and forgets it.
func (t *till) shownAlready(sold *lottery.Sold) bool {
	if !t.early[sold.Name()] {
		return false
	}
	delete(t.early, sold.Name())
	return true
}

// freshWallet retires the wallet in play (its units stay in the run's
// totals) and starts a new one of a balance, with an empty history: the
// kiosk's next visitor, or the loop's next unit. A purchase under way
// finishes first.
func (t *till) freshWallet(balance decimal.Decimal) note {
	if t.buying {
		t.restart = &balance
		return note{}
	}
	done := t.session.Totals()
	if err := t.session.Restart(balance); err != nil {
		return t.refusal(err)
	}
	t.carried = t.carried.Add(done)
	t.waiting, t.start = nil, balance
	t.startFigures()
	t.epoch++ // the drawings of the last wallet's figures are stale
	for _, g := range t.games {
		g.reset()
	}
	return note{}
}

// refusal returns the note of a refused purchase. A balance too low is
// said by payNote, from the balance itself, so it needs none.
func (t *till) refusal(err error) note {
	if errors.Is(err, wallet.ErrShort) {
		return note{}
	}
	if cause, ok := journalCause(err); ok {
		return note{kind: noteJournalFull, text: cause}
	}
	if e, ok := store.IsLossLimit(err); ok {
		return note{kind: noteLossLimit, loss: e}
	}
	if errors.Is(err, ErrSalesPaused) {
		return note{kind: notePaused}
	}
	if errors.Is(err, store.ErrTampered) {
		return note{kind: noteTampered}
	}
	if errors.Is(err, store.ErrOutOfTurn) || errors.Is(err, store.ErrOtherPurchase) || errors.Is(err, store.ErrLeaseLost) {
		return note{kind: noteElsewhere}
	}
	// Anything else the store says is its own (an address, a query, a
	// purchase's number): the player is told what is known, that nothing
	// was bought, and the log keeps the rest.
	if store.Unreachable(err) {
		return note{kind: noteStoreDown}
	}
	return note{kind: noteFailed}
}

// journalCause returns why the journal could not take a record, as short
// as the file system says it ("no space left on device"), if err is that.
func journalCause(err error) (string, bool) {
	var j *journal.JournalError
	if !errors.As(err, &j) {
		return "", false
	}
	cause := j.Err
	var pe *fs.PathError
	if errors.As(cause, &pe) {
		cause = pe.Err
	}
	return safe.Printable(cause.Error()), true
}

// takeUp takes a session up from its journal: the history, and every unit
// bought but never shown (paid at purchase, ruling G3), to be offered
// oldest first, each on its game's screen. It returns the game of the
// oldest, or "".
func (t *till) takeUp(st *session.State) string {
	if st == nil {
		return ""
	}
	for _, p := range st.Pending {
		if p.Sold.Layout.Yams != nil || p.Sold.Layout.Vegas != nil {
			t.waiting = append(t.waiting, p)
		}
	}
	if len(t.waiting) == 0 {
		return ""
	}
	return t.waiting[0].Sold.Layout.Game()
}

// offer returns the oldest unit of a game left unrevealed by an earlier
// run, taken off the waiting list, or nil.
func (t *till) offer(gameName string) *lottery.Sold {
	i := slices.IndexFunc(t.waiting, func(p session.Played) bool { return p.Sold.Layout.Game() == gameName })
	if i < 0 {
		return nil
	}
	sold := t.waiting[i].Sold
	t.waiting = slices.Delete(t.waiting, i, i+1)
	return &sold
}

// waits reports whether a unit of a game from an earlier run waits.
func (t *till) waits(gameName string) bool {
	return slices.ContainsFunc(t.waiting, func(p session.Played) bool { return p.Sold.Layout.Game() == gameName })
}

// unseen is a unit bought and not shown yet.
type unseen struct {
	name string
	demo bool // the kiosk's loop played it
}

// notShown yields the units bought and not shown yet: on a game's screen,
// being revealed, or waiting from an earlier run. The history and the
// summary leave them out, as the session's spendable balance does.
func (t *till) notShown() iter.Seq[unseen] {
	return func(yield func(unseen) bool) {
		for _, g := range t.games {
			if s := g.unit(); g.revealing() && !t.early[s.Name()] && !yield(unseen{s.Name(), isDemo(s)}) {
				return
			}
		}
		for _, w := range t.waiting {
			if !t.early[w.Op.Unit] && !yield(unseen{w.Op.Unit, false}) {
				return
			}
		}
	}
}

// unshown reports whether a unit is bought and not revealed yet.
func (t *till) unshown(name string) bool {
	for u := range t.notShown() {
		if u.name == name {
			return true
		}
	}
	return false
}

// shownBalance is the balance as the player has seen it, the session's
// spendable one: without the prizes not shown yet, nor the stake of a
// purchase under way. Purchases are paid from it, never from a prize not
// shown.
func (t *till) shownBalance() decimal.Decimal {
	if t.frame.on {
		return t.frame.spendable
	}
	return t.session.Spendable()
}

// origin returns the balance the wallet started from: the header's net is
// the balance less it. It is kept here, so that drawing a frame never
// waits for a purchase writing the journal.
func (t *till) origin() decimal.Decimal { return t.start }

// canPay reports whether the balance the player has seen covers a stake,
// as the session's purchase will check it.
func (t *till) canPay(stake decimal.Decimal) bool { return !t.shownBalance().LessThan(stake) }

// totals returns what this run has played, every wallet of the kiosk's
// visitors and of its loop included.
func (t *till) totals() wallet.Totals {
	return t.carried.Add(t.session.Totals())
}

// unrevealed counts the player's units bought and not shown: on a game's
// screen or still waiting from an earlier run. The kiosk's own units are
// not a player's.
func (t *till) unrevealed() int {
	n := 0
	for u := range t.notShown() {
		if !u.demo {
			n++
		}
	}
	return n
}

// useForce moves past the force just played: the next loaded layout, or
// none.
func (t *till) useForce() {
	p := t.force
	if p == nil {
		return
	}
	if len(p.queue) > 0 {
		next := p.queue[0]
		p.force, p.queue = lottery.Force{Layout: &next}, p.queue[1:]
		return
	}
	t.force = nil
}

// leastStake is the smallest stake of all the games: below it, the wallet
// pays for nothing.
func leastStake() decimal.Decimal {
	var least decimal.Decimal
	for _, g := range lottery.Games() {
		for _, s := range g.Stakes {
			if least.IsZero() || s.LessThan(least) {
				least = s
			}
		}
	}
	return least
}

// isDemo reports whether a unit is one the kiosk's loop played.
func isDemo(s *lottery.Sold) bool { return s != nil && s.Forced != nil && s.Forced.Label == demoLabel }

// unshownNames names the units bought and not shown yet, for the memo of
// what shows them apart.
func (t *till) unshownNames() string {
	var b strings.Builder
	for u := range t.notShown() {
		b.WriteString(u.name)
		b.WriteByte(0)
	}
	return b.String()
}
