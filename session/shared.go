package session

import (
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/store"
	"tapis/wallet"
)

// Balance returns the account's balance as the session's last purchase
// left it (or as the store held it when the session opened), prizes of
// units not shown yet included.
func (s *Session) Balance() decimal.Decimal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.balance
}

// Totals returns what the session has played in this run (since the
// kiosk's last Restart).
func (s *Session) Totals() wallet.Totals {
	s.mu.Lock()
	defer s.mu.Unlock()
	return wallet.Totals{Played: s.played, Staked: s.staked, Won: s.won, Net: s.won.Sub(s.staked)}
}

// BlockStatus is where the block a game and stake sell next stands: a copy,
// that the sales after it do not change.
type BlockStatus = store.BlockStatus

// Block returns where the block a game and stake sell next stands.
func (s *Session) Block(g lottery.Game, stake decimal.Decimal) (BlockStatus, error) {
	ctx, cancel := deadline()
	defer cancel()
	return s.st.Block(ctx, g.Seq(stake))
}

// State is what a store held of an account when a session opened on it.
type State struct {
	Start     decimal.Decimal // the journal's starting balance, or every deposit to the account
	Balance   decimal.Decimal // prizes of units not shown yet included
	Purchases int             // the purchases it held, the number of the last one
	Pending   []Played        // the units bought and never shown, oldest first: the game offers them first
}

// Restored returns what the store held of the account when the session
// opened: its start, balance, purchases and units never shown; nil for a
// session in memory, on a new journal, and for an account the session
// created.
func (s *Session) Restored() *State { return s.restored }

// Recent returns the last units bought in the session, the store's
// included, oldest first: at most Options.Limit of them, in a slice of the
// caller's. The kiosk's Restart empties it.
func (s *Session) Recent() []Played {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recent.List()
}

// RecentLimit returns how many units Recent returns at most
// (Options.Limit): what a history listing them says it keeps.
func (s *Session) RecentLimit() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recent.Limit
}

// RecentSeq returns how many units Recent would return and the newest's
// purchase number (0 when there is none), without copying them: what a
// screen listing them reads on every frame to tell whether they changed
// since it drew them.
func (s *Session) RecentSeq() (n, newest int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p := range s.recent.Newest() {
		return s.recent.Len(), p.Op.Seq
	}
	return 0, 0
}

// Wallet returns the wallet of a session on a store that settles its
// units itself (in memory or on a journal), for a caller that has the
// session to itself (Balance and Totals read from anywhere); nil on
// another store.
func (s *Session) Wallet() *wallet.Wallet {
	if d, ok := s.st.(dealer); ok {
		return d.Wallet()
	}
	return nil
}

// Origin returns the balance the session started from, over its whole
// journal (over every deposit to the account, on a store): the balance
// less Origin is the net result of every purchase the store holds.
func (s *Session) Origin() decimal.Decimal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.origin
}

// Shop returns the shop of a session on a store that deals its units
// itself (in memory or on a journal); nil on another store.
func (s *Session) Shop() *lottery.Shop {
	if d, ok := s.st.(dealer); ok {
		return d.Shop()
	}
	return nil
}

// Seed returns the master seed of a session on a store that deals its
// units itself (the journal's, when resumed); 0 on another store, which
// keeps its own.
func (s *Session) Seed() game.Seed {
	if d, ok := s.st.(dealer); ok {
		return d.Seed()
	}
	return game.Seed{}
}

// Revealed returns the blocks exhausted so far and their seeds; nil when
// the store cannot tell now.
func (s *Session) Revealed() []store.Reveal {
	ctx, cancel := deadline()
	defer cancel()
	r, err := s.st.Revealed(ctx)
	if err != nil {
		return nil
	}
	return r
}

// Account returns the name of the account the session buys for.
func (s *Session) Account() string { return s.account }
