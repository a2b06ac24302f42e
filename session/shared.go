package session

import (
	"maps"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/wallet"
)

// Balance returns the wallet's balance, prizes of units not shown yet
// included.
func (s *Session) Balance() decimal.Decimal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wallet.Balance()
}

// Totals returns what the wallet in play has played.
func (s *Session) Totals() wallet.Totals {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wallet.Totals()
}

// BlockStatus is where the block a game and stake sell next stands: a copy,
// that the sales after it do not change.
type BlockStatus struct {
	Number     int64
	Sold       int64
	Remaining  int64
	Left       []int64 // units left by lot (tier)
	Losing     int     // the losing lot's tier
	Commitment [32]byte
}

// Block returns where the block a game and stake sell next stands.
func (s *Session) Block(g lottery.Game, stake decimal.Decimal) (BlockStatus, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.shop.Peek(g, stake)
	if err != nil {
		return BlockStatus{}, err
	}
	st := BlockStatus{Number: b.Number(), Sold: b.Sold(), Remaining: b.Remaining(),
		Losing: b.Table().Losing(), Commitment: b.Seed().Commitment()}
	for i := range b.Table().Tiers() {
		st.Left = append(st.Left, b.Left(i))
	}
	return st, nil
}

// Restored returns what the journal held when the session opened, or nil.
func (s *Session) Restored() *State { return s.restored }

// Recent returns the last units bought in the session, journal included,
// oldest first: at most Options.Limit of them, in a slice of the caller's.
// The kiosk's Restart empties it.
func (s *Session) Recent() []Played {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recent.list()
}

// Wallet returns the session's wallet, for a caller that has the session to
// itself; Balance and Totals read it from anywhere.
func (s *Session) Wallet() *wallet.Wallet { return s.wallet }

// Origin returns the balance the session started from, over its whole
// journal: the balance less Origin is the net result of every purchase the
// journal holds.
func (s *Session) Origin() decimal.Decimal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.origin
}

// Shop returns the session's shop.
func (s *Session) Shop() *lottery.Shop { return s.shop }

// Seed returns the session's master seed (the journal's, when resumed).
func (s *Session) Seed() game.Seed { return s.seed }

// Revealed returns the seeds of the blocks exhausted so far, by block
// (game.BlockID, as its String writes it: ParseBlockID reads it).
func (s *Session) Revealed() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.revealed)
}
