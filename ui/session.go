package ui

import (
	"errors"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/game/session"
	"tapis/wallet"
)

// sell buys one unit of a game at a stake: the wallet debits the stake and
// credits the prize in one operation (ruling G3), and the unit joins the
// history.
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
	if m.demo.enabled {
		m.refillDemo(stake)
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

// refusal says why a purchase was refused, for the screen's note.
func refusal(err error) string {
	if errors.Is(err, wallet.ErrShort) {
		return "short"
	}
	return err.Error()
}

// pending returns the prize of the unit being revealed, which the header
// does not show yet: the wallet holds it, the player has not seen it.
func (m *Model) pending() decimal.Decimal {
	if p, ok := m.yams.pending(); ok {
		return p
	}
	if p, ok := m.vegas.pending(); ok {
		return p
	}
	return decimal.Zero
}

// takeUp takes a session up from its journal: the history, and a unit
// bought but never shown, offered on its game's screen to be revealed (it
// was paid at purchase, ruling G3).
func (m *Model) takeUp(st *session.State) {
	if st == nil {
		return
	}
	for _, p := range st.Recent {
		m.played = append(m.played, played{op: p.Op, layout: p.Layout})
	}
	if st.Pending == nil || (st.Pending.Layout.Yams == nil && st.Pending.Layout.Vegas == nil) {
		return
	}
	sold := st.Pending.Sold()
	if sold.Layout.Yams != nil {
		m.screen = YamsScreen
		m.yams.sold, m.yams.note = &sold, "recovered"
		for i, stake := range lottery.Yams().Stakes {
			if stake.Equal(sold.Layout.Yams.Stake) {
				m.yams.stake = i
			}
		}
		return
	}
	m.screen = VegasScreen
	m.vegas = vegasState{sold: &sold, drag: -1, note: "recovered"}
	for i := range m.vegas.coats {
		m.vegas.coats[i] = newCoating()
	}
}

// noteShown records in the journal that the unit on screen is fully
// revealed, once, and celebrates it if it won big.
func (m *Model) noteShown() tea.Cmd {
	if s := m.yams.sold; s != nil && !m.yams.shown && !m.yams.revealing() {
		m.yams.shown = true
		m.session.Shown(s.Name())
		return m.celebrateWin(s.Unit.Prize, s.Layout.Stake())
	}
	if s := m.vegas.sold; s != nil && !m.vegas.shown && !m.vegas.revealing() {
		m.vegas.shown = true
		m.session.Shown(s.Name())
		return m.celebrateWin(s.Unit.Prize, s.Layout.Stake())
	}
	return nil
}

// Close closes the session's journal.
func (m *Model) Close() error { return m.session.Close() }

// Note returns what opening the journal had to say, if anything.
func (m *Model) Note() string { return m.session.Note }
