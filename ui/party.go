package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"
)

// The celebration of a big win: the banner flashes for a while.
const (
	partyEvery  = 180 * time.Millisecond
	partyFrames = 18 // about three seconds
)

// partyState is the celebration under way, if any.
type partyState struct {
	gen   int
	frame int // 0 when none is under way
}

// celebrateWin starts the banner's flashing for a prize of ten stakes or
// more; smaller wins are shown plainly or with a still banner.
func (m *Model) celebrateWin(prize, stake decimal.Decimal) tea.Cmd {
	if prize.LessThan(stake.Mul(decimal.NewFromInt(10))) {
		return nil
	}
	m.party.gen++
	m.party.frame = 1
	return partyTick(m.party.gen)
}

func partyTick(gen int) tea.Cmd {
	return tea.Tick(partyEvery, func(time.Time) tea.Msg { return tickMsg{id: "party", gen: gen} })
}

func (m *Model) partyTick(t tickMsg) tea.Cmd {
	if t.gen != m.party.gen || m.party.frame == 0 {
		return nil
	}
	m.party.frame++
	if m.party.frame > partyFrames {
		m.party.frame = 0
		return nil
	}
	return partyTick(t.gen)
}
