package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/internal/pgtest"
	"tapis/ledger"
)

func TestSQLiteHoldAccount(t *testing.T) {
	holdAccount(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
}

func TestPostgresHoldAccount(t *testing.T) {
	holdAccount(t, pgtest.Fresh(t))
}

// holdAccount: HoldAccount creates a new account with its balance, once,
// as one deposit; holds it as Hold does (another seller refused, a
// purchase under its lease sold); and, the account taken up again, reads
// it as Account does, its last seller's unit being revealed left, every
// record signed as verify checks.
func holdAccount(t *testing.T, url string) {
	ctx := context.Background()
	a, b := openLeasing(t, url), openLeasing(t, url)
	hundred := decimal.NewFromInt(100)
	lease, acc, created, err := a.HoldAccount(ctx, "ann", hundred, 10)
	if err != nil || !created {
		t.Fatalf("a new account: created %v, %v", created, err)
	}
	if !acc.Balance.Equal(hundred) || !acc.Deposited.Equal(hundred) || acc.Purchases != 0 || acc.Guest || len(acc.Pending)+len(acc.Recent) != 0 {
		t.Fatalf("a new account read: %+v", acc)
	}
	a.book.mu.Lock()
	k, noted := a.book.known["ann"]
	a.book.mu.Unlock()
	if !noted || k.Seq != 1 || k.balance != 10000 {
		t.Errorf("the seller's book after the account's creation: %+v (noted %v), want its deposit, record 1", k, noted)
	}
	var inUse *InUseError
	if _, _, _, err := b.HoldAccount(ctx, "ann", hundred, 10); !errors.As(err, &inUse) {
		t.Fatalf("held by another seller: %v", err)
	}
	sold, err := a.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(2), Lease: lease.Token()})
	if err != nil {
		t.Fatalf("a purchase under the lease: %v", err)
	}
	// Its seller gone with the unit being revealed: the lock let go, its
	// line left as it was (a process killed).
	if err := a.leases.give(a.leases.lock, leaseKey("ann")); err != nil {
		t.Fatal(err)
	}
	lease, acc, created, err = b.HoldAccount(ctx, "ann", hundred, 10)
	b.book.mu.Lock() // read at once: the next head, within HeadEvery, takes them
	marks := b.book.marks
	b.book.mu.Unlock()
	if err != nil || created {
		t.Fatalf("the account taken up by another seller: created %v, %v", created, err)
	}
	if len(marks) != 1 || marks[0].Unit != sold.Op.Unit || marks[0].Value != ledger.Left {
		t.Errorf("the marks the seller's next head covers: %+v, want the unit left", marks)
	}
	defer lease.Release()
	want, err := b.Account(ctx, "ann", 10)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(acc, want) {
		t.Errorf("HoldAccount read\n%+v\nAccount reads\n%+v", acc, want)
	}
	if acc.Purchases != 1 || !acc.Balance.Equal(sold.Op.After) || len(acc.Pending) != 1 || acc.Pending[0].Shown || len(acc.Recent) != 1 {
		t.Errorf("the account taken up: %+v", acc)
	}
	var shown int
	if err := b.db.QueryRowContext(ctx, b.engine.q(`SELECT shown FROM purchases WHERE account = $1`), "ann").Scan(&shown); err != nil || shown != shownLeft {
		t.Errorf("its last seller's unit: shown %d (%v), want left (%d)", shown, err, shownLeft)
	}
	var token string
	if err := b.db.QueryRowContext(ctx, b.engine.q(sellerToken), "ann").Scan(&token); err != nil || token != lease.Token() {
		t.Errorf("the holder's line: token %q (%v), want the lease's %q", token, err, lease.Token())
	}
	if _, _, _, err := b.HoldAccount(ctx, "bob", decimal.RequireFromString("0.001"), 10); err == nil {
		t.Error("a balance of a tenth of a cent opened an account")
	}
	if _, err := b.Account(ctx, "bob", 0); !errors.Is(err, ErrNoAccount) {
		t.Errorf("an account refused is not held or made: %v", err)
	}
	r, err := b.Verify(ctx)
	if err != nil || !r.OK() || r.Accounts != 1 {
		t.Errorf("verify: %d accounts, %v (%v)", r.Accounts, r.Problems, err)
	}
}

// TestPostgresWarm: Warm opens every connection of the pool, idle for
// the players to come, and waits for none in use; on SQLite it has
// nothing to do.
func TestPostgresWarm(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey()})
	if err := s.Warm(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := s.db.Stats(); st.OpenConnections != pgConns || st.Idle != pgConns {
		t.Errorf("warmed: %d connections open, %d idle; want %d", st.OpenConnections, st.Idle, pgConns)
	}
	// Called again with an account held (the lock's connection in use),
	// it waits for no connection the pool cannot open.
	l, err := s.Hold(context.Background(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Warm(ctx); err != nil {
		t.Errorf("warmed with an account held: %v", err)
	}
	q, _ := openSQLite(t, Options{Key: ledger.PublicTestKey()})
	if err := q.Warm(context.Background()); err != nil {
		t.Errorf("SQLite: %v", err)
	}
}
