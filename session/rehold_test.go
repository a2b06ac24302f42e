package session

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/internal/pgtest"
	"tapis/ledger"
	"tapis/store"
)

// TestPostgresSessionHoldsAgain cuts the connection that holds a session's
// account, as a database restart does, and lets another seller take the
// account and buy: the session's purchases are refused (nothing bought)
// while the other holds it; the first one after it lets the account go
// is refused too, and takes the account again: the next is sold under the
// new lease, numbered after the other seller's.
func TestPostgresSessionHoldsAgain(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Fresh(t)
	a, err := store.Open(ctx, url, store.Options{Key: ledger.PublicTestKey(), Tables: store.SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenOn(a, "ann", Options{Balance: decimal.NewFromInt(100)})
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	defer s.Close()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := store.Open(ctx, url, store.Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// The lock's connection cut, as a database restart cuts it: another
	// seller takes the account before the session's store takes its lock
	// again (every second, keep). The cut is made again should the store
	// be first, up to a few times: a seller arriving in that second is
	// what is tested, not which comes first.
	var other *store.Lease
	for try := 1; other == nil; try++ {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_locks
			WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("cutting the lock's connection: %d, %v", n, err)
		}
		for start := time.Now(); n > 0 && time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
			if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&n); err != nil {
				t.Fatal(err)
			}
		}
		if other, err = b.Hold(ctx, "ann"); err != nil && try == 5 {
			t.Fatalf("the account, its lock gone, not taken in %d tries: %v", try, err)
		}
	}
	three := decimal.NewFromInt(3)
	if _, err := b.Sell(ctx, store.Purchase{Account: "ann", Number: 1, Game: lottery.Vegas(), Stake: three, Lease: other.Token()}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Buy(lottery.Vegas(), three, nil, ""); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("a purchase while another seller holds the account: %v", err)
	}
	if _, _, err := s.Buy(lottery.Vegas(), three, nil, ""); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("a purchase while another seller still holds the account: %v", err)
	}
	if err := other.Release(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Buy(lottery.Vegas(), three, nil, ""); !errors.Is(err, store.ErrLeaseLost) {
		t.Fatalf("the purchase that takes the account again: %v", err)
	}
	_, op, err := s.Buy(lottery.Vegas(), three, nil, "")
	if err != nil {
		t.Fatalf("a purchase once the account is free again: %v", err)
	}
	if op.Seq != 2 || s.Totals().Played != 1 {
		t.Errorf("purchase number %d, %d played here; want 2 and 1", op.Seq, s.Totals().Played)
	}
}
