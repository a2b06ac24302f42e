package store

import (
	"context"
	"database/sql/driver"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tapis/game"
	"tapis/ledger"
)

// A SQLite seller's check reads nothing while no other connection
// commits, and reads the store whole again checkAtLeast after its last
// full read: a change no other connection committed (made here through
// the seller's own connection) is found then. An insider's commit is
// found at once (TestSQLiteStopsSellingOnATamper).
func TestSQLiteCheckSkipsWhatNoOneElseCommitted(t *testing.T) {
	ctx := context.Background()
	var now atomic.Int64
	now.Store(time.Date(2026, 12, 7, 14, 0, 0, 0, time.UTC).UnixNano())
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(34), SeedSet: true, Tables: SmallTables,
		Now: func() time.Time { return time.Unix(0, now.Load()) }})
	if err := s.Check(ctx); err != nil {
		t.Fatalf("a store left alone: %v", err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE emission SET qa = 1`); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(ctx); err != nil {
		t.Fatalf("no one else committed, yet the check read the store: %v", err)
	}
	now.Add(int64(checkAtLeast - time.Second))
	if err := s.Check(ctx); err != nil {
		t.Fatalf("%s after the last full read: %v", checkAtLeast-time.Second, err)
	}
	now.Add(int64(time.Second))
	err := s.Check(ctx)
	if err == nil || !strings.Contains(err.Error(), "QA flag") {
		t.Fatalf("%s after the last full read: %v, want the QA flag found", checkAtLeast, err)
	}
}

// A mark is its connection's: once database/sql replaced the store's
// connection (after a bad one), the next check reads the store whole,
// though the new connection's data_version may be the old one's.
func TestSQLiteCheckReadsAfterTheConnectionChanged(t *testing.T) {
	ctx := context.Background()
	s, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(35), SeedSet: true, Tables: SmallTables})
	if err := s.Check(ctx); err != nil {
		t.Fatalf("a store left alone: %v", err)
	}
	insider := openRaw(t, url)
	defer insider.db.Close()
	insider.exec(`UPDATE emission SET qa = 1`)
	c, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // the connection is dropped: that is the point
	c.Close()
	if err := s.Check(ctx); err == nil || !strings.Contains(err.Error(), "QA flag") {
		t.Fatalf("a check on a new connection after an insider's commit: %v, want the QA flag found", err)
	}
}
