package session

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
)

// TestSharedSession buys from one goroutine while others read the balance,
// the totals, the blocks and the recent units, as a screen does while its
// purchase runs off the update loop: under the race detector (CI runs it
// so), nothing is read half written, and every read agrees with a whole
// number of purchases.
func TestSharedSession(t *testing.T) {
	s, err := Open(Options{Seed: game.SeedFrom(5), Balance: decimal.NewFromInt(1000), Limit: 50,
		Journal: filepath.Join(t.TempDir(), "j.jsonl"), Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 200
	var wg sync.WaitGroup
	wg.Go(func() {
		for range n {
			if _, _, err := s.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, ""); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for range 3 {
		wg.Go(func() {
			for range n {
				tot, bal := s.Totals(), s.Balance()
				if tot.Played > n || bal.IsNegative() {
					t.Errorf("read %+v, balance %s", tot, bal)
					return
				}
				if _, err := s.Block(lottery.Yams(), decimal.NewFromInt(1)); err != nil {
					t.Error(err)
					return
				}
				if len(s.Recent()) > 50 {
					t.Error("more recent units than the limit")
					return
				}
				s.Revealed()
				s.Origin()
			}
		})
	}
	wg.Wait()
	if got := s.Totals().Played; got != n {
		t.Errorf("%d bought, want %d", got, n)
	}
	b, _ := s.Block(lottery.Yams(), decimal.NewFromInt(1))
	if b.Sold != n {
		t.Errorf("the block sold %d, want %d", b.Sold, n)
	}
}
