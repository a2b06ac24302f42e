package vegas

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestAmountSet checks ruling V6: at least six whole-euro amounts, from 3 €
// up to at least 10 000 €.
func TestAmountSet(t *testing.T) {
	a := AmountSet()
	if len(a) < 6 || a[0] != 3 || a[len(a)-1] < 10_000 {
		t.Errorf("amount set %v", a)
	}
	for i := 1; i < len(a); i++ {
		if a[i] <= a[i-1] {
			t.Errorf("amount set not increasing: %v", a)
		}
	}
}

// TestCatalogue checks ruling V5 and V7: every split pays its lot with
// amounts its surfaces can pay, the cumulative lots always on two surfaces or
// more, and several splits wherever the rules allow several.
func TestCatalogue(t *testing.T) {
	tb := Table()
	for tier := range tb.Tiers() {
		euros := tb.Prize(tier).IntPart()
		splits := Splits(euros)
		if len(splits) == 0 {
			t.Fatalf("lot %d: no split", euros)
		}
		if euros > 3 && len(splits) < 2 {
			t.Errorf("lot %d: only %d split", euros, len(splits))
		}
		seen := map[Split]bool{}
		for _, s := range splits {
			if seen[s] {
				t.Errorf("lot %d: split %v listed twice", euros, s)
			}
			seen[s] = true
			if s.Total() != euros {
				t.Errorf("lot %d: split %v pays %d", euros, s, s.Total())
			}
			if euros > 0 && Cumulative(euros) && s.Winners() < 2 {
				t.Errorf("lot %d: split %v wins on one surface (art. 3)", euros, s)
			}
			var tk Ticket
			if !DealSplit(rand.New(rand.NewPCG(1, uint64(euros))), s, &tk) {
				t.Errorf("lot %d: split %v cannot be dealt", euros, s)
			}
		}
	}
	// The lots of 3 € are one surface's win: roulette, craps or one cerise.
	if got := Splits(3); len(got) != 3 {
		t.Errorf("lot 3: %v", got)
	}
	if Splits(7) != nil {
		t.Error("7 € has splits but is no lot")
	}
	// A single-surface 1 000 € is allowed (ruling V5): the full, three couronnes.
	single := 0
	for _, s := range Splits(1000) {
		if s.Winners() == 1 {
			single++
		}
	}
	if single < 4 {
		t.Errorf("lot 1000: %d single-surface splits, want roulette, craps, poker and jackpot", single)
	}
}

// TestDealShowsItsLot deals thousands of tickets of every lot and checks each
// scores back to its lot (ruling G4), obeys V8, and wins on two surfaces or
// more for the cumulative lots (V5).
func TestDealShowsItsLot(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tb := Table()
	n := 5000
	if testing.Short() {
		n = 500
	}
	for tier := range tb.Tiers() {
		euros := tb.Prize(tier).IntPart()
		splitsSeen := map[Split]bool{}
		for range n {
			var tk Ticket
			Deal(r, tier, &tk)
			s := tk.Score()
			if !s.Prize.Decimal().Equal(tb.Prize(tier)) || tk.Prize() != s.Prize {
				t.Fatalf("lot %d: ticket scores %s: %+v", euros, s.Prize, tk)
			}
			if !tk.Plain() {
				t.Fatalf("lot %d: doubtful ticket (V8): %+v", euros, tk)
			}
			var split Split
			for f := range Surfaces {
				split[f] = s.SurfacePrize(f).Decimal().IntPart()
			}
			if euros > 0 && Cumulative(euros) && split.Winners() < 2 {
				t.Fatalf("lot %d on one surface: %v", euros, split)
			}
			splitsSeen[split] = true
		}
		if want := min(len(Splits(euros)), 3); len(splitsSeen) < want {
			t.Errorf("lot %d: %d different splits dealt, want at least %d", euros, len(splitsSeen), want)
		}
	}
}

// TestPokerDealCounts checks the dealer's weights for two combinations
// against counts made by hand: seven different ranks (2 of « Vos cartes »
// among them), and one pair mixing both kinds of cards.
func TestPokerDealCounts(t *testing.T) {
	c := catalogueOnce.Get()
	total := func(pc PokerCombination) uint64 {
		return c.poker[pc].Total()
	}
	// C(13,7) ranks × C(7,2) for Vos cartes × 4⁷ suits.
	if got, want := total(NoPoker), uint64(1716*21*16384); got != want {
		t.Errorf("losing poker deals: %d, want %d", got, want)
	}
	// 13 ranks × C(4,2) suits × 2 (which is Vos cartes), then 5 other ranks
	// C(12,5) × 5 (which is Vos cartes) × 4⁵ suits.
	if got, want := total(PokerPair), uint64(13*6*2*792*5*1024); got != want {
		t.Errorf("pair deals: %d, want %d", got, want)
	}
}

