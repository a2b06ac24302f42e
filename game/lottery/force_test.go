package lottery

import (
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
)

// TestForceLeavesBlocksAlone forces every kind of unit between real sales
// and checks no block's counts move (ruling G6), every forced unit pays what
// its layout scores, and the real units are those of an unforced shop.
func TestForceLeavesBlocksAlone(t *testing.T) {
	one := decimal.NewFromInt(1)
	forcedShop, plainShop := NewShop(game.SeedFrom(9)), NewShop(game.SeedFrom(9))
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

// TestNameRoundTrip: the name of every unit sold, from a block or forced,
// reads back to the same unit, and a name that is neither is one error.
func TestNameRoundTrip(t *testing.T) {
	shop := NewShop(game.SeedFrom(7))
	one, total := decimal.NewFromInt(1), 40
	var sold []Sold
	for range 3 {
		s, err := shop.Sell(Yams(), one)
		if err != nil {
			t.Fatal(err)
		}
		sold = append(sold, s)
		f, err := shop.Force(Yams(), decimal.New(5, -1), Force{Total: &total}, "QA")
		if err != nil {
			t.Fatal(err)
		}
		sold = append(sold, f)
	}
	for _, s := range sold {
		id, forced, err := ParseName(s.Name())
		back := Sold{Unit: game.Unit{ID: id}, Forced: forced}
		if err != nil || back.Name() != s.Name() || (forced == nil) != (s.Forced == nil) {
			t.Errorf("%s read back as %s (forced %v), %v", s.Name(), back.Name(), forced, err)
		}
	}
	if id, f, err := ParseName("yams:0,5:DEMO:12"); err != nil || f == nil || f.Label != "DEMO" || f.Serial != 12 || id.Seq().String() != "yams:0.5" {
		t.Errorf("a forced name with a decimal comma: %v %+v %v", id, f, err)
	}
	for in, want := range map[string]string{
		"":                 "want GAME:STAKE:BLOCK:SERIAL",
		"yams:1:QA":        "want GAME:STAKE:BLOCK:SERIAL",
		"yams:1:QA:0":      `forced unit "yams:1:QA:0": "0" is not a number from 1`,
		"yams:1:QA:x":      `forced unit "yams:1:QA:x": "x" is not a number from 1`,
		"yams:x:QA:1":      `forced unit "yams:x:QA:1": sequence "yams:x": stake: `,
		"yams:QA:1":        `forced unit "yams:QA:1": sequence "yams": want GAME:STAKE`,
		"yams:1:1:x":       `unit "yams:1:1:x": serial "x" is not a number from 1`,
		"yams:1::1":        `unit "yams:1::1": block "" is not a number from 1`,
		"yams:1:QA:1:2":    "want GAME:STAKE:BLOCK:SERIAL",
		"yams:1:\x1b[2J:1": `unit "yams:1:\x1b[2J:1": block "\x1b[2J" is not a number from 1`,
		"yams:1:qa:1":      `block "qa" is not a number from 1`,
	} {
		if _, _, err := ParseName(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseName(%q) = %v, want an error saying %q", in, err, want)
		}
	}
}

// TestForceStake: a loaded layout is played at its own stake, anything else
// at the stake chosen.
func TestForceStake(t *testing.T) {
	one, total := decimal.NewFromInt(1), 40
	layout := Layout{Yams: &yams.Unit{Stake: decimal.NewFromInt(2)}}
	if got := (Force{Layout: &layout}).Stake(one); !got.Equal(decimal.NewFromInt(2)) {
		t.Errorf("a layout at 2 played at %s", got)
	}
	if got := (Force{Total: &total}).Stake(one); !got.Equal(one) {
		t.Errorf("a total played at %s", got)
	}
}

// TestFindSeq: a sequence key names a game as written and one of its
// stakes.
func TestFindSeq(t *testing.T) {
	if g, err := FindSeq(game.SeqKey{Game: "yams", Stake: decimal.New(5, -1)}); err != nil || g.Name != "yams" {
		t.Errorf("yams:0.5: %v, %v", g.Name, err)
	}
	for _, c := range []struct {
		key  game.SeqKey
		want string
	}{
		{game.SeqKey{Game: "poker", Stake: decimal.NewFromInt(1)}, `game "poker" is not yams or vegas`},
		{game.SeqKey{Game: "YAMS", Stake: decimal.NewFromInt(1)}, `game "YAMS" is not yams or vegas`},
		{game.SeqKey{Game: "yams", Stake: decimal.NewFromInt(3)}, "3 is no stake of yams"},
		{game.SeqKey{Game: "vegas", Stake: decimal.NewFromInt(1)}, "1 is no stake of vegas"},
	} {
		if _, err := FindSeq(c.key); err == nil || err.Error() != c.want {
			t.Errorf("FindSeq(%s) = %v, want %q", c.key, err, c.want)
		}
	}
}
