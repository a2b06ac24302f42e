package vectors

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// base is a losing ticket built by hand: 17 is odd, black and manque, and
// every chip shows the other result; no throw makes 7; seven ranks; no
// three symbols alike, no cerise.
func base() ticket {
	var t ticket
	t.Game = "vegas"
	w := &t.Roulette
	w.Number = 17
	w.Amounts.Parity, w.Amounts.Color, w.Amounts.Half, w.Amounts.Number = "5", "10", "3", "100"
	w.Bets.Parity, w.Bets.Color, w.Bets.Half, w.Bets.Number = "even", "red", "high", 23
	t.Craps = []throw{{[2]int{1, 1}, "20"}, {[2]int{2, 3}, "5"}, {[2]int{6, 6}, "10"}}
	t.Poker = poker{Hand: []string{"As", "9d"}, Community: []string{"Kh", "7c", "4s", "2h", "Jd"}}
	t.Jackpot = slots{Reels: []string{"seven", "crown", "bar"}, Bonus: "bell"}
	return t
}

// amounts are amounts in euros the hand-built tickets show, those of the
// catalogue's set and two that are not whole euros.
var amounts = []string{"3", "5", "10", "20", "50", "100", "200", "500", "1000", "5000", "10000", "2.5", "0.5"}

// surfaceVectors makes the tickets built by hand for each surface's rules.
func surfaceVectors() []Vector {
	var out []Vector
	out = append(out, rouletteVectors()...)
	out = append(out, crapsVectors()...)
	out = append(out, pokerVectors()...)
	out = append(out, jackpotVectors()...)
	t := base()
	t.Roulette.Bets.Parity = "odd"
	t.Craps[0].Dice = [2]int{3, 4}
	t.Poker.Community[0] = "Ah"
	t.Jackpot.Bonus = "cherry"
	out = append(out, vegasVector(t, "4.6", "every surface wins: odd 5 + throw 1 20 + a pair of aces 5 + one cerise 3, one lot"))
	// interface.md's sample ticket.
	t = base()
	t.Roulette.Bets.Color, t.Roulette.Bets.Half = "black", "low"
	t.Craps = []throw{{[2]int{3, 4}, "20"}, {[2]int{1, 1}, "5"}, {[2]int{6, 2}, "10"}}
	t.Poker.Community = h("Ah", "Kd", "7c", "7s", "2h")
	t.Jackpot = slots{Reels: h("seven", "seven", "cherry"), Bonus: "bar"}
	return append(out, vegasVector(t, "4.2.5, 4.3.4, 4.4.3, 4.5.4, 4.6", "the interface's sample ticket: black and manque 10 + 3, throw 1 20, two pairs 10, one cerise 3"))
}

// rouletteVectors: each number of the wheel, its chips matching the
// results of a set of its four kinds (parity, colour, half, number), a
// different set for each: wins add up (art. 4.2.4, 4.2.5; ruling V1).
func rouletteVectors() []Vector {
	var out []Vector
	kinds := []string{"parity", "colour", "half", "number"}
	for n := 1; n <= 36; n++ {
		t := base()
		w := &t.Roulette
		w.Number = n
		parity, color, half := "odd", "black", "low"
		if n%2 == 0 {
			parity = "even"
		}
		if slices.Contains(redNumbers, n) {
			color = "red"
		}
		if n >= 19 {
			half = "high"
		}
		other := map[string]string{"odd": "even", "even": "odd", "red": "black", "black": "red", "low": "high", "high": "low"}
		set := n % 16
		var won []string
		w.Bets.Parity, w.Bets.Color, w.Bets.Half, w.Bets.Number = other[parity], other[color], other[half], n%36+1
		if set&1 != 0 {
			w.Bets.Parity = parity
		}
		if set&2 != 0 {
			w.Bets.Color = color
		}
		if set&4 != 0 {
			w.Bets.Half = half
		}
		if set&8 != 0 {
			w.Bets.Number = n
		}
		for k := range kinds {
			if set&(1<<k) != 0 {
				won = append(won, kinds[k])
			}
		}
		w.Amounts.Parity, w.Amounts.Color = amounts[n%len(amounts)], amounts[(n+3)%len(amounts)]
		w.Amounts.Half, w.Amounts.Number = amounts[(n+6)%len(amounts)], amounts[(n+9)%len(amounts)]
		what := fmt.Sprintf("roulette %d (%s, %s, %s): no chip matches", n, parity, color, map[string]string{"low": "manque", "high": "passe"}[half])
		article := "4.2.4, 4.2.6"
		if len(won) > 0 {
			what = fmt.Sprintf("roulette %d (%s, %s, %s): the chips of %v match", n, parity, color, map[string]string{"low": "manque", "high": "passe"}[half], won)
			article = "4.2.4"
			if len(won) > 1 {
				article = "4.2.4, 4.2.5"
			}
		}
		out = append(out, vegasVector(t, article, what))
	}
	return out
}

