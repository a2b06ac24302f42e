package vegas

import (
	"fmt"

	"github.com/shopspring/decimal"
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
	Prize decimal.Decimal
}

// Score scores the roulette: each chip equal to the wheel's result of its
// kind wins that result's amount; wins add up (ruling V1).
func (r *Roulette) Score() RouletteScore {
	s := RouletteScore{Prize: decimal.Zero}
	for k := range Kinds {
		if r.Bets[k] == r.Result(k) {
			s.Wins[k] = true
			s.Prize = add(s.Prize, r.Amounts[k])
		}
	}
	return s
}

// CrapsScore is how the Craps surface scores: the throws making 7 and the sum
// of their amounts (art. 4.3.4 and 4.3.5).
type CrapsScore struct {
	Wins  [3]bool
	Prize decimal.Decimal
}

// Score scores the three throws (ruling V2).
func (c *Craps) Score() CrapsScore {
	s := CrapsScore{Prize: decimal.Zero}
	for i, t := range c {
		if t.Dice[0]+t.Dice[1] == 7 {
			s.Wins[i] = true
			s.Prize = add(s.Prize, t.Amount)
		}
	}
	return s
}

// Combination returns the highest combination that counts: one formed by
// cards including at least one of « Vos cartes » and at least one community
// card (art. 4.4.3; ruling V3). Straights and flushes are no combination.
func (p *Poker) Combination() PokerCombination {
	var h, c [13]int8
	for _, x := range p.Hand {
		h[x.Rank()]++
	}
	for _, x := range p.Community {
		c[x.Rank()]++
	}
	// For each rank: t is how many cards it has, mine how many are « Vos cartes ».
	var best PokerCombination
	for a := range 13 {
		ta := h[a] + c[a]
		if ta < 2 {
			continue
		}
		// A single rank counts alone when it mixes both kinds of cards.
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
		// Two ranks together count when one of « Vos cartes » is among them;
		// with at most two of « Vos cartes », four or five cards always
		// include a community card.
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

// PokerScore is how the Poker surface scores.
type PokerScore struct {
	Combination PokerCombination
	Prize       decimal.Decimal
}

// Score scores the poker surface: its highest counting combination.
func (p *Poker) Score() PokerScore {
	c := p.Combination()
	return PokerScore{c, c.Prize()}
}

// Case returns the highest case the four symbols (three reels and the Bonus
// reel, read together) hold: three or more of one symbol, or exactly one
// cerise (art. 4.5.4; ruling V4).
func (j *Jackpot) Case() JackpotCase {
	var n [Symbols]int
	for _, s := range j.Reels {
		n[s]++
	}
	n[j.Bonus]++
	for s := range Cherry {
		if n[s] >= 3 {
			return tripleCase[s]
		}
	}
	if n[Cherry] == 1 {
		return CherryCase
	}
	return NoJackpot
}

// JackpotScore is how the Jackpot surface scores.
type JackpotScore struct {
	Case  JackpotCase
	Prize decimal.Decimal
}

// Score scores the jackpot surface.
func (j *Jackpot) Score() JackpotScore {
	c := j.Case()
	return JackpotScore{c, c.Prize()}
}

// Score is how a whole ticket scores: each surface, and the sum of their wins
// as one lot (art. 4.6).
type Score struct {
	Roulette RouletteScore
	Craps    CrapsScore
	Poker    PokerScore
	Jackpot  JackpotScore
	Prize    decimal.Decimal
}

// Score scores the ticket.
func (t *Ticket) Score() Score {
	s := Score{
		Roulette: t.Roulette.Score(),
		Craps:    t.Craps.Score(),
		Poker:    t.Poker.Score(),
		Jackpot:  t.Jackpot.Score(),
	}
	s.Prize = add(add(s.Roulette.Prize, s.Craps.Prize), add(s.Poker.Prize, s.Jackpot.Prize))
	return s
}

// SurfacePrize returns what one surface of the score pays.
func (s *Score) SurfacePrize(f Surface) decimal.Decimal {
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

// add adds two amounts, sparing the work when one is zero.
func add(a, b decimal.Decimal) decimal.Decimal {
	switch {
	case b.IsZero():
		return a
	case a.IsZero():
		return b
	}
	return a.Add(b)
}
