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
func (c *common) celebrateWin(prize, stake decimal.Decimal) tea.Cmd {
	if prize.LessThan(stake.Mul(decimal.NewFromInt(10))) {
		return nil
	}
	c.party.gen++
	c.party.frame = 1
	return c.clock.After(partyEvery, partyTickMsg{c.party.gen})
}

// partyTick flashes the banner once more, until the celebration ends.
func (c *common) partyTick(t partyTickMsg) tea.Cmd {
	if t.gen != c.party.gen || c.party.frame == 0 {
		return nil
	}
	c.party.frame++
	if c.party.frame > partyFrames {
		c.party.frame = 0
		return nil
	}
	return c.clock.After(partyEvery, t)
}

// flashing reports whether the banner shows its other colours now, while
// a celebration lasts.
func (p partyState) flashing() bool { return p.frame%2 == 0 && p.frame > 0 }
