package ui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/game/yams"
	"tapis/session"
	safe "tapis/text"
	"tapis/wallet"
)

// sell buys one unit of a game at a stake: the wallet debits the stake and
// credits the prize in one operation (ruling G3), and the unit joins the
// history. It is paid from the balance the player has seen: a prize not
// shown yet is not spent.
//
// In QA mode the purchase plays the force set for the game, if any: a unit
// from no block, marked QA (ruling G6); a loaded layout brings its stake.
func (m *Model) sell(g lottery.Game, stake decimal.Decimal) (lottery.Sold, wallet.Operation, error) {
	var force *lottery.Force
	label := ""
	if f, ok := m.peekForce(g.Name); ok {
		force, label = &f, m.force.label
		if f.Layout != nil {
			stake = f.Layout.Stake()
		}
	}
	if !m.canPay(stake) {
		return lottery.Sold{}, wallet.Operation{}, fmt.Errorf("balance %s, stake %s: %w", m.shownBalance(), stake, wallet.ErrShort)
	}
	sold, op, err := m.session.Buy(g, stake, force, label)
	if err != nil {
		return lottery.Sold{}, wallet.Operation{}, err
	}
	if force != nil {
		m.useForce()
		m.forced[label]++
	}
	m.played = append(m.played, played{op: op, layout: sold.Layout})
	if len(m.played) >= 2*historyLimit { // trimmed in batches: O(1) a purchase
		m.played = append(m.played[:0:0], m.played[len(m.played)-historyLimit:]...)
	}
	return sold, op, nil
}

// takeUp takes a session up from its journal: the history, and every unit
// bought but never shown (paid at purchase, ruling G3), offered oldest
// first, each on its game's screen.
func (m *Model) takeUp(st *session.State) {
	if st == nil {
		return
	}
	for _, p := range st.Recent {
		m.played = append(m.played, played{op: p.Op, layout: p.Layout})
	}
	for _, p := range st.Pending {
		if p.Layout.Yams != nil || p.Layout.Vegas != nil {
			m.waiting = append(m.waiting, p)
		}
	}
	if len(m.waiting) == 0 {
		return
	}
	first := m.waiting[0].Layout.Game()
	m.offer(yams.Name)
	m.offer(vegas.Name)
	m.goTo(YamsScreen)
	if first == vegas.Name {
		m.goTo(VegasScreen)
	}
}

// offer puts the oldest unit of a game left unrevealed by an earlier run on
// the game's screen, to be revealed; it reports whether there was one.
func (m *Model) offer(gameName string) bool {
	i := slices.IndexFunc(m.waiting, func(p session.Played) bool { return p.Layout.Game() == gameName })
	if i < 0 {
		return false
	}
	sold := m.waiting[i].Sold()
	m.waiting = slices.Delete(m.waiting, i, i+1)
	if gameName == vegas.Name {
		m.vegas.start(&sold)
		m.vegas.note = note{kind: noteRecovered}
		return true
	}
	m.yams.start(&sold)
	m.yams.note = note{kind: noteRecovered}
	return true
}

// elsewhere says which unit left unrevealed waits on the other game's
// screen, if one does, once the unit on this one is shown.
func (m *Model) elsewhere(gameName string) string {
	other, screen, note := vegas.Name, 2, "elsewhere.vegas"
	if gameName == vegas.Name {
		other, screen, note = yams.Name, 1, "elsewhere.yams"
	}
	s := m.vegas.sold
	revealing := m.vegas.revealing()
	if other == yams.Name {
		s, revealing = m.yams.sold, m.yams.revealing()
	}
	waits := slices.ContainsFunc(m.waiting, func(p session.Played) bool { return p.Layout.Game() == other })
	if (revealing && !isDemo(s)) || waits {
		return m.t.f(note, screen)
	}
	return ""
}

// noteShown records in the journal that the unit on screen is fully
// revealed, once, and celebrates it if it won big.
func (m *Model) noteShown() tea.Cmd {
	for _, u := range []struct {
		sold  *lottery.Sold
		shown *bool
		busy  bool
	}{{m.yams.sold, &m.yams.shown, m.yams.revealing()}, {m.vegas.sold, &m.vegas.shown, m.vegas.revealing()}} {
		if u.sold == nil || *u.shown || u.busy {
			continue
		}
		*u.shown = true
		m.seenWon = m.seenWon.Add(u.sold.Unit.Prize)
		if err := m.session.Shown(u.sold.Name()); err != nil {
			cause, ok := journalCause(err)
			if !ok {
				cause = safe.Printable(err.Error())
			}
			m.notice = m.t.f("journal.shown", cause)
		}
		return m.celebrateWin(u.sold.Unit.Prize, u.sold.Layout.Stake())
	}
	return nil
}

// Close closes the session's journal.
func (m *Model) Close() error { return m.session.Close() }

// Note returns what opening the journal had to say, if anything.
func (m *Model) Note() string { return m.session.Note }
