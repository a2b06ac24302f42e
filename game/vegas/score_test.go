package vegas

import (
	"math/rand/v2"
	"testing"

	"tapis/game"
)

func eur(n int64) game.Cents { return game.Euros(n) }

func cards(t *testing.T, ss ...string) []Card {
	t.Helper()
	out := make([]Card, len(ss))
	for i, s := range ss {
		c, ok := ParseCard(s)
		if !ok {
			t.Fatalf("bad card %q", s)
		}
		out[i] = c
	}
	return out
}

func poker(t *testing.T, hand [2]string, community [5]string) Poker {
	var p Poker
	copy(p.Hand[:], cards(t, hand[:]...))
	copy(p.Community[:], cards(t, community[:]...))
	return p
}

// TestRoulette follows art. 4.2.4 and 4.2.5 (ruling V1): a chip equal to the
// wheel's result of its kind wins its amount; several wins add up.
func TestRoulette(t *testing.T) {
	amounts := [Kinds]game.Cents{eur(5), eur(10), eur(3), eur(100)}
	cases := []struct {
		name   string
		number int
		bets   [Kinds]int
		want   int64
	}{
		{"nothing matches", 17, [Kinds]int{0, 0, 1, 23}, 0},           // 17: odd, black, manque
		{"parity alone", 17, [Kinds]int{1, 0, 1, 23}, 5},              // impair matches
		{"colour alone", 17, [Kinds]int{0, 1, 1, 23}, 10},             // noir matches
		{"manque alone", 17, [Kinds]int{0, 0, 0, 23}, 3},              // manque matches
		{"number alone", 17, [Kinds]int{0, 0, 1, 17}, 100},            // numéro matches
		{"all four add up", 17, [Kinds]int{1, 1, 0, 17}, 118},         // 5 + 10 + 3 + 100
		{"red, even, passe", 36, [Kinds]int{0, 0, 1, 1}, 18},          // 36 is red
		{"19 is red and passe", 19, [Kinds]int{0, 0, 1, 2}, 13},       // rouge + passe
		{"10 is black, even, manque", 10, [Kinds]int{0, 1, 0, 9}, 18}, // pair + noir + manque
	}
	for _, c := range cases {
		r := Roulette{Number: c.number, Amounts: amounts, Bets: c.bets}
		if got := r.Score().Prize; got != eur(c.want) {
			t.Errorf("%s: %s, want %d", c.name, got, c.want)
		}
	}
	reds := 0
	for n := 1; n <= 36; n++ {
		if Red(n) {
			reds++
		}
	}
	if reds != 18 || Red(0) || !Red(1) || Red(2) || !Red(36) || Red(35) {
		t.Errorf("wheel colours: %d reds", reds)
	}
}

// TestCraps follows art. 4.3.4 and 4.3.5 (ruling V2).
func TestCraps(t *testing.T) {
	c := Craps{{[2]int{3, 4}, eur(20)}, {[2]int{1, 1}, eur(5)}, {[2]int{6, 2}, eur(10)}}
	if got := c.Score(); got.Prize != eur(20) || got.Wins != [3]bool{true, false, false} {
		t.Errorf("3+4 wins its amount only: %+v", got)
	}
	c[2].Dice = [2]int{1, 6}
	if got := c.Score().Prize; got != eur(30) {
		t.Errorf("two throws of 7: %s, want 30", got)
	}
	c = Craps{{[2]int{6, 6}, eur(20)}, {[2]int{3, 3}, eur(5)}, {[2]int{5, 3}, eur(10)}}
	if got := c.Score().Prize; !got.IsZero() {
		t.Errorf("no 7: %s", got)
	}
}

