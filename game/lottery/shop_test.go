package lottery

import (
	"tapis/game"

	"testing"

	"github.com/shopspring/decimal"
)

// TestShopSellsLikeDeal checks a shop sells the units `deal` deals from the
// same seed, game by game and stake by stake, whatever the interleaving.
func TestShopSellsLikeDeal(t *testing.T) {
	shop := NewShop(game.SeedFrom(11))
	one, half := decimal.NewFromInt(1), decimal.RequireFromString("0.5")
	var got []Sold
	for range 5 {
		for _, buy := range []struct {
			g     Game
			stake decimal.Decimal
		}{{Yams(), one}, {Vegas(), Vegas().DefaultStake}, {Yams(), half}} {
			s, err := shop.Sell(buy.g, buy.stake)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Layout.Score().Prize().Equal(s.Unit.Prize) {
				t.Fatalf("unit %s shows %s, drawn %s", s.Unit.ID, s.Layout.Score().Prize(), s.Unit.Prize)
			}
			got = append(got, s)
		}
	}
	// The fifth unit at 1 € is serial 5 of block 1, as deal --unit finds it.
	u := got[12].Unit
	if u.ID.String() != "yams:1:1:5" {
		t.Fatalf("unit %s", u.ID)
	}
	tb, _ := Yams().Table(one)
	if again := unitOf(t, Yams(), tb, game.SeedFrom(11), 5); again.Tier != u.Tier {
		t.Errorf("shop sold tier %d, sequence %d", u.Tier, again.Tier)
	}
	b, _ := shop.Block(Vegas(), Vegas().DefaultStake)
	if b.Sold() != 5 {
		t.Errorf("vegas block sold %d", b.Sold())
	}
	if _, err := shop.Sell(Yams(), decimal.NewFromInt(3)); err == nil {
		t.Error("sold yams at 3 €")
	}
}