// TestDealIsUniform checks a dealt losing poker surface is uniform over its
// ranks: every rank appears about as often.
func TestDealIsUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var ranks [13]int
	var numbers [37]int
	const n = 26000
	for range n {
		var tk Ticket
		Deal(r, Losing, &tk)
		for _, c := range tk.Poker.Community {
			ranks[c.Rank()]++
		}
		numbers[tk.Roulette.Number]++
	}
	for i, k := range ranks {
		if want := n * 5 / 13; k < want*9/10 || k > want*11/10 {
			t.Errorf("rank %d: %d cards, want about %d", i, k, want)
		}
	}
	for i := 1; i <= 36; i++ {
		if want := n / 36; numbers[i] < want*8/10 || numbers[i] > want*12/10 {
			t.Errorf("roulette number %d: %d times, want about %d", i, numbers[i], want)
		}
	}
}

// TestPokerDealOrders checks the orders the poker surface is dealt in: the
// suits are drawn among every ordered choice, the cards among every order,
// and in dealt pairs the card of « Vos cartes » that pairs lies first or
// second as often, the community card it pairs with in each place as often.
func TestPokerDealOrders(t *testing.T) {
	c := catalogueOnce.Get()
	for n, want := range []int{1, 4, 12, 24, 24} {
		seen := map[[4]uint8]bool{}
		for _, s := range c.suits[n] {
			seen[s] = true
		}
		if len(seen) != want || len(c.suits[n]) != want {
			t.Errorf("%d suits: %d ordered choices, want %d", n, len(seen), want)
		}
	}
	orders := map[[5]uint8]bool{}
	for _, o := range c.orders {
		orders[o] = true
	}
	if len(orders) != 120 {
		t.Errorf("%d orders of five cards", len(orders))
	}
	r := rand.New(rand.NewPCG(9, 10))
	const n = 60_000
	var hand [2]int
	var community [5]int
	var suits [4]int
	for range n {
		var tk Ticket
		DealSplit(r, Split{0, 0, 5, 0}, &tk) // a pair
		for i, h := range tk.Poker.Hand {
			for j, x := range tk.Poker.Community {
				if x.Rank() == h.Rank() {
					hand[i]++
					community[j]++
				}
			}
		}
		suits[tk.Poker.Community[0].Suit()]++
	}
	for i, got := range hand {
		if got < n/2*95/100 || got > n/2*105/100 {
			t.Errorf("the pair's card of Vos cartes in place %d: %d times in %d", i+1, got, n)
		}
	}
	for j, got := range community {
		if got < n/5*95/100 || got > n/5*105/100 {
			t.Errorf("the pair's community card in place %d: %d times in %d", j+1, got, n)
		}
	}
	for s, got := range suits {
		if got < n/4*95/100 || got > n/4*105/100 {
			t.Errorf("suit %d first among the community cards: %d times in %d", s, got, n)
		}
	}
	// Seven ranks of one card each: every card of the deck as often in each
	// place.
	var places [7][52]int
	for range n {
		var tk Ticket
		Deal(r, Losing, &tk)
		for i, x := range append(tk.Poker.Hand[:], tk.Poker.Community[:]...) {
			places[i][x]++
		}
	}
	for i, counts := range places {
		for x, got := range counts {
			if want := n / 52; got < want*80/100 || got > want*120/100 {
				t.Errorf("card %s in place %d of a losing ticket: %d times in %d", Card(x), i+1, got, n)
			}
		}
	}
}

// TestDealDigitsFit checks that one draw of Digits holds the roulette, the
// craps and the jackpot row of every ticket the catalogue deals, and another
// its poker surface: their radices multiply below 2⁶⁴.
func TestDealDigitsFit(t *testing.T) {
	c := catalogueOnce.Get()
	for tier := range c.dealable {
		for _, d := range c.dealable[tier] {
			for _, ro := range d.roulette.list {
				for _, cr := range d.craps.list {
					hi, lo := bits.Mul64(ro.radix, cr.radix)
					if hi2, _ := bits.Mul64(lo, uint64(len(c.jackpot[d.jackpot]))); hi != 0 || hi2 != 0 {
						t.Fatalf("tier %d: %d × %d × %d contents overflow", tier, ro.radix, cr.radix, len(c.jackpot[d.jackpot]))
					}
				}
			}
		}
	}
	for _, sh := range c.poker {
		for _, s := range sh.list {
			radix := uint64(1)
			for _, u := range s.slots {
				radix *= uint64(u.base)
			}
			if !s.singles {
				radix *= 2 * 120
			}
			if radix != s.radix {
				t.Errorf("shape %v: radix %d, its digits multiply to %d", s.ranks, s.radix, radix)
			}
		}
	}
}
