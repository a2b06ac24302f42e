package store

import (
	"context"
	"fmt"
)

// What a stand's host reads of the store as a server starts and while it
// serves: whether it was just made, what it sold, whether it answers.

// Fresh reports whether Open created the store's emission: a store just
// made, where a host expected one with the day's sales (run from another
// folder, or another --state-dir) sees it in the server's first lines.
func (s *SQL) Fresh() bool { return s.fresh }

// Sold returns how many units the emission sold so far, every game and
// block, from the blocks' counters (one row a block, not a scan of the
// purchases).
func (s *SQL) Sold(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(sold), 0) FROM blocks`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store %s: counting the units sold: %w", s.where, oneLine{err})
	}
	return n, nil
}

// Answers returns nil when the store's database answers a query now (the
// units sold): what a health check asks.
func (s *SQL) Answers(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return fmt.Errorf("store %s: %w", s.where, oneLine{err})
	}
	_, err := s.Sold(ctx)
	return err
}
