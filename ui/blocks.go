package ui

import (
	"encoding/hex"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/session"
	"tapis/store"
)

// blocks is what the screens show of the emission: where each game and
// stake sells next (the QA line and panel, the rules' commitments) and the
// seeds of the blocks exhausted, as the store last said. It is read by a
// command (loadBlocks), never while drawing: a store may take its time,
// and a block nobody sells yet is committed when first asked for.
type blocks struct {
	at       map[seqAt]session.BlockStatus
	revealed []store.Reveal // the blocks sold out and their seeds
	err      error          // why the last reading failed, or nil
	loaded   int            // the readings taken: the drawings made of them follow it
}

// seqAt is a game's sequence at a stake, as a map key.
type seqAt struct {
	game  string
	cents game.Cents
}

// seqOf returns the key of a game's sequence at a stake.
func seqOf(g lottery.Game, stake decimal.Decimal) seqAt {
	c, _ := game.CentsOf(stake)
	return seqAt{g.Name, c}
}

// blocksMsg is a reading of every sequence's block and of the seeds
// revealed.
type blocksMsg struct {
	at       map[seqAt]session.BlockStatus
	revealed []store.Reveal
	err      error
}

// loadBlocks returns the command reading where every game and stake of a
// session stands.
func loadBlocks(s *session.Session) tea.Cmd {
	return func() tea.Msg { return readBlocks(s) }
}

// readBlocks reads where every game and stake of a session stands.
func readBlocks(s *session.Session) blocksMsg {
	msg := blocksMsg{at: map[seqAt]session.BlockStatus{}}
	for _, g := range lottery.Games() {
		for _, stake := range g.Stakes {
			b, err := s.Block(g, stake)
			if err != nil {
				msg.err = err
				continue
			}
			msg.at[seqOf(g, stake)] = b
		}
	}
	msg.revealed = s.Revealed()
	return msg
}

// take keeps a reading.
func (b *blocks) take(msg blocksMsg) {
	b.at, b.revealed, b.err = msg.at, msg.revealed, msg.err
	b.loaded++
}

// block returns where a game and stake stand, as last read.
func (b *blocks) block(g lottery.Game, stake decimal.Decimal) (session.BlockStatus, bool) {
	st, ok := b.at[seqOf(g, stake)]
	return st, ok
}

// commitment returns the block a game and stake sell next and its
// commitment in hex, as last read.
func (b *blocks) commitment(g lottery.Game, stake decimal.Decimal) (int64, string, bool) {
	st, ok := b.block(g, stake)
	if !ok {
		return 0, "", false
	}
	return st.Number, hex.EncodeToString(st.Commitment[:]), true
}
