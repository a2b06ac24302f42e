package ui

import (
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/session"
	"tapis/stats"
	"tapis/wallet"
)

// What the program, a server or a test reads of a player's model: public
// state, never a screen's fields.

// Revealing reports whether a unit is bought and not fully shown yet: being
// paid (its purchase under way) or on a screen, not all revealed.
func (m *Model) Revealing() bool {
	if m.till.buying {
		return true
	}
	for _, g := range m.games {
		if g.revealing() {
			return true
		}
	}
	return false
}

// Buying reports whether a purchase is on its way to the store, its
// screen saying Buying… until the store answers: a server may leave the
// frame of the key that began it to the answer, a few milliseconds later.
func (m *Model) Buying() bool { return m.till.buying }

// revealingUnseen reports whether a purchase is under way or a unit is
// being revealed whose result the player has not seen anywhere: one the
// history showed early (art. 4.1) is seen, its cups or surfaces left on
// its screen to play with, and the quit question does not ask about it.
func (m *Model) revealingUnseen() bool {
	if m.till.buying {
		return true
	}
	for _, g := range m.games {
		if s := g.unit(); g.revealing() && !m.till.early[s.Name()] {
			return true
		}
	}
	return false
}

// Balance returns the wallet's balance, prizes of units still being revealed
// included.
func (m *Model) Balance() decimal.Decimal { return m.till.session.Balance() }

// Screen returns the screen on show.
func (m *Model) Screen() Screen { return m.nav.screen }

// Close closes the session's journal, and ends the waits of its
// animations and checks (a stopped clock's are dropped).
func (m *Model) Close() error {
	m.closeOnce.Do(func() {
		close(m.closed)
		if c, ok := m.clock.(interface{ Stop() }); ok {
			c.Stop()
		}
	})
	return m.till.session.Close()
}

// Note returns what opening the journal had to say, if anything.
func (m *Model) Note() string { return m.till.session.Note }

// Recent returns the session's last units, newest first (HistoryLimit at
// most).
func (m *Model) Recent() []wallet.Operation {
	h := m.till.session.Recent()
	out := make([]wallet.Operation, len(h))
	for i, p := range h {
		out[len(out)-1-i] = p.Op
	}
	return out
}

// Attracting reports whether the kiosk's attract loop is playing.
func (m *Model) Attracting() bool { return m.demo.on }

// Showing returns the unit on a game's screen, revealed or not; nil before
// its first.
func (m *Model) Showing(gameName string) *lottery.Sold { return m.gameNamed(gameName).unit() }

// Session returns the player's session: the shop, the wallet and the
// journal.
func (m *Model) Session() *session.Session { return m.till.session }

// Figures returns the player's figures, as the stats screen shows them:
// the units shown so far.
func (m *Model) Figures() *stats.Session { return m.till.figures }
