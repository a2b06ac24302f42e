package session

import (
	"github.com/shopspring/decimal"

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
