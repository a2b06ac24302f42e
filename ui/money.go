package ui

import (
	"errors"
	"io/fs"
	"iter"
	"strconv"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/session"
	safe "tapis/text"
	"tapis/wallet"
)

// noteKind is what a screen's note is about.
type noteKind uint8

const (
	noNote        noteKind = iota
	noteRecovered          // a unit of an earlier run, paid and never shown: reveal it
	noteRefused            // a purchase that could not be recorded: text says why
)

// note is a line a game's screen shows until the next purchase.
type note struct {
	kind noteKind
	text string // why, for noteRefused
}

// refusal returns the note of a refused purchase. A balance too low is
// said by payNote, from the balance itself, so it needs none.
func (m *Model) refusal(err error) note {
	if errors.Is(err, wallet.ErrShort) {
		return note{}
	}
	if cause, ok := journalCause(err); ok {
		return note{kind: noteRefused, text: m.t.f("refused.journal", cause)}
	}
	return note{kind: noteRefused, text: m.t.f("refused", safe.Printable(err.Error()))}
}

// journalCause returns why the journal could not take a record, as short
// as the file system says it ("no space left on device"), if err is that.
func journalCause(err error) (string, bool) {
	var j *session.JournalError
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

// unseen is a unit bought and not shown yet.
type unseen struct {
	name  string
	prize decimal.Decimal
	demo  bool // the kiosk's loop played it
}

// notShown yields the units bought and not shown yet: on a game's screen,
// being revealed, or waiting from an earlier run. The header, the history
// and the summary all leave them out alike.
func (m *Model) notShown() iter.Seq[unseen] {
	return func(yield func(unseen) bool) {
		for _, s := range []struct {
			sold *lottery.Sold
			busy bool
		}{{m.yams.sold, m.yams.revealing()}, {m.vegas.sold, m.vegas.revealing()}} {
			if s.busy && !yield(unseen{s.sold.Name(), s.sold.Unit.Prize, isDemo(s.sold)}) {
				return
			}
		}
		for _, w := range m.waiting {
			if !yield(unseen{w.Op.Unit, w.Op.Prize, false}) {
				return
			}
		}
	}
}

// hidden is what the wallet holds that the player has not seen: the prizes
// of the units bought and not shown yet (ruling G3 settles them at once).
func (m *Model) hidden() decimal.Decimal {
	sum := decimal.Zero
	for u := range m.notShown() {
		sum = sum.Add(u.prize)
	}
	return sum
}

// shownBalance is the balance as the player has seen it: without the prizes
// still hidden. Purchases are paid from it, never from a prize not shown.
func (m *Model) shownBalance() decimal.Decimal {
	return m.session.Wallet().Balance().Sub(m.hidden())
}

// canPay reports whether the balance the player has seen covers a stake.
func (m *Model) canPay(stake decimal.Decimal) bool {
	return !m.shownBalance().LessThan(stake)
}

// payNote says why the wallet cannot pay a unit of game g at a stake, with
// the balance, the price and what the player can do; "" when it can.
func (m *Model) payNote(g lottery.Game, stake decimal.Decimal) string {
	b := m.shownBalance()
	if !b.LessThan(stake) {
		return ""
	}
	least := m.least
	quit := ""
	if !m.demo.enabled {
		quit = m.t.get("pay.quit")
	}
	switch {
	case !b.IsPositive():
		return m.t.f("pay.empty", m.t.money(b), m.t.money(least)) + quit
	case b.LessThan(least):
		return m.t.f("pay.below", m.t.money(b), m.t.money(least)) + quit
	case g.Name == lottery.Vegas().Name:
		return m.t.f("pay.ticket", m.t.money(b), m.t.money(stake), m.t.money(least)) + quit
	}
	return m.t.f("pay.stake", m.t.money(b), m.t.money(stake)) + quit
}

// Totals returns what this run has played, every wallet of the kiosk's
// visitors and of its loop included.
func (m *Model) Totals() wallet.Totals {
	return m.carried.Add(m.session.Wallet().Totals())
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

// retire carries what a wallet the session no longer has played into the
// run's totals.
func (m *Model) retire(t wallet.Totals) { m.carried = m.carried.Add(t) }

// unrevealed counts the player's units bought and not shown: on a game's
// screen or still waiting from an earlier run. The kiosk's own units are
// not a player's.
func (m *Model) unrevealed() int {
	n := 0
	for u := range m.notShown() {
		if !u.demo {
			n++
		}
	}
	return n
}

// isDemo reports whether a unit is one the kiosk's loop played.
func isDemo(s *lottery.Sold) bool { return s != nil && s.Forced != nil && s.Forced.Label == demoLabel }

// Summary is the line printed once the terminal is restored. As the header,
// it tells what the player has seen: the units bought and what they
// staked, the prizes revealed during the run (units of an earlier run
// included) and the balance without the prizes not shown yet (the last
// visitor's in the kiosk); then the forced units, and the units left
// unrevealed, if any. The balance is the one the run started with, less
// the stakes, plus the prizes revealed.
func (m *Model) Summary() string {
	tot := m.Totals()
	s := m.t.f("summary", tot.Played, m.t.money(tot.Staked), m.t.money(m.seenWon), m.t.money(m.summaryBalance()))
	for _, label := range []string{forcedLabel, demoLabel} {
		if n := m.forced[label]; n > 0 {
			s += " · " + label + " " + strconv.Itoa(n)
		}
	}
	if n := m.unrevealed(); n > 0 {
		s += " · " + m.t.f("summary.unrevealed", n)
	}
	return s
}

// summaryBalance is the player's balance: in the kiosk, the last visitor's
// (the starting balance when no visitor came).
func (m *Model) summaryBalance() decimal.Decimal {
	switch d := &m.demo; {
	case !d.enabled || d.visitor:
		return m.shownBalance()
	case d.lastVisitor != nil:
		return *d.lastVisitor
	}
	return m.balance
}
