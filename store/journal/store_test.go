package journal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/ledger"
	"tapis/store"
)

func clock() func() time.Time {
	t := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

// pick alternates Yam's at 1 € and Vegas.
func pick(i int) (lottery.Game, decimal.Decimal) {
	if i%2 == 1 {
		return lottery.Vegas(), vegas.Price()
	}
	return lottery.Yams(), decimal.NewFromInt(1)
}

// writeJournal buys n units on a new journal of o, alternating Yam's at
// 1 € and Vegas, shows each as the game does, and returns what the journal
// holds: what a session buying so writes.
func writeJournal(t testing.TB, o Options, n int) []byte {
	t.Helper()
	o.Account = "local"
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range n {
		g, stake := pick(i)
		r, err := s.Sell(ctx, store.Purchase{Account: o.Account, Number: i + 1, Game: g, Stake: stake})
		if err != nil {
			t.Fatal(err)
		}
		s.Shown(ctx, o.Account, r.Sold.Ref())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(o.Path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLocalStore is the memory and journal store as a store.Store: one
// account; a purchase of a number already made is returned again while it
// is kept, another game or stake under that number is refused, and a
// number out of turn; deposits go to memory only.
func TestLocalStore(t *testing.T) {
	ctx := context.Background()
	yams, one := lottery.Yams(), decimal.NewFromInt(1)
	for _, journal := range []bool{false, true} {
		o := Options{Seed: game.SeedFrom(4), Balance: decimal.NewFromInt(50), Tables: store.SmallTables, Account: "bob", Limit: 2, Key: ledger.PublicTestKey()}
		if journal {
			o.Path = filepath.Join(t.TempDir(), "journal.jsonl")
		}
		l, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		buy := func(n int, g lottery.Game, stake decimal.Decimal) (store.Receipt, error) {
			return l.Sell(ctx, store.Purchase{Account: "bob", Number: n, Game: g, Stake: stake})
		}
		var made []store.Receipt
		for n := 1; n <= 4; n++ {
			r, err := buy(n, yams, one)
			if err != nil || r.Again || r.Op.Seq != n {
				t.Fatalf("journal %v: purchase %d: %+v, %v", journal, n, r, err)
			}
			made = append(made, r)
		}
		l.Shown(ctx, "bob", made[1].Sold.Ref())
		if r, err := buy(4, yams, one); err != nil || !r.Again || r.Op.Unit != made[3].Op.Unit || r.Shown {
			t.Errorf("journal %v: the last purchase again: %+v, %v", journal, r, err)
		}
		if r, err := buy(1, yams, one); err != nil || !r.Again || r.Op.Unit != made[0].Op.Unit {
			t.Errorf("journal %v: an unshown purchase again: %+v, %v", journal, r, err)
		}
		if _, err := buy(2, yams, one); !errors.Is(err, store.ErrOutOfTurn) {
			t.Errorf("journal %v: a purchase shown and no longer recent: %v", journal, err)
		}
		if _, err := buy(4, yams, decimal.NewFromInt(2)); !errors.Is(err, store.ErrOtherPurchase) {
			t.Errorf("journal %v: another stake under a number made: %v", journal, err)
		}
		if _, err := buy(6, yams, one); !errors.Is(err, store.ErrOutOfTurn) {
			t.Errorf("journal %v: a number ahead: %v", journal, err)
		}
		if _, err := l.Sell(ctx, store.Purchase{Account: "carol", Number: 5, Game: yams, Stake: one}); !errors.Is(err, store.ErrNoAccount) {
			t.Errorf("journal %v: another account: %v", journal, err)
		}
		if _, err := l.Account(ctx, "carol", 1); !errors.Is(err, store.ErrNoAccount) {
			t.Errorf("journal %v: another account: %v", journal, err)
		}
		err = l.Deposit(ctx, "bob", decimal.NewFromInt(7))
		if journal != (err != nil) {
			t.Errorf("journal %v: a deposit: %v", journal, err)
		}
		deposited := decimal.NewFromInt(50)
		if !journal {
			deposited = decimal.NewFromInt(57)
		}
		a, err := l.Account(ctx, "bob", 5)
		if err != nil {
			t.Fatal(err)
		}
		if a.Purchases != 4 || !a.Deposited.Equal(deposited) || len(a.Pending) != 3 || len(a.Recent) != 2 || a.Recent[1].Op.Seq != 4 ||
			!a.Balance.Equal(made[3].Op.After.Add(deposited).Sub(decimal.NewFromInt(50))) {
			t.Errorf("journal %v: account %+v", journal, a)
		}
		b, err := l.Block(ctx, yams.Seq(one))
		if err != nil || b.Sold != 4 || b.Number != 1 {
			t.Errorf("journal %v: block %+v, %v", journal, b, err)
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