// TestPoker covers every case of ruling V3 (art. 4.4.3).
func TestPoker(t *testing.T) {
	cases := []struct {
		name      string
		hand      [2]string
		community [5]string
		want      PokerCombination
	}{
		{"nothing", [2]string{"As", "9d"}, [5]string{"Kh", "Qd", "7c", "5s", "2h"}, NoPoker},
		{"pair with one of Vos cartes", [2]string{"As", "9d"}, [5]string{"Ah", "Kd", "7c", "5s", "2h"}, PokerPair},
		{"pocket pair alone pays nothing", [2]string{"As", "Ad"}, [5]string{"Kh", "Qd", "7c", "5s", "2h"}, NoPoker},
		{"pair on the board alone pays nothing", [2]string{"As", "9d"}, [5]string{"Kh", "Kd", "7c", "5s", "2h"}, NoPoker},
		{"two pairs, each with Vos cartes", [2]string{"As", "9d"}, [5]string{"Ah", "9c", "7c", "5s", "2h"}, PokerTwoPairs},
		{"two pairs: one of Vos cartes and a board pair", [2]string{"As", "9d"}, [5]string{"Ah", "Kd", "Kc", "5s", "2h"}, PokerTwoPairs},
		{"brelan with one of Vos cartes", [2]string{"7s", "9d"}, [5]string{"7h", "7d", "Kc", "5s", "2h"}, PokerThreeOfAKind},
		{"brelan with both of Vos cartes", [2]string{"7s", "7d"}, [5]string{"7h", "Qd", "Kc", "5s", "2h"}, PokerThreeOfAKind},
		{"brelan on the board alone pays nothing", [2]string{"As", "9d"}, [5]string{"7h", "7d", "7c", "5s", "2h"}, NoPoker},
		{"brelan on the board, pair with Vos cartes: a full", [2]string{"As", "9d"}, [5]string{"7h", "7d", "7c", "Ah", "2h"}, PokerFullHouse},
		{"full using one of Vos cartes", [2]string{"Ks", "2d"}, [5]string{"Kh", "Kd", "5c", "5s", "9h"}, PokerFullHouse},
		{"carré with one of Vos cartes", [2]string{"Qs", "2d"}, [5]string{"Qh", "Qd", "Qc", "5s", "9h"}, PokerFourOfAKind},
		{"carré with both of Vos cartes", [2]string{"Qs", "Qd"}, [5]string{"Qh", "Qc", "3c", "5s", "9h"}, PokerFourOfAKind},
		{"quads on the board alone pay nothing", [2]string{"As", "Kd"}, [5]string{"Qh", "Qd", "Qc", "Qs", "9h"}, NoPoker},
		{"straight pays nothing", [2]string{"9s", "Td"}, [5]string{"Jh", "Qd", "Kc", "5s", "2h"}, NoPoker},
		{"flush pays nothing", [2]string{"2h", "9h"}, [5]string{"Jh", "Qh", "Kh", "5s", "3d"}, NoPoker},
		{"straight flush pays nothing", [2]string{"9h", "Th"}, [5]string{"Jh", "Qh", "Kh", "5s", "3d"}, NoPoker},
	}
	for _, c := range cases {
		p := poker(t, c.hand, c.community)
		s := p.Score()
		if s.Combination != c.want {
			t.Errorf("%s: %s, want %s", c.name, s.Combination, c.want)
		}
		if !s.Prize.Decimal().Equal(c.want.Prize()) {
			t.Errorf("%s: prize %s", c.name, s.Prize)
		}
	}
	want := map[PokerCombination]int64{NoPoker: 0, PokerPair: 5, PokerTwoPairs: 10, PokerThreeOfAKind: 100,
		PokerFullHouse: 1000, PokerFourOfAKind: 10000}
	for c, e := range want {
		if !c.Prize().Equal(eur(e).Decimal()) {
			t.Errorf("%s pays %s, want %d (art. 4.4.3)", c, c.Prize(), e)
		}
	}
}

// TestJackpot follows art. 4.5.4 and ruling V4: the three reels and the Bonus
// reel are read together.
func TestJackpot(t *testing.T) {
	cases := []struct {
		name  string
		reels [3]Symbol
		bonus Symbol
		want  JackpotCase
	}{
		{"three 7 on the reels", [3]Symbol{Seven, Seven, Seven}, Bar, SevenCase},
		{"the Bonus reel completes three couronnes", [3]Symbol{Crown, Bell, Crown}, Crown, CrownCase},
		{"three BAR", [3]Symbol{Bar, Bar, Star}, Bar, BarCase},
		{"three cloches", [3]Symbol{Bell, Bell, Bell}, Seven, BellCase},
		{"three étoiles", [3]Symbol{Star, Seven, Star}, Star, StarCase},
		{"four 7 pay as three", [3]Symbol{Seven, Seven, Seven}, Seven, SevenCase},
		{"one cerise", [3]Symbol{Seven, Crown, Cherry}, Bar, CherryCase},
		{"one cerise on the Bonus reel", [3]Symbol{Seven, Crown, Bar}, Cherry, CherryCase},
		{"two cerises pay nothing", [3]Symbol{Cherry, Crown, Cherry}, Bar, NoJackpot},
		{"three cerises pay nothing", [3]Symbol{Cherry, Cherry, Cherry}, Bar, NoJackpot},
		{"a triple and a cerise pay the triple", [3]Symbol{Bell, Bell, Bell}, Cherry, BellCase},
		{"two pairs pay nothing", [3]Symbol{Seven, Seven, Crown}, Crown, NoJackpot},
	}
	for _, c := range cases {
		j := Jackpot{Reels: c.reels, Bonus: c.bonus}
		if got := j.Score(); got.Case != c.want || !got.Prize.Decimal().Equal(c.want.Prize()) {
			t.Errorf("%s: %s (%s), want %s", c.name, got.Case, got.Prize, c.want)
		}
	}
	want := map[JackpotCase]int64{SevenCase: 10000, CrownCase: 1000, BarCase: 200, BellCase: 10, StarCase: 5, CherryCase: 3, NoJackpot: 0}
	for c, e := range want {
		if !c.Prize().Equal(eur(e).Decimal()) {
			t.Errorf("%s pays %s, want %d (art. 4.5.4)", c, c.Prize(), e)
		}
	}
}

