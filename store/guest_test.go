package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/ledger"
)

func TestSQLiteGuests(t *testing.T) {
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey()})
	guests(t, s)
}

func TestPostgresGuests(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey()})
	guests(t, s)
}

// guests: a guest's account is marked so; forgotten while it bought
// nothing, its deposit with it; kept once it bought, as any account is;
// an account that is no guest's is never forgotten.
func guests(t *testing.T, s *SQL) {
	ctx := context.Background()
	hundred := decimal.NewFromInt(100)
	for _, name := range []string{"guest-idle", "guest-buyer"} {
		if created, err := s.OpenGuest(ctx, name, hundred); err != nil || !created {
			t.Fatalf("OpenGuest %s: %v, %v", name, created, err)
		}
	}
	if _, err := s.OpenAccount(ctx, "ann", hundred); err != nil {
		t.Fatal(err)
	}
	if a, err := s.Account(ctx, "guest-idle", 0); err != nil || !a.Guest || !a.Balance.Equal(hundred) {
		t.Fatalf("a guest's account: %+v, %v", a, err)
	}
	if a, err := s.Account(ctx, "ann", 0); err != nil || a.Guest {
		t.Fatalf("a keyed account: %+v, %v", a, err)
	}
	if _, err := s.Sell(ctx, Purchase{Account: "guest-buyer", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		gone bool
	}{{"guest-idle", true}, {"guest-buyer", false}, {"ann", false}, {"guest-idle", false}} {
		gone, err := s.ForgetGuest(ctx, c.name)
		if err != nil || gone != c.gone {
			t.Errorf("ForgetGuest %s: %v, %v; want %v", c.name, gone, err, c.gone)
		}
	}
	if _, err := s.Account(ctx, "guest-idle", 0); !errors.Is(err, ErrNoAccount) {
		t.Errorf("a guest forgotten: %v", err)
	}
	r, err := s.Verify(ctx)
	if err != nil || !r.OK() || r.Accounts != 2 {
		t.Errorf("verify after a guest forgotten: %d accounts, %v (%v)", r.Accounts, r.Problems, err)
	}
}

// TestSQLiteMigratesVersion1: a store of schema version 1 with no
// emission yet (no guest column, none of version 3's; the tapis before
// goose) opens migrated to the current version, its accounts no guests'.
func TestSQLiteMigratesVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	ctx := context.Background()
	storeBeforeGoose(t, sqliteTest(), "sqlite:"+path, 1)
	execAll(t, "sqlite:"+path, `INSERT INTO accounts (name, balance, deposited, purchases, deposits, created) VALUES ('ann', 0, 0, 0, 0, 1)`)
	s, err := Open(ctx, "sqlite:"+path, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatalf("opening a version 1 store: %v", err)
	}
	defer s.Close()
	if v, err := s.version(ctx, s.db); err != nil || v != SchemaVersion {
		t.Errorf("migrated: version %d (%v), want %d", v, err, SchemaVersion)
	}
	if a, err := s.Account(ctx, "ann", 0); err != nil || a.Guest {
		t.Errorf("an account of version 1: %+v, %v", a, err)
	}
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(5)); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Verify(ctx); err != nil || !r.OK() {
		t.Errorf("verify of the migrated store: %v (%v)", r.Problems, err)
	}
}
