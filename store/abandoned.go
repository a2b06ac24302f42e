package store

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"tapis/internal/beat"
)

// LeaseStale is how long a lease's line in sellers may go unrenewed
// before the sweep takes its holder for gone: a serving process renews
// its own every few seconds (RenewLeases).
const LeaseStale = time.Minute

// LeaseRenewEvery is how often a store holding accounts renews them
// (RenewLeases), on its own, whatever sells from it: a game, a simulate
// or a server.
const LeaseRenewEvery = 10 * time.Second

// renewLeases renews the store's leases every LeaseRenewEvery until stop
// is called; l.mu held by the caller, the lock just opened.
func (s *SQL) renewLeases() {
	done, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		every := cmp.Or(s.leases.every, LeaseRenewEvery)
		renew := beat.NewTicker(every)
		defer renew.Stop()
		keep := beat.NewTicker(min(keepEvery, every))
		defer keep.Stop()
		for {
			ctx, cancel := context.WithTimeout(context.Background(), LeaseRenewEvery)
			select {
			case <-done:
				cancel()
				return
			case <-renew.C:
				s.RenewLeases(ctx) //nolint:errcheck // a purchase says what a lost lease costs; a server logs RenewalFailed
			case <-keep.C:
				// The locks taken again within a second of a restart: a
				// ping on their connection, nothing written.
				if err := s.leases.keep(ctx); err != nil {
					s.leases.unanswered()
				}
			}
			cancel()
		}
	}()
	s.leases.stop = func() { close(done); <-over }
}

// RenewLeases takes this process's accounts' locks again if they were
// lost (a PostgreSQL restart drops them: a seller arriving in between
// takes the account, and this process's purchases of it are refused by
// their token), and says in sellers that this process still holds its
// accounts: the sweep of another server leaves their units alone, even
// should this process's lock be lost for a moment.
func (s *SQL) RenewLeases(ctx context.Context) (err error) {
	defer func() { s.leases.renewed(err) }() // the sweep's calm and the server's log
	if err := s.leases.keep(ctx); err != nil {
		return fmt.Errorf("store: holding this process's accounts again: %w", oneLine{err})
	}
	tokens := s.leases.tokens()
	if len(tokens) == 0 {
		return nil
	}
	now, err := s.dbNow(ctx)
	if err != nil {
		return err
	}
	args := []any{now.UnixNano()}
	marks := make([]string, len(tokens))
	for i, t := range tokens {
		args = append(args, t)
		marks[i] = fmt.Sprintf("$%d", i+2)
	}
	_, err = s.db.ExecContext(ctx, s.engine.q(`UPDATE sellers SET seen = $1 WHERE token IN (`+strings.Join(marks, ", ")+`)`), args...)
	if err != nil {
		return fmt.Errorf("store: renewing this process's leases: %w", oneLine{err})
	}
	return nil
}

// RenewalFailed returns why, and when, the last renewal of this
// process's leases that failed since its last call failed, and forgets
// it; a nil error when none did. The store renews them on its own
// (LeaseRenewEvery), and a server says in its log when it could not: a
// failure is kept until read, so that one followed at once by a renewal
// answered is logged all the same, with its time (the database may be
// back by then).
func (s *SQL) RenewalFailed() (time.Time, error) {
	s.leases.mu.Lock()
	defer s.leases.mu.Unlock()
	err := s.leases.failure
	s.leases.failure = nil
	if err == nil {
		return time.Time{}, nil
	}
	return s.leases.failureAt, err
}

// renewed records a renewal's outcome: err nil when the database
// answered it.
func (l *leases) renewed(err error) {
	if err == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	l.failed, l.failure, l.failureAt = now, err, now
}

// LeaveAbandoned marks as left (no secret: the board counts them) the
// units being revealed of accounts no seller holds: a seller killed,
// whose player never comes back (a guest, a new name each time), left
// them so. An account is passed over while a process holds its lock, or
// its line in sellers was renewed within LeaseStale; of the others, only
// the units bought before the sweep began are marked, so that a seller
// taking one meanwhile keeps its own. It returns how many units it
// marked. For sweepCalm after the database last failed to answer this
// process (a restart), it marks nothing: every seller's line is stale
// then, and its locks are being taken again.
func (s *SQL) LeaveAbandoned(ctx context.Context) (int64, error) {
	if !s.leases.steady() {
		// The database did not answer a moment ago (a restart): every
		// seller's line is stale and its locks may not be taken again yet.
		// Live sellers renew theirs first.
		return 0, nil
	}
	now, err := s.dbNow(ctx)
	if err != nil {
		s.leases.unanswered() // the next sweeps wait for the sellers to renew
		return 0, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT account FROM purchases WHERE shown = 0`)
	if err != nil {
		return 0, fmt.Errorf("store %s: reading the units being revealed: %w", s.where, oneLine{err})
	}
	var accounts []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return 0, fmt.Errorf("store %s: reading the units being revealed: %w", s.where, err)
		}
		accounts = append(accounts, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(accounts) == 0 {
		return 0, err
	}
	lock, err := s.leases.reserveLock(ctx, s)
	if err != nil {
		return 0, err
	}
	var marked int64
	for _, a := range accounts {
		if s.leases.holding(a) { // this process's, checked once now is read
			continue
		}
		s.leases.engine.Lock()
		held, err := lock.held(ctx, leaseKey(a))
		s.leases.engine.Unlock()
		if err != nil {
			return marked, fmt.Errorf("store: account %q's lease: %w", a, oneLine{err})
		}
		if held {
			continue
		}
		left, err := s.leaveUnseen(ctx, s.db, a, `AND at < $2
			AND NOT EXISTS (SELECT 1 FROM sellers WHERE account = $1 AND seen > $3)`, now.UnixNano(), now.Add(-LeaseStale).UnixNano())
		if err != nil {
			return marked, fmt.Errorf("store: account %q's units left unseen: %w", a, oneLine{err})
		}
		s.noteMarks(left)
		marked += int64(len(left))
	}
	return marked, nil
}
