package session

import (
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
)

// TestRecentCarryReceipts: on a store that signs, each recent unit
// carries its receipt, the one Sell returned, also when the session is
// opened again and reads them from the store; the game in memory signs
// nothing.
func TestRecentCarryReceipts(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "tapis.db")
	o := Options{Store: url, Account: "ann", Seed: game.SeedFrom(5), SeedSet: true, Balance: decimal.NewFromInt(50),
		Tables: store.SmallTables, Key: ledger.PublicTestKey()}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, _, err := s.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, ""); err != nil {
			t.Fatal(err)
		}
	}
	bought := s.Recent()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if len(bought) != 3 {
		t.Fatalf("%d recent units", len(bought))
	}
	house := ledger.PublicTestKey().Public()
	for _, p := range bought {
		if p.Receipt == nil {
			t.Fatalf("unit %s: no receipt", p.Op.Unit)
		}
		if err := p.Receipt.Check(house); err != nil || p.Receipt.Unit != p.Op.Unit || p.Receipt.Number != p.Op.Seq {
			t.Errorf("unit %s: receipt of %s#%d: %v", p.Op.Unit, p.Receipt.Unit, p.Receipt.Number, err)
		}
	}
	again, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	read := again.Recent()
	if len(read) != len(bought) {
		t.Fatalf("opened again: %d recent units, want %d", len(read), len(bought))
	}
	for i, p := range read {
		if p.Receipt == nil || p.Receipt.String() != bought[i].Receipt.String() {
			t.Errorf("opened again, unit %s: receipt %v, want %s", p.Op.Unit, p.Receipt, bought[i].Receipt)
		}
	}
	mem, err := Open(Options{Seed: game.SeedFrom(5), Balance: decimal.NewFromInt(50)})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if _, _, err := mem.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, ""); err != nil {
		t.Fatal(err)
	}
	if r := mem.Recent()[0].Receipt; r != nil {
		t.Errorf("the game in memory gave a receipt: %s", r)
	}
}
