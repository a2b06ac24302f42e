// Package vectors makes the published test vectors (testdata/vectors/):
// layouts of both games, each with the prize the regulation gives it and
// the article it exercises, for another implementation to check its scorer
// against, and for `tapis score --check` to check tapis's.
//
// The prizes written are not the engine's: they come from the reference
// scorer of this file, written again from the regulations' text (and
// ../shared/rulings.md), sharing no code with game/yams and game/vegas.
// `score --check` then holds the engine to them, and the package's tests
// hold this scorer to figures worked out by hand, article by article.
package vectors

import (
	"fmt"
	"slices"
	"strings"
)

// Yam's points by combination, art. 4.4 (« seule la combinaison la plus
// élevée » of a cup counts: ruling Y1).
const (
	pointsNone           = 0
	pointsPair           = 3  // paire
	pointsTwoPairs       = 5  // double paire
	pointsThree          = 10 // brelan
	pointsFull           = 25 // full
	pointsSmall          = 30 // petite suite
	pointsFour           = 40 // carré
	pointsLarge          = 45 // grande suite
	pointsYams           = 50 // yam's
	maxPoints            = 3 * pointsYams
	yamsCupDice          = 5
	yamsCups             = 3
	euroCents      int64 = 100
)

// refCup returns a cup's combination and its points, by the letter of
// art. 4.4: counts of each face, then the highest combination that holds.
func refCup(dice [yamsCupDice]int) (string, int) {
	var count [7]int
	for _, d := range dice {
		count[d]++
	}
	has := func(faces ...int) bool {
		for _, f := range faces {
			if count[f] == 0 {
				return false
			}
		}
		return true
	}
	var groups []int // the counts of the faces shown twice or more
	for _, c := range count[1:] {
		if c >= 2 {
			groups = append(groups, c)
		}
	}
	slices.Sort(groups)
	switch {
	case slices.Contains(groups, 5):
		return "yams", pointsYams
	case has(1, 2, 3, 4, 5) || has(2, 3, 4, 5, 6):
		return "large_straight", pointsLarge
	case slices.Contains(groups, 4):
		return "four_of_a_kind", pointsFour
	case has(1, 2, 3, 4) || has(2, 3, 4, 5) || has(3, 4, 5, 6):
		return "small_straight", pointsSmall
	case slices.Equal(groups, []int{2, 3}):
		return "full_house", pointsFull
	case slices.Contains(groups, 3):
		return "three_of_a_kind", pointsThree
	case len(groups) == 2:
		return "two_pairs", pointsTwoPairs
	case len(groups) == 1:
		return "pair", pointsPair
	}
	return "none", pointsNone
}

// yamsBracket is a line of art. 4.5's table: totals from Lo to Hi pay the
// stake times Times.
type yamsBracket struct {
	Lo, Hi, Times int
}

// yamsBrackets is art. 4.5's table, read as ruling Y2 reads it (the prize
// columns at 0,5, 1 and 2 € are each the stake times the same figure).
var yamsBrackets = []yamsBracket{
	{5, 9, 1}, {10, 14, 2}, {15, 19, 3}, {20, 29, 4}, {30, 49, 5},
	{50, 69, 10}, {70, 79, 20}, {80, 99, 500}, {100, 100, 5000},
}

// refYams returns the cups' total and what a unit pays, in cents, at a
// stake in cents: every total outside art. 4.5's table loses (art. 4.6).
func refYams(cups [yamsCups][yamsCupDice]int, stakeCents int64) (int, int64) {
	total := 0
	for _, c := range cups {
		_, p := refCup(c)
		total += p
	}
	return total, yamsPrize(total, stakeCents)
}

// yamsPrize returns what a total of points pays at a stake, in cents.
func yamsPrize(total int, stakeCents int64) int64 {
	for _, b := range yamsBrackets {
		if total >= b.Lo && total <= b.Hi {
			return stakeCents * int64(b.Times)
		}
	}
	return 0
}

// ticket is a Vegas layout in the format of interface.md, as the vectors
// write it and the reference scorer reads it.
type ticket struct {
	Game     string  `json:"game"`
	Roulette wheel   `json:"roulette"`
	Craps    []throw `json:"craps"`
	Poker    poker   `json:"poker"`
	Jackpot  slots   `json:"jackpot"`
}

type wheel struct {
	Number  int `json:"number"`
	Amounts struct {
		Parity string `json:"parity"`
		Color  string `json:"color"`
		Half   string `json:"half"`
		Number string `json:"number"`
	} `json:"amounts"`
	Bets struct {
		Parity string `json:"parity"`
		Color  string `json:"color"`
		Half   string `json:"half"`
		Number int    `json:"number"`
	} `json:"bets"`
}

type throw struct {
	Dice   [2]int `json:"dice"`
	Amount string `json:"amount"`
}

type poker struct {
	Hand      []string `json:"hand"`
	Community []string `json:"community"`
}

type slots struct {
	Reels []string `json:"reels"`
	Bonus string   `json:"bonus"`
}

// redNumbers are the red numbers of a European wheel, as ruling V1 lists
// them.
var redNumbers = []int{1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}

// cents reads a whole or decimal amount in euros the vectors write ("10",
// "2.5") in cents.
func cents(s string) int64 {
	whole, frac, _ := strings.Cut(s, ".")
	var c int64
	for _, d := range whole {
		c = c*10 + int64(d-'0')
	}
	c *= euroCents
	if len(frac) > 0 {
		c += int64(frac[0]-'0') * 10
	}
	if len(frac) > 1 {
		c += int64(frac[1] - '0')
	}
	return c
}

