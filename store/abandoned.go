package store

import (
	"context"
	"fmt"
)

// LeaveAbandoned marks as left (no secret: the board counts them) the
// units being revealed of accounts no seller holds: a seller killed,
// whose player never comes back (a guest, a new name each time), left
// them so. An account held, here or by any other process, is passed
// over; of the others, only the units bought before the sweep found the
// account free are marked, so that a seller taking it meanwhile keeps its
// own. It returns how many units it marked.
func (s *SQL) LeaveAbandoned(ctx context.Context) (int64, error) {
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
		if !s.leases.holding(a) {
			accounts = append(accounts, a)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(accounts) == 0 {
		return 0, err
	}
	lock, err := s.leases.reserveLock(ctx, s)
	if err != nil {
		return 0, err
	}
	now, err := s.dbNow(ctx)
	if err != nil {
		return 0, err
	}
	var marked int64
	for _, a := range accounts {
		s.leases.engine.Lock()
		held, err := lock.held(ctx, leaseKey(a))
		s.leases.engine.Unlock()
		if err != nil {
			return marked, fmt.Errorf("store: account %q's lease: %w", a, oneLine{err})
		}
		if held {
			continue
		}
		res, err := s.db.ExecContext(ctx, s.dialect.q(leaveUnseen+` AND at < $2`), a, now.UnixNano())
		if err != nil {
			return marked, fmt.Errorf("store: account %q's units left unseen: %w", a, oneLine{err})
		}
		n, _ := res.RowsAffected()
		marked += n
	}
	return marked, nil
}