// crapsVectors: every pair of dice in one throw (those making 7 win its
// amount, art. 4.3.4), then every set of winning throws (art. 4.3.5).
func crapsVectors() []Vector {
	var out []Vector
	i := 0
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			t := base()
			th := i % 3
			t.Craps[th] = throw{[2]int{a, b}, amounts[i%len(amounts)]}
			what, article := fmt.Sprintf("craps: throw %d shows %d+%d = %d, no 7", th+1, a, b, a+b), "4.3.4, 4.3.6"
			if a+b == 7 {
				what, article = fmt.Sprintf("craps: throw %d shows %d+%d = 7 and wins its amount", th+1, a, b), "4.3.4"
			}
			out = append(out, vegasVector(t, article, what))
			i++
		}
	}
	sevens := [][2]int{{3, 4}, {5, 2}, {6, 1}}
	for set := 1; set < 8; set++ {
		t := base()
		var won []int
		for th := range 3 {
			if set&(1<<th) != 0 {
				t.Craps[th] = throw{sevens[th], amounts[(set+th)%len(amounts)]}
				won = append(won, th+1)
			}
		}
		out = append(out, vegasVector(t, "4.3.4, 4.3.5", fmt.Sprintf("craps: throws %v make 7: their amounts add up", won)))
	}
	return out
}

// pokerCase is a poker surface built by hand, and what it shows.
type pokerCase struct {
	hand, community []string
	what            string
}

// pokerVectors: each combination formed with « Vos cartes » and community
// cards, and those formed by one kind of card alone, which do not count
// (art. 4.4.3; ruling V3); straights and flushes; then seven-card deals
// drawn at random.
func pokerVectors() []Vector {
	cases := []pokerCase{
		{h("As", "9d"), h("Ah", "Kd", "7c", "4s", "2h"), "a pair: one ace of yours, one community"},
		{h("As", "Ad"), h("Kh", "7c", "4s", "2h", "Jd"), "a pair of your cards alone: no combination"},
		{h("As", "9d"), h("Kh", "Kd", "7c", "4s", "2h"), "a pair of community cards alone: no combination"},
		{h("As", "9d"), h("Ah", "9c", "7c", "4s", "2h"), "two pairs, each with one of your cards"},
		{h("As", "9d"), h("Ah", "Kd", "Kc", "4s", "2h"), "two pairs: aces with yours, kings of the community"},
		{h("As", "Ad"), h("Kh", "Kd", "7c", "4s", "2h"), "two pairs: your aces, the community's kings"},
		{h("As", "Kd"), h("Ah", "Kc", "7c", "7s", "2h"), "three pairs: two pairs count"},
		{h("As", "9d"), h("Ah", "Ac", "7c", "4s", "2h"), "a brelan: one ace of yours, two community"},
		{h("As", "Ad"), h("Ah", "Kd", "7c", "4s", "2h"), "a brelan: two aces of yours, one community"},
		{h("As", "9d"), h("Kh", "Kd", "Kc", "4s", "2h"), "a brelan of community cards alone: no combination"},
		{h("As", "9d"), h("Ah", "Kd", "Kc", "Ks", "2h"), "a full: the community's kings, the aces with yours"},
		{h("9s", "9d"), h("Kh", "Kd", "Kc", "4s", "2h"), "a full: the community's kings, your nines"},
		{h("As", "9d"), h("Ah", "Ac", "Kd", "Kc", "2h"), "a full: aces with yours, the community's kings"},
		{h("As", "9d"), h("Ah", "Ac", "9c", "4s", "2h"), "a full: aces and nines, each with one of yours"},
		{h("As", "Kd"), h("Ah", "Ac", "Kc", "Ks", "2h"), "two brelans: a full"},
		{h("As", "Ad"), h("Ah", "Ac", "7c", "4s", "2h"), "a carré: two aces of yours, two community"},
		{h("As", "9d"), h("Ah", "Ac", "Ad", "4s", "2h"), "a carré: one ace of yours, three community"},
		{h("9s", "8d"), h("Kh", "Kd", "Kc", "Ks", "2h"), "a carré of community cards alone: no combination"},
		{h("2s", "8d"), h("Kh", "Kd", "Kc", "Ks", "2h"), "the community's four kings and a pair of twos with yours: a full"},
		{h("5s", "6d"), h("7c", "8h", "9s", "2d", "Kc"), "a straight: no combination"},
		{h("2h", "5h"), h("8h", "Jh", "Kh", "3c", "9d"), "a flush: no combination"},
		{h("Th", "Jh"), h("Qh", "Kh", "Ah", "3c", "9d"), "a royal flush: no combination"},
		{h("td", "qS"), h("Tc", "3h", "5d", "8s", "Kc"), "a pair of tens, cards written in lower case"},
	}
	var out []Vector
	for _, c := range cases {
		t := base()
		t.Poker = poker{Hand: c.hand, Community: c.community}
		article := "4.4.3"
		if _, p := refPoker(t.Poker); p == 0 {
			article = "4.4.3, 4.4.4"
		}
		out = append(out, vegasVector(t, article, "poker: "+c.what))
	}
	// Seven cards drawn from the deck at random, as a check of breadth.
	r := rand.New(rand.NewPCG(4, 4))
	var deck []string
	for _, rank := range "23456789TJQKA" {
		for _, suit := range "hdsc" {
			deck = append(deck, string(rank)+string(suit))
		}
	}
	for i := range 40 {
		r.Shuffle(len(deck), func(a, b int) { deck[a], deck[b] = deck[b], deck[a] })
		t := base()
		t.Poker = poker{Hand: slices.Clone(deck[:2]), Community: slices.Clone(deck[2:7])}
		name, p := refPoker(t.Poker)
		article := "4.4.3"
		if p == 0 {
			article = "4.4.3, 4.4.4"
		}
		out = append(out, vegasVector(t, article, fmt.Sprintf("poker: seven cards drawn at random (%d): %s", i+1, name)))
	}
	return out
}

