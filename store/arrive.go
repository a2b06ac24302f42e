package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"
)

// HoldAccount is what a seller does when a player arrives: it holds the
// account for this seller (Hold) and reads it (Account), creating it
// first with balance, as OpenAccount does, when the store has no such
// account; it reports whether it created it. On PostgreSQL it takes two
// round trips after the lock's (arrivePostgres), where the three calls
// take about eighteen: a room of players arriving at once waits for the
// database's work, not for its answers' turns.
func (s *SQL) HoldAccount(ctx context.Context, account string, balance decimal.Decimal, recent int) (*Lease, Account, bool, error) {
	if err := accountNamed(account); err != nil {
		return nil, Account{}, false, err
	}
	var (
		a             Account
		created, done bool
	)
	lease, err := s.hold(ctx, account, func(token string) error {
		var err error
		a, created, done, err = s.engine.arrive(ctx, s, arrival{account: account, token: token, balance: balance, recent: recent})
		if err != nil || done {
			return err
		}
		return s.takeOver(ctx, account, token)
	})
	if err != nil {
		return nil, Account{}, false, err
	}
	if !done {
		if a, created, err = s.openAndRead(ctx, account, balance, recent); err != nil {
			lease.Release() //nolint:errcheck // the error said is the reading's
			return nil, Account{}, false, err
		}
	}
	return lease, a, created, nil
}

// arrival is an account HoldAccount holds: its lease's token, the balance
// it is created with when new, and how many recent purchases are read.
type arrival struct {
	account, token string
	balance        decimal.Decimal
	recent         int
}

// openAndRead reads an account, creating it first when the store has none
// of that name (sellers opening it at once credit it once).
func (s *SQL) openAndRead(ctx context.Context, account string, balance decimal.Decimal, recent int) (Account, bool, error) {
	a, err := s.Account(ctx, account, recent)
	if !errors.Is(err, ErrNoAccount) {
		return a, false, err
	}
	created, err := s.OpenAccount(ctx, account, balance)
	if err != nil {
		return Account{}, false, fmt.Errorf("opening account %q: %w", account, err)
	}
	a, err = s.Account(ctx, account, recent)
	return a, created, err
}

// Warm readies a store for a room of players arriving at once, as a
// server does when it starts, before any player: on PostgreSQL every
// connection of the pool is opened, each with an arrival's statements
// prepared (warmPostgres). SQLite has nothing to ready.
func (s *SQL) Warm(ctx context.Context) error { return s.engine.warm(ctx, s) }
