package ui

import (
	tea "charm.land/bubbletea/v2"

	"tapis/game/lottery"
)

// slot is what each game's screen holds of the unit it shows and of the
// purchase that brings the next one: both games buy, take and show units
// alike, through these.
type slot struct {
	sold  *lottery.Sold
	note  note // why the last purchase was refused, or a unit recovered
	shown bool // the unit was seen fully revealed
	busy  bool // a purchase is under way
}

func (sl *slot) unit() *lottery.Sold { return sl.sold }
func (sl *slot) buying() bool        { return sl.busy }

// playOn is a game's Jouer and Auto (enter, « a »): while a unit is being
// revealed nothing is bought, and auto reveals what is left; otherwise a
// unit of an earlier run left unrevealed comes first, then a purchase.
func playOn(g gameScreen, sl *slot, t *till, auto bool) tea.Cmd {
	switch {
	case sl.busy:
		return nil
	case g.revealing():
		if auto {
			return g.revealAll()
		}
		return nil
	case t.closed: // the server is closing: the player finishes what they have
		sl.note = note{kind: noteClosing}
		if t.tampered {
			sl.note = note{kind: noteStopped}
		}
		return nil
	}
	if sold := t.offer(g.game().Name); sold != nil {
		g.take(sold, note{kind: noteRecovered})
		if auto {
			return g.revealAll()
		}
		return nil
	}
	if t.halted { // the host paused sales: what was bought is still revealed
		sl.note = note{kind: notePaused}
		return nil
	}
	cmd, n := t.buy(g.game(), g.stake(), auto)
	sl.note, sl.busy = n, cmd != nil
	return cmd
}

// takeBought puts a purchase's unit on its game's screen, covered (all
// revealed at once for Auto), or says why it was refused.
func takeBought(g gameScreen, sl *slot, t *till, msg boughtMsg) tea.Cmd {
	sl.busy = false
	if msg.err != nil {
		sl.note = t.refusal(msg.err)
		sl.note.ticket = len(g.game().Stakes) == 1
		return nil
	}
	g.take(&msg.sold, note{})
	if msg.auto {
		return g.revealAll()
	}
	return nil
}

// seen returns the unit the first time it is seen fully revealed, then
// nil.
func (sl *slot) seen(revealing bool) *lottery.Sold {
	if sl.sold == nil || sl.shown || revealing {
		return nil
	}
	sl.shown = true
	return sl.sold
}
