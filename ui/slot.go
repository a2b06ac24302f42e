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
	// held is the keys that reveal, pressed while a purchase is under
	// way: applied once its unit is on screen (heldMost at most).
	held []tea.KeyPressMsg
}

// heldMost bounds the keys held during a purchase.
const heldMost = 16

// hold keeps a key that reveals, pressed while a purchase is under way,
// and reports whether it did: the key is then the unit's once it comes.
// A key that buys is never held: a second one is never a second purchase.
func (sl *slot) hold(msg tea.KeyPressMsg, reveals bool) bool {
	if !sl.busy || !reveals {
		return false
	}
	if len(sl.held) < heldMost {
		sl.held = append(sl.held, msg)
	}
	return true
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

// salesResumed drops the refusal a pause gave, once sales resumed: left, it
// told a player sales were paused under a header that no longer said so.
func (sl *slot) salesResumed() {
	if sl.note.kind == notePaused {
		sl.note = note{}
	}
}

// takeBought puts a purchase's unit on its game's screen, covered (all
// revealed at once for Auto), or says why it was refused.
func takeBought(g gameScreen, sl *slot, t *till, msg boughtMsg) tea.Cmd {
	sl.busy = false
	held := sl.held
	sl.held = nil
	if msg.err != nil {
		sl.note = t.refusal(msg.err)
		sl.note.ticket = len(g.game().Stakes) == 1
		return nil
	}
	g.take(&msg.sold, note{})
	var cmds []tea.Cmd
	if msg.auto {
		cmds = append(cmds, g.revealAll())
	}
	for _, k := range held { // in the order pressed, on the unit they were pressed for
		cmds = append(cmds, g.update(k))
	}
	return tea.Batch(cmds...)
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
