package yams

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// TestCombinations follows art. 4.4 and ruling Y1: each combination, and the
// precedence that keeps only the highest.
func TestCombinations(t *testing.T) {
	cases := []struct {
		cup  Cup
		want Combination
		why  string
	}{
		{Cup{1, 2, 3, 5, 6}, None, "five different values without four in a row"},
		{Cup{1, 2, 4, 5, 6}, None, "five different values without four in a row"},
		{Cup{1, 1, 3, 5, 6}, Pair, "paire: 2 dice of one value"},
		{Cup{4, 4, 6, 6, 2}, TwoPairs, "double paire: 2 pairs of different values"},
		{Cup{5, 5, 5, 1, 2}, ThreeOfAKind, "brelan: 3 dice of one value"},
		{Cup{2, 2, 2, 6, 6}, FullHouse, "a full is a full, not a brelan"},
		{Cup{6, 6, 3, 3, 3}, FullHouse, "a full in any order"},
		{Cup{1, 2, 3, 4, 6}, SmallStraight, "1-2-3-4-6 is a petite suite"},
		{Cup{1, 2, 3, 4, 4}, SmallStraight, "a petite suite beats the pair it holds"},
		{Cup{6, 3, 5, 4, 3}, SmallStraight, "3-4-5-6 in any order"},
		{Cup{2, 3, 4, 5, 2}, SmallStraight, "2-3-4-5"},
		{Cup{1, 3, 4, 5, 6}, SmallStraight, "3-4-5-6 with a 1"},
		{Cup{3, 3, 3, 3, 1}, FourOfAKind, "carré: 4 dice of one value"},
		{Cup{1, 2, 3, 4, 5}, LargeStraight, "grande suite 1-5"},
		{Cup{6, 5, 4, 3, 2}, LargeStraight, "grande suite 2-6"},
		{Cup{4, 4, 4, 4, 4}, Yams, "yam's: 5 dice of one value"},
	}
	for _, c := range cases {
		if got := c.cup.Combination(); got != c.want {
			t.Errorf("%v: %s, want %s (%s)", c.cup, got, c.want, c.why)
		}
	}
	want := map[Combination]int{None: 0, Pair: 3, TwoPairs: 5, ThreeOfAKind: 10, FullHouse: 25,
		SmallStraight: 30, FourOfAKind: 40, LargeStraight: 45, Yams: 50}
	for c, p := range want {
		if c.Points() != p {
			t.Errorf("%s: %d points, want %d (art. 4.4)", c, c.Points(), p)
		}
	}
}

// TestCupCounts checks how many of the 7776 ordered cups show each figure,
// against counts known from combinatorics.
func TestCupCounts(t *testing.T) {
	want := map[Combination]int{Yams: 6, LargeStraight: 240, FourOfAKind: 150, FullHouse: 300, None: 240}
	total := 0
	for _, c := range Combinations() {
		total += CupsShowing(c)
		if w, ok := want[c]; ok && CupsShowing(c) != w {
			t.Errorf("%s: %d cups, want %d", c, CupsShowing(c), w)
		}
	}
	if total != 7776 {
		t.Errorf("%d cups in all, want 7776", total)
	}
}

// TestBrackets checks every border of the winnings table of art. 4.5 at the
// three stakes, and that everything else loses (art. 4.6).
func TestBrackets(t *testing.T) {
	multiple := map[int]int64{
		0: 0, 4: 0, 5: 1, 9: 1, 10: 2, 14: 2, 15: 3, 19: 3, 20: 4, 29: 4, 30: 5, 49: 5,
		50: 10, 69: 10, 70: 20, 79: 20, 80: 500, 99: 500, 100: 5000, 101: 0, 150: 0,
	}
	for _, stake := range Stakes() {
		for points, m := range multiple {
			want := stake.Mul(decimal.NewFromInt(m))
			if got := Prize(stake, points); !got.Equal(want) {
				t.Errorf("stake %s, %d points: %s, want %s", stake, points, got, want)
			}
		}
	}
	half := decimal.RequireFromString("0.5")
	for points, want := range map[int]string{5: "0.5", 15: "1.5", 30: "2.5", 80: "250", 100: "2500"} {
		if got := Prize(half, points); got.String() != want {
			t.Errorf("0,5 €, %d points: %s, want %s € (art. 4.5)", points, got, want)
		}
	}
}

