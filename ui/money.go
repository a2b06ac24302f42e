package ui

import (
	"strconv"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/wallet"
)

// payNote says why the wallet cannot pay a unit of game g at a stake, with
// the balance, the price and what the player can do; "" when it can.
func (c *common) payNote(g lottery.Game, stake decimal.Decimal) string {
	if c.till.canPay(stake) {
		return ""
	}
	b := c.till.shownBalance()
	least := c.till.least
	quit := ""
	if !c.kiosk {
		quit = c.t.get("pay.quit")
	}
	switch {
	case !b.IsPositive():
		return c.t.f("pay.empty", c.t.money(b), c.t.money(least)) + quit
	case b.LessThan(least):
		return c.t.f("pay.below", c.t.money(b), c.t.money(least)) + quit
	case g.Name == vegas.Name:
		return c.t.f("pay.ticket", c.t.money(b), c.t.money(stake), c.t.money(least)) + quit
	}
	return c.t.f("pay.stake", c.t.money(b), c.t.money(stake)) + quit
}

// elsewhere says which unit left unrevealed waits on the other game's
// screen, if one does, once the unit on this one is shown.
func (c *common) elsewhere(gameName string) string {
	for _, g := range c.till.games {
		other := g.game().Name
		if other == gameName {
			continue
		}
		if (g.revealing() && !isDemo(g.unit())) || c.till.waits(other) {
			if other == vegas.Name {
				return c.t.f("elsewhere.vegas", 2)
			}
			return c.t.f("elsewhere.yams", 1)
		}
	}
	return ""
}

// Totals returns what this run has played, every wallet of the kiosk's
// visitors and of its loop included.
func (m *Model) Totals() wallet.Totals { return m.till.totals() }

// Summary is the line printed once the terminal is restored. As the header
// and the stats screen, it tells what the player has seen: the units
// revealed during the run (units of an earlier run included), what they
// staked and won, and the balance without the prizes not shown yet (the
// last visitor's in the kiosk); then the forced units bought, and the
// units left unrevealed, if any: those are paid (their stakes are out of
// the balance) and counted once they are shown.
func (m *Model) Summary() string {
	s := SummaryLine(m.t.lang, m.till.seen, m.till.seen.Won, m.summaryBalance())
	for _, label := range []string{forcedLabel, demoLabel} {
		if n := m.till.forced[label]; n > 0 {
			s += " · " + label + " " + strconv.Itoa(n)
		}
	}
	if n := m.till.unrevealed(); n > 0 {
		s += " · " + m.t.count("summary.unrevealed", n, n)
	}
	return s
}

// SummaryLine is the summary line's beginning, in a language: the units
// played and what they staked, what the player saw won, and the balance
// (interface.md). The game adds its forced and unrevealed units' counts;
// tapis simulate prints it as it is.
func SummaryLine(lang Lang, t wallet.Totals, won, balance decimal.Decimal) string {
	tx := newText(lang)
	return tx.f("summary", t.Played, tx.money(t.Staked), tx.money(won), tx.money(balance))
}

// summaryBalance is the player's balance: in the kiosk, the last visitor's
// (the starting balance when no visitor came).
func (m *Model) summaryBalance() decimal.Decimal {
	switch d := &m.demo; {
	case !d.enabled || d.visitor:
		return m.till.shownBalance()
	case d.lastVisitor != nil:
		return *d.lastVisitor
	}
	return m.balance
}
