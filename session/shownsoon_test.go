package session

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
)

// TestShownOnDiskWithinASecond: on a shared store, a unit seen to the end
// is on disk within a second, no purchase after it to carry it and the
// session still open (what a SIGKILL would leave): read by another seller, it is
// not pending; a unit bought and not seen is.
func TestShownOnDiskWithinASecond(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "tapis.db")
	s, err := Open(Options{Store: url, Account: "ann", Balance: decimal.NewFromInt(100), Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	covered, _, err := s.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	seen, _, err := s.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := s.Shown(seen.Ref()); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 50*time.Millisecond {
		t.Errorf("Shown waited %v: the screen waits for no transaction", time.Since(start))
	}
	other, err := store.Open(context.Background(), url, store.Options{Key: ledger.PublicTestKey(), Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	time.Sleep(time.Second)
	a, err := other.Account(context.Background(), "ann", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Pending) != 1 || a.Pending[0].Sold.Name() != covered.Name() {
		var names []string
		for _, p := range a.Pending {
			names = append(names, p.Sold.Name())
		}
		t.Errorf("a second after: pending %v, want only %s (%s was seen)", names, covered.Name(), seen.Name())
	}
}
