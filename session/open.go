package session

import (
	"github.com/shopspring/decimal"

	"tapis/internal/ring"
	"tapis/store"
)

// openHeld is OpenOn on a store that holds an account and reads it,
// creating it when new, in one call (store.SQL): on PostgreSQL, a player
// arriving waits for two round trips, not eighteen.
func openHeld(h accountHolder, st store.Store, account string, o Options) (*Session, error) {
	ctx, cancel := deadline()
	defer cancel()
	lease, a, created, err := h.HoldAccount(ctx, account, o.Balance, o.Limit)
	if err != nil {
		return nil, err
	}
	s := newSession(st, account, o)
	s.take(a, created)
	s.lease = lease
	return s, nil
}

// newSession is a session of an account before anything is read of it.
func newSession(st store.Store, account string, o Options) *Session {
	return &Session{st: st, account: account, next: 1, balance: o.Balance, origin: o.Balance,
		staked: decimal.Zero, won: decimal.Zero, recent: ring.Ring[Played]{Limit: o.Limit}}
}

// take sets a session from what its store held of its account when it
// opened (created: the session's opening created it).
func (s *Session) take(a store.Account, created bool) {
	s.next, s.balance, s.origin = a.Purchases+1, a.Balance, a.Deposited
	if r, ok := s.st.(resumer); ok { // it alone knows whether it took up an earlier run
		var resumed bool
		resumed, s.Note, s.Torn = r.Resumed()
		if resumed {
			s.restored = s.stateOf(a)
		}
	} else if !created {
		s.restored = s.stateOf(a)
	}
	for _, r := range a.Recent {
		s.recent.Add(s.playedOf(r))
	}
	if s.restored != nil {
		for _, p := range s.restored.Pending {
			if p.Sold.Layout.Yams != nil || p.Sold.Layout.Vegas != nil { // one a screen can reveal
				s.unseen.add(p.Op.Unit, p.Op.Prize)
			}
		}
	}
}
