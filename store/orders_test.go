package store

import (
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
)

// TestOrdersDrawAsFarAsNeeded: a block's order drawn serial by serial, as
// far as sales need it, is its whole draw order (game.DrawOrder), and the
// whole order asked for afterwards is the same.
func TestOrdersDrawAsFarAsNeeded(t *testing.T) {
	table, err := lottery.Yams().Table(decimal.NewFromInt(1))
	if err != nil {
		t.Fatal(err)
	}
	seed := game.SeedFrom(5).Block("yams", decimal.NewFromInt(1), 1)
	want, err := game.DrawOrder(table, seed)
	if err != nil {
		t.Fatal(err)
	}
	id := game.BlockID{Game: "yams", Stake: decimal.NewFromInt(1), Block: 1}
	o := newOrders(4)
	for _, serial := range []int64{1, 2, 4096, 4097, 9000, 50_000, 699_999, table.Units} {
		tier, err := o.tier(id, table, seed, serial)
		if err != nil {
			t.Fatal(err)
		}
		if tier != int(want[serial-1]) {
			t.Fatalf("serial %d: tier %d, want %d", serial, tier, want[serial-1])
		}
	}
	if _, err := o.tier(id, table, seed, table.Units+1); err == nil {
		t.Error("a serial past the block's end was dealt")
	}
	got, err := o.get(id, table, seed)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("the whole order after sales: %d tiers (%v), want the block's %d", len(got), err, len(want))
	}
	fresh, err := newOrders(4).get(id, table, seed)
	if err != nil || !slices.Equal(fresh, want) {
		t.Errorf("the whole order at once: %d tiers (%v), want the block's %d", len(fresh), err, len(want))
	}
}
