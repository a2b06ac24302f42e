package store

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
)

func TestSQLiteReceipts(t *testing.T) {
	s, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(31), SeedSet: true, Tables: SmallTables, QA: true})
	receiptsOfSales(t, s, url)
}

func TestPostgresReceipts(t *testing.T) {
	s, url := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(31), SeedSet: true, Tables: SmallTables, QA: true})
	receiptsOfSales(t, s, url)
}

// receiptsOfSales sells through Sell (units of blocks, a forced one, a
// deposit between them, a retry) and reads the account's receipts back:
// each checks against the house's key, is the one its Sell returned, and
// follows the one before it in the account's chain; Account's units carry
// theirs; a reader, with no key, reads the same.
func receiptsOfSales(t *testing.T, s *SQL, url string) {
	ctx := context.Background()
	house := ledger.PublicTestKey().Public()
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenAccount(ctx, "bob", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	tier := 1
	sales := []Purchase{
		{Game: lottery.Yams(), Stake: decimal.NewFromInt(1)},
		{Game: lottery.Vegas(), Stake: decimal.NewFromInt(3)},
		{Game: lottery.Yams(), Stake: decimal.NewFromInt(2), Force: &lottery.Force{Tier: &tier}, Label: "QA"},
		{Game: lottery.Yams(), Stake: decimal.RequireFromString("0.5")},
		{Game: lottery.Yams(), Stake: decimal.NewFromInt(1)},
	}
	var sold []ledger.Receipt
	for i, p := range sales {
		if i == 3 { // a deposit between two purchases: the chain goes through it
			if err := s.Deposit(ctx, "ann", decimal.NewFromInt(20)); err != nil {
				t.Fatal(err)
			}
		}
		p.Account, p.Number, p.Attempt = "ann", i+1, "seller"
		r, err := s.Sell(ctx, p)
		if err != nil {
			t.Fatalf("purchase %d: %v", i+1, err)
		}
		if r.Signed == nil {
			t.Fatalf("purchase %d: no receipt", i+1)
		}
		sold = append(sold, *r.Signed)
	}
	// A retry returns the purchase as it was, its receipt with it.
	last := sales[len(sales)-1]
	last.Account, last.Number, last.Attempt = "ann", len(sales), "seller"
	again, err := s.Sell(ctx, last)
	if err != nil || !again.Again || again.Signed == nil || again.Signed.String() != sold[len(sold)-1].String() {
		t.Fatalf("the retry: again %v, receipt %v, %v; want %s", again.Again, again.Signed, err, sold[len(sold)-1])
	}
	got, err := s.Receipts(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(sold) {
		t.Fatalf("%d receipts, %d purchases", len(got), len(sold))
	}
	for i, r := range got {
		if err := r.Check(house); err != nil {
			t.Errorf("receipt %d: %v", i+1, err)
		}
		if r.String() != sold[i].String() {
			t.Errorf("receipt %d read back:\n%s\nsold:\n%s", i+1, r, sold[i])
		}
		if r.Number != i+1 {
			t.Errorf("receipt %d is of purchase %d", i+1, r.Number)
		}
	}
	// ann's chain: her first deposit, three purchases, a deposit, two more.
	for i, want := range []int64{2, 3, 4, 6, 7} {
		if got[i].Seq != want {
			t.Errorf("receipt %d at place %d, want %d", i+1, got[i].Seq, want)
		}
	}
	for i := 1; i < 3; i++ {
		if got[i].Prev != got[i-1].Hash {
			t.Errorf("receipt %d does not follow receipt %d", i+1, i)
		}
	}
	if forced := got[2]; forced.Label != "QA" || forced.Block != 0 || forced.Unit == "" {
		t.Errorf("the forced unit's receipt: label %q, block %d, unit %q", forced.Label, forced.Block, forced.Unit)
	}
	a, err := s.Account(ctx, "ann", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Recent) != 2 || len(a.Pending) != len(sold) {
		t.Fatalf("%d recent, %d pending", len(a.Recent), len(a.Pending))
	}
	for i, r := range a.Recent {
		if r.Signed == nil || r.Signed.String() != sold[len(sold)-2+i].String() {
			t.Errorf("recent purchase %d: receipt %v", r.Op.Seq, r.Signed)
		}
	}
	for _, r := range a.Pending {
		if r.Signed == nil || r.Signed.String() != sold[r.Op.Seq-1].String() {
			t.Errorf("pending purchase %d: receipt %v", r.Op.Seq, r.Signed)
		}
	}
	if none, err := s.Receipts(ctx, "bob"); err != nil || len(none) != 0 {
		t.Errorf("bob, who bought nothing: %d receipts, %v", len(none), err)
	}
	if _, err := s.Receipts(ctx, "zed"); !errors.Is(err, ErrNoAccount) {
		t.Errorf("an account the store does not hold: %v", err)
	}
	// A reader, holding no key, reads the same receipts.
	reader, err := Open(ctx, url, Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	read, err := reader.Receipts(ctx, "ann")
	if err != nil || len(read) != len(sold) {
		t.Fatalf("the reader: %d receipts, %v", len(read), err)
	}
	for i, r := range read {
		if r.String() != sold[i].String() {
			t.Errorf("the reader's receipt %d:\n%s\nsold:\n%s", i+1, r, sold[i])
		}
	}
	// EachReceipt stops at its function's error.
	stop := errors.New("enough")
	n := 0
	if err := reader.EachReceipt(ctx, "ann", func(ledger.Receipt) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("EachReceipt after an error: %d receipts, %v", n, err)
	}
}
