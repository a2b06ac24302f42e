package lottery

import (
	"reflect"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/vegas"
	"tapis/game/yams"
)

// TestForceLeavesBlocksAlone forces every kind of unit between real sales
// and checks no block's counts move (ruling G6), every forced unit pays what
// its layout scores, and the real units are those of an unforced shop.
func TestForceLeavesBlocksAlone(t *testing.T) {
	one := decimal.NewFromInt(1)
	forcedShop, plainShop := NewShop(9), NewShop(9)
	total := 100
	combos := [3]yams.Combination{yams.Yams, yams.LargeStraight, yams.Pair}
	split := vegas.Splits(40_000)[0]
	loaded, err := Parse([]byte(vegasDoc))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		tier := i % 10
		forces := []struct {
			g Game
			f Force
		}{
			{Yams(), Force{Tier: &tier}}, {Yams(), Force{Total: &total}}, {Yams(), Force{Combos: &combos}},
			{Vegas(), Force{Tier: &tier}}, {Vegas(), Force{Split: &split}}, {Vegas(), Force{Layout: &loaded}},
		}
		for _, fc := range forces {
			stake := one
			if fc.g.Name == vegas.Name {
				stake = vegas.Price()
			}
			before := counts(t, forcedShop, fc.g, stake)
			s, err := forcedShop.Force(fc.g, stake, fc.f, "QA")
			if err != nil {
				t.Fatal(err)
			}
			if after := counts(t, forcedShop, fc.g, stake); !reflect.DeepEqual(before, after) {
				t.Fatalf("forcing %s changed the block: %v → %v", fc.f.Describe(), before, after)
			}
			if !s.Layout.Score().Prize().Equal(s.Unit.Prize) || s.Forced == nil || s.Forced.Label != "QA" {
				t.Fatalf("forced %s: %+v", fc.f.Describe(), s)
			}
			switch {
			case fc.f.Total != nil && s.Layout.Yams.Score().Points != total:
				t.Fatalf("forced 100 points, dealt %d", s.Layout.Yams.Score().Points)
			case fc.f.Combos != nil && s.Layout.Yams.Score().Combinations != combos:
				t.Fatalf("forced %v, dealt %v", combos, s.Layout.Yams.Score().Combinations)
			case fc.f.Split != nil && !s.Unit.Prize.Equal(decimal.NewFromInt(40_000)):
				t.Fatalf("forced split %v pays %s", split, s.Unit.Prize)
			case fc.f.Layout != nil && s.Layout.Vegas != loaded.Vegas:
				t.Fatal("the loaded layout is not the one played")
			case fc.f.Tier != nil:
				tb, _ := fc.g.Table(stake)
				if !s.Unit.Prize.Equal(tb.Prize(tier)) {
					t.Fatalf("forced tier %d pays %s", tier, s.Unit.Prize)
				}
			}
		}
		a, _ := forcedShop.Sell(Yams(), one)
		b, _ := plainShop.Sell(Yams(), one)
		if a.Name() != b.Name() || a.Unit.Tier != b.Unit.Tier {
			t.Fatalf("forcing changed the real units: %s %d, %s %d", a.Name(), a.Unit.Tier, b.Name(), b.Unit.Tier)
		}
	}
	s, _ := forcedShop.Force(Yams(), one, Force{Total: &total}, "DEMO")
	if s.Name() != "yams:1:DEMO:91" { // 30 rounds of 3 forced Yam's units, then this one
		t.Errorf("forced unit named %s", s.Name())
	}
	bad := 3
	if _, err := forcedShop.Force(Yams(), one, Force{Total: &[]int{1}[0]}, "QA"); err == nil {
		t.Error("1 point was dealt")
	}
	if _, err := forcedShop.Force(Vegas(), vegas.Price(), Force{Total: &bad}, "QA"); err == nil {
		t.Error("a points total was forced on Vegas")
	}
	if _, err := forcedShop.Force(Yams(), one, Force{Layout: &loaded}, "QA"); err == nil {
		t.Error("a Vegas layout was played as Yam's")
	}
}

// counts returns what is left of each tier of the block being sold.
func counts(t *testing.T, s *Shop, g Game, stake decimal.Decimal) []int64 {
	t.Helper()
	b, err := s.Block(g, stake)
	if err != nil {
		t.Fatal(err)
	}
	out := []int64{b.Number(), b.Remaining()}
	for i := range b.Table().Tiers() {
		out = append(out, b.Left(i))
	}
	return out
}