// TestTables checks the lot tables of art. 3.1 to 3.3: 163 402 lots, 536 598
// losing units, and a payout of 70 % of the block's sales at every stake.
func TestTables(t *testing.T) {
	wantTotal := map[string]string{"0.5": "245000", "1": "490000", "2": "980000"}
	for _, stake := range Stakes() {
		tb, err := Table(stake)
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Validate(); err != nil {
			t.Fatal(err)
		}
		if tb.Winners() != 163_402 || tb.Count(tb.Losing()) != 536_598 {
			t.Errorf("stake %s: %d winners, %d losing", stake, tb.Winners(), tb.Count(tb.Losing()))
		}
		if got := tb.Payout(); got.String() != wantTotal[stake.String()] {
			t.Errorf("stake %s: block pays %s, want %s", stake, got, wantTotal[stake.String()])
		}
		sales := stake.Mul(decimal.NewFromInt(BlockUnits))
		if !tb.Payout().Div(sales).Equal(decimal.RequireFromString("0.7")) {
			t.Errorf("stake %s: return to player %s", stake, tb.Payout().Div(sales))
		}
	}
	if _, err := Table(decimal.NewFromInt(3)); err == nil {
		t.Error("Table accepted a stake of 3")
	}
}

// TestDealScoresToItsTier deals thousands of units of every tier at every
// stake and scores them back (ruling G4), losing ones totalling 0 to 4.
func TestDealScoresToItsTier(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for _, stake := range Stakes() {
		tb, _ := Table(stake)
		for tier := range tb.Tiers() {
			for range n {
				u := Unit{Stake: stake}
				Deal(r, tier, &u)
				s := u.Score()
				if s.Tier != tier || !s.Prize.Decimal().Equal(tb.Prize(tier)) {
					t.Fatalf("tier %d at %s: %v scored %d points, %s", tier, stake, u.Cups, s.Points, s.Prize)
				}
				if tier == Losing && s.Points > 4 {
					t.Fatalf("losing deal totals %d points", s.Points)
				}
			}
		}
	}
}

// TestDealWeights checks the dealer's weights against an independent count:
// the points distribution of one cup by brute force, convolved three times,
// gives the number of dice triples in each bracket (ruling Y3).
func TestDealWeights(t *testing.T) {
	var perPoints [51]uint64
	for n := range 7776 {
		perPoints[decode(n).Points()]++
	}
	want := make([]uint64, Losing+1)
	for a, na := range perPoints {
		for b, nb := range perPoints {
			for c, nc := range perPoints {
				total := a + b + c
				switch {
				case total <= 4:
					want[Losing] += na * nb * nc
				case total <= 100:
					want[TierOf(total)] += na * nb * nc
				}
			}
		}
	}
	for tier, w := range want {
		if Ways(tier) != w {
			t.Errorf("tier %d: dealer weighs %d triples, brute force %d", tier, Ways(tier), w)
		}
	}
	// 100 points exactly: yam's + yam's + nothing, or two 50s and a 0, in any order,
	// or 45 + 25 + 30 and the like: the count must be positive.
	if Ways(0) == 0 {
		t.Error("no dice triple scores 100")
	}
}

// TestDealIsFair compares how often a losing deal shows each combination with
// the exact odds: among losing triples, the share of cups showing a pair.
func TestDealIsFair(t *testing.T) {
	none, pair := uint64(CupsShowing(None)), uint64(CupsShowing(Pair))
	// Losing triples: three nothings, or one pair and two nothings (3 places).
	all := none*none*none + 3*pair*none*none
	wantPairShare := float64(3*pair*none*none) / float64(all)
	r := rand.New(rand.NewPCG(3, 4))
	const n = 20000
	withPair := 0
	for range n {
		var u Unit
		Deal(r, Losing, &u)
		for _, c := range u.Cups {
			if c.Combination() == Pair {
				withPair++
				break
			}
		}
	}
	got := float64(withPair) / n
	if d := got - wantPairShare; d > 0.02 || d < -0.02 {
		t.Errorf("losing deals with a pair: %.3f, want %.3f", got, wantPairShare)
	}
}

// TestCupLookup checks the table scoring looks cups up in against figure,
// for every cup of dice from 0 to 7 (dice out of 1 to 6 are ignored), and
// that a die beyond 7 is worked out, ignored as well.
func TestCupLookup(t *testing.T) {
	for k := range 1 << 15 {
		c := Cup{uint8(k >> 12), uint8(k >> 9 & 7), uint8(k >> 6 & 7), uint8(k >> 3 & 7), uint8(k & 7)}
		if x, ok := figures.Get().lookup(&c); !ok || x != c.figure() {
			t.Fatalf("cup %v: looked up %s, %v; worked out %s", c, x, ok, c.figure())
		}
		if got, want := c.Combination(), c.figure(); got != want {
			t.Fatalf("cup %v: %s, worked out %s", c, got, want)
		}
	}
	for _, die := range []uint8{0, 7, 8, 255} {
		for i := range 5 {
			c := Cup{2, 2, 2, 2, 2}
			c[i] = die
			if _, ok := figures.Get().lookup(&c); ok != (die < 8) {
				t.Errorf("cup %v: looked up %v", c, ok)
			}
			if got := c.Combination(); got != FourOfAKind {
				t.Errorf("cup %v: %s, want the four 2s it shows", c, got)
			}
		}
	}
}
