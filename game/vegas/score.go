package vegas

import (
	"fmt"
	"math/bits"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// PokerCombination is a combination of the Poker surface (art. 4.4.3).
type PokerCombination uint8

// The five paying combinations, lowest first, after None.
const (
	NoPoker           PokerCombination = iota // nothing that counts
	PokerPair                                 // paire, 5 €
	PokerTwoPairs                             // deux paires, 10 €
	PokerThreeOfAKind                         // brelan, 100 €
	PokerFullHouse                            // full, 1 000 €
	PokerFourOfAKind                          // carré, 10 000 €
	pokerCombinations
)

var (
	pokerNames  = [pokerCombinations]string{"none", "pair", "two_pairs", "three_of_a_kind", "full_house", "four_of_a_kind"}
	pokerEuros  = [pokerCombinations]int64{0, 5, 10, 100, 1_000, 10_000}
	pokerPrizes = euroArray(pokerEuros[:])
	pokerCents  = func() (c [pokerCombinations]game.Cents) {
		for i, e := range pokerEuros {
			c[i] = game.Euros(e)
		}
		return c
	}()
)

// String returns the combination's name in score output ("two_pairs").
func (c PokerCombination) String() string {
	if c >= pokerCombinations {
		return fmt.Sprintf("PokerCombination(%d)", uint8(c))
	}
	return pokerNames[c]
}

// Prize returns what the combination pays.
func (c PokerCombination) Prize() decimal.Decimal { return pokerPrizes[c] }

// Cents returns what the combination pays, in cents.
func (c PokerCombination) Cents() game.Cents { return pokerCents[c] }

// JackpotCase is a paying case of the Jackpot surface (art. 4.5.4).
type JackpotCase uint8

// The cases, from nothing to the highest.
const (
	NoJackpot  JackpotCase = iota // nothing
	CherryCase                    // exactly one cerise, 3 €
	StarCase                      // three étoiles, 5 €
	BellCase                      // three cloches, 10 €
	BarCase                       // three BAR, 200 €
	CrownCase                     // three couronnes, 1 000 €
	SevenCase                     // three 7, 10 000 €
	jackpotCases
)

var (
	caseNames  = [jackpotCases]string{"none", "cherry", "star", "bell", "bar", "crown", "seven"}
	caseEuros  = [jackpotCases]int64{0, 3, 5, 10, 200, 1_000, 10_000}
	casePrizes = euroArray(caseEuros[:])
	caseCents  = func() (c [jackpotCases]game.Cents) {
		for i, e := range caseEuros {
			c[i] = game.Euros(e)
		}
		return c
	}()
	// tripleCase is the case of three of a symbol.
	tripleCase = [Symbols]JackpotCase{SevenCase, CrownCase, BarCase, BellCase, StarCase, NoJackpot}
)

// String returns the case's name in score output ("crown").
func (c JackpotCase) String() string {
	if c >= jackpotCases {
		return fmt.Sprintf("JackpotCase(%d)", uint8(c))
	}
	return caseNames[c]
}

// Prize returns what the case pays.
func (c JackpotCase) Prize() decimal.Decimal { return casePrizes[c] }

// Cents returns what the case pays, in cents.
func (c JackpotCase) Cents() game.Cents { return caseCents[c] }

func euroArray(e []int64) []decimal.Decimal {
	out := make([]decimal.Decimal, len(e))
	for i, v := range e {
		out[i] = decimal.NewFromInt(v)
	}
	return out
}

// RouletteScore is how the Roulette surface scores: which results are matched
// by a chip, and the sum of their amounts (art. 4.2.4 and 4.2.5).
type RouletteScore struct {
	Wins  [Kinds]bool
	Prize game.Cents
}

// Score scores the roulette: each chip equal to the wheel's result of its
// kind wins that result's amount; wins add up (ruling V1).
func (r *Roulette) Score() RouletteScore {
	if uint(r.Number) < uint(len(outcomes)) {
		return r.score(&outcomes[r.Number])
	}
	var results [Kinds]int
	for k := range Kinds {
		results[k] = Outcome(r.Number, k)
	}
	return r.score(&results)
}

// score scores the roulette against the wheel's results.
func (r *Roulette) score(results *[Kinds]int) RouletteScore {
	var s RouletteScore
	for k := range Kinds {
		if r.Bets[k] == results[k] {
			s.Wins[k] = true
			s.Prize += r.Amounts[k]
		}
	}
	return s
}

// CrapsScore is how the Craps surface scores: the throws making 7 and the sum
// of their amounts (art. 4.3.4 and 4.3.5).
type CrapsScore struct {
	Wins  [3]bool
	Prize game.Cents
}

// Score scores the three throws (ruling V2).
func (c *Craps) Score() CrapsScore {
	var s CrapsScore
	for i := range c {
		if t := &c[i]; t.Dice[0]+t.Dice[1] == 7 {
			s.Wins[i] = true
			s.Prize += t.Amount
		}
	}
	return s
}

// Combination returns the highest combination that counts: one formed by
// cards including at least one of « Vos cartes » and at least one community
// card (art. 4.4.3; ruling V3). Straights and flushes are no combination.
//
// The cards are counted by rank in the nibbles of a word, four bits a rank:
// seven cards never carry from one nibble to the next, and each test below
// reads every rank at once.
func (p *Poker) Combination() PokerCombination {
	const ones = 0x1111111111111 // bit 0 of each of the 13 nibbles
	h, c := &p.Hand, &p.Community
	hand := rankBit[h[0]] + rankBit[h[1]]
	all := hand + rankBit[c[0]] + rankBit[c[1]] + rankBit[c[2]] + rankBit[c[3]] + rankBit[c[4]]
	comm := all - hand
	// By rank: at least two cards, three or more, exactly three, exactly
	// four; holding one of « Vos cartes », a community card, both.
	two := (all>>1 | all>>2) & ones
	if two == 0 { // seven ranks, as on most tickets: no combination
		return NoPoker
	}
	three := (all&(all>>1) | all>>2) & ones
	exactly3 := all & (all >> 1) &^ (all >> 2) & ones
	exactly4 := all >> 2 &^ all &^ (all >> 1) & ones
	mine := (hand | hand>>1) & ones
	mixed := mine & (comm | comm>>1 | comm>>2) & ones
	// A single rank counts alone when it mixes both kinds of cards.
	var best PokerCombination
	switch {
	case exactly4&mixed != 0:
		return PokerFourOfAKind
	case exactly3&mixed != 0:
		best = PokerThreeOfAKind
	case two&mixed != 0:
		best = PokerPair
	}
	// Two ranks of two cards or more count together when one of « Vos
	// cartes » is among them (with at most two of them, four or five cards
	// always include a community card): a full when one of the ranks has
	// three cards or more. Any rank of three joins a rank holding one of
	// « Vos cartes », or is one and joins any other.
	if bits.OnesCount64(two) >= 2 && two&mine != 0 {
		if three != 0 {
			return max(best, PokerFullHouse)
		}
		best = max(best, PokerTwoPairs)
	}
	return best
}

// rankBit holds for each card the bit that counts it in its rank's nibble;
// a card beyond the deck counts for no rank.
var rankBit = func() (t [256]uint64) {
	for c := range Card(52) {
		t[c] = 1 << (4 * c.Rank())
	}
	return t
}()

// PokerScore is how the Poker surface scores.
type PokerScore struct {
	Combination PokerCombination
	Prize       game.Cents
}

// Score scores the poker surface: its highest counting combination.
func (p *Poker) Score() PokerScore {
	c := p.Combination()
	return PokerScore{c, c.Cents()}
}

// Case returns the highest case the four symbols (three reels and the Bonus
// reel, read together) hold: three or more of one symbol, or exactly one
// cerise (art. 4.5.4; ruling V4).
//
// The symbols are counted in the nibbles of a word, four bits a symbol, as
// Poker.Combination counts ranks; a symbol beyond the six counts for none.
func (j *Jackpot) Case() JackpotCase {
	n := symbolBit[j.Reels[0]] + symbolBit[j.Reels[1]] + symbolBit[j.Reels[2]] + symbolBit[j.Bonus]
	if three := (n&(n>>1) | n>>2) & 0x11111; three != 0 { // three or four of a symbol but the cerise
		return tripleCase[bits.TrailingZeros32(three)/4]
	}
	if n>>(4*Cherry)&15 == 1 {
		return CherryCase
	}
	return NoJackpot
}

// symbolBit holds for each symbol the bit that counts it in its nibble.
var symbolBit = func() (t [256]uint32) {
	for s := range Symbols {
		t[s] = 1 << (4 * s)
	}
	return t
}()

// JackpotScore is how the Jackpot surface scores.
type JackpotScore struct {
	Case  JackpotCase
	Prize game.Cents
}

// Score scores the jackpot surface.
func (j *Jackpot) Score() JackpotScore {
	c := j.Case()
	return JackpotScore{c, c.Cents()}
}

// Score is how a whole ticket scores: each surface, and the sum of their wins
// as one lot (art. 4.6).
type Score struct {
	Roulette RouletteScore
	Craps    CrapsScore
	Poker    PokerScore
	Jackpot  JackpotScore
	Prize    game.Cents
}

// Score scores the ticket.
func (t *Ticket) Score() Score {
	s := Score{
		Roulette: t.Roulette.Score(),
		Craps:    t.Craps.Score(),
		Poker:    t.Poker.Score(),
		Jackpot:  t.Jackpot.Score(),
	}
	s.Prize = s.Roulette.Prize + s.Craps.Prize + s.Poker.Prize + s.Jackpot.Prize
	return s
}

// Prize returns what the ticket pays, Score().Prize, without the rest of the
// score: what an audit needs of each ticket, the chips and the throws
// written out one by one.
func (t *Ticket) Prize() game.Cents {
	r, c := &t.Roulette, &t.Craps
	if uint(r.Number) >= uint(len(outcomes)) { // off the wheel: Score reads it
		return t.Score().Prize
	}
	out := &outcomes[r.Number]
	p := t.Poker.Combination().Cents() + t.Jackpot.Case().Cents()
	if r.Bets[0] == out[0] {
		p += r.Amounts[0]
	}
	if r.Bets[1] == out[1] {
		p += r.Amounts[1]
	}
	if r.Bets[2] == out[2] {
		p += r.Amounts[2]
	}
	if r.Bets[3] == out[3] {
		p += r.Amounts[3]
	}
	if c[0].Dice[0]+c[0].Dice[1] == 7 {
		p += c[0].Amount
	}
	if c[1].Dice[0]+c[1].Dice[1] == 7 {
		p += c[1].Amount
	}
	if c[2].Dice[0]+c[2].Dice[1] == 7 {
		p += c[2].Amount
	}
	return p
}

// SurfacePrize returns what one surface of the score pays.
func (s *Score) SurfacePrize(f Surface) game.Cents {
	switch f {
	case RouletteSurface:
		return s.Roulette.Prize
	case CrapsSurface:
		return s.Craps.Prize
	case PokerSurface:
		return s.Poker.Prize
	}
	return s.Jackpot.Prize
}