// TestTicketAddsItsSurfaces follows art. 4.6: the wins add up to one lot. The
// layout is interface.md's example; its poker surface is deux paires (the
// aces use one of « Vos cartes », so the four cards forming the combination
// include both kinds: ruling V3), and its two cerises pay nothing.
func TestTicketAddsItsSurfaces(t *testing.T) {
	tk := Ticket{
		Roulette: Roulette{Number: 17, Amounts: [Kinds]game.Cents{eur(5), eur(10), eur(3), eur(100)}, Bets: [Kinds]int{0, 1, 1, 23}},
		Craps:    Craps{{[2]int{3, 4}, eur(20)}, {[2]int{1, 1}, eur(5)}, {[2]int{6, 2}, eur(10)}},
		Poker:    poker(t, [2]string{"As", "9d"}, [5]string{"Ah", "Kd", "7c", "7s", "2h"}),
		Jackpot:  Jackpot{Reels: [3]Symbol{Seven, Seven, Cherry}, Bonus: Cherry},
	}
	s := tk.Score()
	if s.Prize != eur(40) {
		t.Errorf("ticket pays %s, want 40 (10 + 20 + 10 + 0)", s.Prize)
	}
	for f, want := range map[Surface]int64{RouletteSurface: 10, CrapsSurface: 20, PokerSurface: 10, JackpotSurface: 0} {
		if s.SurfacePrize(f) != eur(want) {
			t.Errorf("%s pays %s, want %d", f, s.SurfacePrize(f), want)
		}
	}
}

func TestTable(t *testing.T) {
	tb := Table()
	if err := tb.Validate(); err != nil {
		t.Fatal(err)
	}
	if tb.Winners() != 341_529 || tb.Count(tb.Losing()) != 1_158_471 {
		t.Errorf("%d winners, %d losing", tb.Winners(), tb.Count(tb.Losing()))
	}
	if tb.Payout().String() != "3150000" {
		t.Errorf("block pays %s, want 3150000 (art. 3)", tb.Payout())
	}
}

// TestCombinationCountsByRank checks the word-wide count of Combination
// against the rule read rank by rank (referenceCombination) on many random
// deals, distinct cards and also repeated ones, which the scorer must read
// as it always did.
func TestCombinationCountsByRank(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	for i := range n {
		var p Poker
		if i%2 == 0 {
			deck := r.Perm(52)
			for k := range p.Hand {
				p.Hand[k] = Card(deck[k])
			}
			for k := range p.Community {
				p.Community[k] = Card(deck[2+k])
			}
		} else { // few ranks, so that pairs, trips, fours and repeats are common
			for k := range p.Hand {
				p.Hand[k] = NewCard(r.IntN(4), r.IntN(4))
			}
			for k := range p.Community {
				p.Community[k] = NewCard(r.IntN(4), r.IntN(4))
			}
		}
		if got, want := p.Combination(), referenceCombination(&p); got != want {
			t.Fatalf("%v %v: %s, want %s", p.Hand, p.Community, got, want)
		}
	}
}

// referenceCombination applies ruling V3 rank by rank, pair of ranks by pair
// of ranks.
func referenceCombination(p *Poker) PokerCombination {
	var h, c [13]int8
	for _, x := range p.Hand {
		h[x.Rank()]++
	}
	for _, x := range p.Community {
		c[x.Rank()]++
	}
	var best PokerCombination
	for a := range 13 {
		ta := h[a] + c[a]
		if ta < 2 {
			continue
		}
		if h[a] > 0 && c[a] > 0 {
			switch ta {
			case 4:
				return PokerFourOfAKind
			case 3:
				best = max(best, PokerThreeOfAKind)
			default:
				best = max(best, PokerPair)
			}
		}
		for b := range 13 {
			tb := h[b] + c[b]
			if b == a || tb < 2 || h[a]+h[b] == 0 {
				continue
			}
			if ta >= 3 {
				best = max(best, PokerFullHouse)
			} else {
				best = max(best, PokerTwoPairs)
			}
		}
	}
	return best
}

// TestCaseCountsBySymbol checks the word-wide count of Jackpot.Case against
// the rule read symbol by symbol, on every row of four symbols.
func TestCaseCountsBySymbol(t *testing.T) {
	for x := range 6 * 6 * 6 * 6 {
		j := Jackpot{Reels: [3]Symbol{Symbol(x % 6), Symbol(x / 6 % 6), Symbol(x / 36 % 6)}, Bonus: Symbol(x / 216)}
		var n [Symbols]int
		for _, s := range j.Reels {
			n[s]++
		}
		n[j.Bonus]++
		want := NoJackpot
		if n[Cherry] == 1 {
			want = CherryCase
		}
		for s := range Cherry {
			if n[s] >= 3 {
				want = tripleCase[s]
			}
		}
		if got := j.Case(); got != want {
			t.Errorf("%v: %s, want %s", j, got, want)
		}
	}
}