func h(cards ...string) []string { return cards }

// jackpotVectors: three of each symbol on the reels, with the Bonus reel,
// four alike, one cerise wherever it shows, two or more cerises, a triple
// with a cerise (art. 4.5.4; ruling V4).
func jackpotVectors() []Vector {
	type row struct {
		reels []string
		bonus string
		what  string
	}
	var rows []row
	for _, t := range jackpotTriples {
		s, other := t.symbol, "bell"
		if s == "bell" {
			other = "star"
		}
		rows = append(rows,
			row{h(s, s, s), other, "three " + s + " on the reels"},
			row{h(s, other, s), s, "three " + s + ", one on the Bonus reel"},
			row{h(s, s, s), s, "four " + s + " (three or more count)"})
	}
	for i := range 4 {
		reels, bonus := h("seven", "crown", "bar"), "star"
		if i < 3 {
			reels[i] = "cherry"
		} else {
			bonus = "cherry"
		}
		rows = append(rows, row{reels, bonus, fmt.Sprintf("exactly one cerise, on reel %d of 4", i+1)})
	}
	rows = append(rows,
		row{h("cherry", "cherry", "bar"), "star", "two cerises: not exactly one, nothing"},
		row{h("cherry", "bar", "star"), "cherry", "two cerises, one on the Bonus reel: nothing"},
		row{h("cherry", "cherry", "cherry"), "bell", "three cerises: no triple of cerises pays, nothing"},
		row{h("cherry", "cherry", "cherry"), "cherry", "four cerises: nothing"},
		row{h("bell", "bell", "bell"), "cherry", "three cloches and a cerise: the higher case, the cloches"},
		row{h("star", "cherry", "star"), "star", "three étoiles and a cerise: the étoiles"},
		row{h("seven", "seven", "crown"), "crown", "two 7 and two couronnes: nothing"},
		row{h("seven", "crown", "bar"), "bell", "four different symbols: nothing"},
	)
	var out []Vector
	for _, r := range rows {
		t := base()
		t.Jackpot = slots{Reels: r.reels, Bonus: r.bonus}
		article := "4.5.4"
		if _, p := refJackpot(t.Jackpot); p == 0 {
			article = "4.5.4, 4.5.5"
		}
		out = append(out, vegasVector(t, article, "jackpot: "+r.what))
	}
	return out
}