// refRoulette scores the roulette, art. 4.2.4 and 4.2.5: each chip showing
// the wheel's result of its kind wins that result's amount; wins add up.
func refRoulette(w wheel) int64 {
	parity, color, half := "odd", "black", "low"
	if w.Number%2 == 0 {
		parity = "even"
	}
	if slices.Contains(redNumbers, w.Number) {
		color = "red"
	}
	if w.Number >= 19 {
		half = "high"
	}
	var won int64
	if w.Bets.Parity == parity {
		won += cents(w.Amounts.Parity)
	}
	if w.Bets.Color == color {
		won += cents(w.Amounts.Color)
	}
	if w.Bets.Half == half {
		won += cents(w.Amounts.Half)
	}
	if w.Bets.Number == w.Number {
		won += cents(w.Amounts.Number)
	}
	return won
}

// refCraps scores the craps, art. 4.3.4 and 4.3.5: a throw whose two dice
// add up to 7 wins its amount; wins add up.
func refCraps(throws []throw) int64 {
	var won int64
	for _, t := range throws {
		if t.Dice[0]+t.Dice[1] == 7 {
			won += cents(t.Amount)
		}
	}
	return won
}

// Poker's combinations and prizes, art. 4.4.3, lowest first.
var pokerPrizes = []struct {
	name  string
	euros int64
}{{"none", 0}, {"pair", 5}, {"two_pairs", 10}, {"three_of_a_kind", 100}, {"full_house", 1000}, {"four_of_a_kind", 10000}}

// refPoker scores the poker surface, art. 4.4.3 as ruling V3 reads it:
// the highest combination some of the seven cards form, counted only when
// those cards include one of « Vos cartes » and one community card at
// least. It tries every set of the seven cards, as a person checking a
// ticket by hand would, and names what it finds.
func refPoker(p poker) (string, int64) {
	cards := append(slices.Clone(p.Hand), p.Community...)
	best := 0
	for set := 1; set < 1<<len(cards); set++ {
		var ranks []byte
		mine, theirs := false, false
		for i, c := range cards {
			if set&(1<<i) == 0 {
				continue
			}
			ranks = append(ranks, strings.ToUpper(c)[0])
			if i < len(p.Hand) {
				mine = true
			} else {
				theirs = true
			}
		}
		if !mine || !theirs {
			continue
		}
		best = max(best, pokerOf(ranks))
	}
	return pokerPrizes[best].name, pokerPrizes[best].euros * euroCents
}

// pokerOf returns the combination that exactly the cards of these ranks
// form, as an index of pokerPrizes: two of a rank a pair, two and two two
// pairs, three a brelan, three and two a full, four a carré; any other set
// forms none.
func pokerOf(ranks []byte) int {
	count := map[byte]int{}
	for _, r := range ranks {
		count[r]++
	}
	var groups []int
	for _, c := range count {
		groups = append(groups, c)
	}
	slices.Sort(groups)
	switch {
	case slices.Equal(groups, []int{2}):
		return 1
	case slices.Equal(groups, []int{2, 2}):
		return 2
	case slices.Equal(groups, []int{3}):
		return 3
	case slices.Equal(groups, []int{2, 3}):
		return 4
	case slices.Equal(groups, []int{4}):
		return 5
	}
	return 0
}

// Jackpot's triples, art. 4.5.4, highest first, and the single cerise.
var jackpotTriples = []struct {
	symbol string
	euros  int64
}{{"seven", 10000}, {"crown", 1000}, {"bar", 200}, {"bell", 10}, {"star", 5}}

// refJackpot scores the jackpot, art. 4.5.4 as ruling V4 reads it: the
// three reels and the Bonus reel together; three or more of a symbol pay
// its triple, the highest first; else exactly one cerise pays 3 €.
func refJackpot(s slots) (string, int64) {
	all := append(slices.Clone(s.Reels), s.Bonus)
	count := func(sym string) int {
		n := 0
		for _, x := range all {
			if x == sym {
				n++
			}
		}
		return n
	}
	for _, t := range jackpotTriples {
		if count(t.symbol) >= 3 {
			return t.symbol, t.euros * euroCents
		}
	}
	if count("cherry") == 1 {
		return "cherry", 3 * euroCents
	}
	return "none", 0
}

// surfaces is what each surface of a ticket pays, in cents.
type surfaces struct {
	Roulette, Craps, Poker, Jackpot int64
}

// total is the ticket's one lot, art. 4.6.
func (s surfaces) total() int64 { return s.Roulette + s.Craps + s.Poker + s.Jackpot }

// refVegas scores a ticket surface by surface.
func refVegas(t ticket) surfaces {
	_, p := refPoker(t.Poker)
	_, j := refJackpot(t.Jackpot)
	return surfaces{refRoulette(t.Roulette), refCraps(t.Craps), p, j}
}

// euros writes cents as the layouts write amounts: "3", "2.5", "0.05".
func euros(c int64) string {
	if c%euroCents == 0 {
		return fmt.Sprint(c / euroCents)
	}
	s := fmt.Sprintf("%d.%02d", c/euroCents, c%euroCents)
	return strings.TrimSuffix(s, "0")
}
