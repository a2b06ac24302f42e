package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/internal/pgtest"
	"tapis/ledger"
)

// standFigures checks what a server's first lines read of a store: new
// when its emission was just made, not when opened again; the units sold
// from the blocks' counters; a store that answers, and one closed that
// does not.
func standFigures(t *testing.T, open func() *SQL) {
	ctx := context.Background()
	s := open()
	if !s.Fresh() {
		t.Error("a store just made is not fresh")
	}
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(10)); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Answers(ctx); err != nil {
		t.Errorf("an open store does not answer: %v", err)
	}
	s.Close()
	if err := s.Answers(ctx); err == nil {
		t.Error("a closed store answers")
	}
	again := open()
	if again.Fresh() {
		t.Error("a store opened again is fresh")
	}
	if n, err := again.Sold(ctx); err != nil || n != 3 {
		t.Errorf("sold %d (%v), want 3", n, err)
	}
}

// opener opens the store at url, closed when the test ends.
func opener(t *testing.T, url string) func() *SQL {
	return func() *SQL {
		s, err := Open(context.Background(), url, Options{Key: ledger.PublicTestKey()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}

func TestSQLiteStandFigures(t *testing.T) {
	standFigures(t, opener(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db")))
}

func TestPostgresStandFigures(t *testing.T) {
	standFigures(t, opener(t, pgtest.Fresh(t)))
}
