// Package yams holds the rules of « Yam's ! »: the combinations a cup of five
// dice can show (art. 4.4), the points brackets and lot tables (art. 3 and
// 4.5), and the dealer that shows a drawn prize with fair dice (ruling Y3).
package yams

import (
	"encoding/binary"
	"fmt"

	"tapis/game"
)

// Combination is the figure a cup's five dice show (combinaison, art. 4.4).
// Combinations are ordered: a higher value is a higher combination.
type Combination uint8

// The combinations of art. 4.4, lowest first.
const (
	None          Combination = iota // nothing
	Pair                             // paire: 2 dice of one value
	TwoPairs                         // double paire: 2 pairs of different values
	ThreeOfAKind                     // brelan: 3 dice of one value
	FullHouse                        // full: a brelan and a pair
	SmallStraight                    // petite suite: 4 consecutive values
	FourOfAKind                      // carré: 4 dice of one value
	LargeStraight                    // grande suite: 5 consecutive values
	Yams                             // yam's: 5 dice of one value
	combinations                     // number of combinations
)

var points = [combinations]int{0, 3, 5, 10, 25, 30, 40, 45, 50}

var names = [combinations]string{"none", "pair", "two_pairs", "three_of_a_kind", "full_house",
	"small_straight", "four_of_a_kind", "large_straight", "yams"}

// Points returns the points the combination earns (art. 4.4).
func (c Combination) Points() int { return points[c] }

// String returns the combination's name in the JSON layouts ("small_straight").
func (c Combination) String() string {
	if c >= combinations {
		return fmt.Sprintf("Combination(%d)", uint8(c))
	}
	return names[c]
}

// Combinations returns every combination, lowest first.
func Combinations() []Combination {
	out := make([]Combination, combinations)
	for i := range out {
		out[i] = Combination(i)
	}
	return out
}

// Cup holds the five dice of one cup (gobelet, art. 4.2), each from 1 to 6.
type Cup [5]uint8

// Combination returns the single highest combination the cup shows (art. 4.4:
// "seule la combinaison la plus élevée est prise en compte"; ruling Y1).
func (c Cup) Combination() Combination { return figures.Get().of(&c) }

// figureTable holds the combination of every cup whose dice are from 0 to 7,
// by its dice packed three bits each, the first die lowest: what figure
// works out, so that scoring a cup is a lookup.
type figureTable [1 << 15]Combination

var figures = game.NewLazy(func() *figureTable {
	var t figureTable
	for k := range t {
		t[k] = Cup{uint8(k & 7), uint8(k >> 3 & 7), uint8(k >> 6 & 7), uint8(k >> 9 & 7), uint8(k >> 12)}.figure()
	}
	return &t
})

// of returns the cup's combination: looked up when its dice fit in three
// bits, worked out otherwise (figure ignores the dice out of range).
func (t *figureTable) of(c *Cup) Combination {
	if x, ok := t.lookup(c); ok {
		return x
	}
	return c.figure()
}

// lookup returns the cup's combination from the table, or false when a die
// does not fit in three bits. The first four dice are read as one word, a
// byte each, and packed by shifts: two by two, then the pairs.
func (t *figureTable) lookup(c *Cup) (Combination, bool) {
	v, e := uint(binary.LittleEndian.Uint32(c[:4])), uint(c[4])
	pairs := (v | v>>5) & 0x003f003f // dice 0 and 1 in bits 0-5, 2 and 3 in 16-21
	k := (pairs|pairs>>10)&0xfff | e<<12
	return t[k&(1<<15-1)], (v|e)&0xf8f8f8f8 == 0
}

// three returns the combinations of three cups, worked out one by one when
// a die does not fit in three bits. (Three results rather than an array:
// they come back in registers.)
func (t *figureTable) three(cups *[3]Cup) (a, b, c Combination) {
	a, okA := t.lookup(&cups[0])
	b, okB := t.lookup(&cups[1])
	c, okC := t.lookup(&cups[2])
	if !(okA && okB && okC) {
		return t.of(&cups[0]), t.of(&cups[1]), t.of(&cups[2])
	}
	return a, b, c
}

// figure works out the cup's combination from its dice.
func (c Cup) figure() Combination {
	var count [7]int
	for _, d := range c {
		if d >= 1 && d <= 6 {
			count[d]++
		}
	}
	var pairs, three, four, five int
	for v := 1; v <= 6; v++ {
		switch count[v] {
		case 2:
			pairs++
		case 3:
			three++
		case 4:
			four++
		case 5:
			five++
		}
	}
	run, longest := 0, 0
	for v := 1; v <= 6; v++ {
		if count[v] > 0 {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	switch {
	case five > 0:
		return Yams
	case longest == 5:
		return LargeStraight
	case four > 0:
		return FourOfAKind
	case longest == 4:
		return SmallStraight
	case three > 0 && pairs > 0:
		return FullHouse
	case three > 0:
		return ThreeOfAKind
	case pairs == 2:
		return TwoPairs
	case pairs == 1:
		return Pair
	}
	return None
}

// Points returns the points the cup earns.
func (c Cup) Points() int { return c.Combination().Points() }

// decode returns cup number n of the 7776 ordered cups of dice from 1 to 6,
// counted in base 6 with the first die most significant.
func decode(n int) Cup {
	var c Cup
	for i := 4; i >= 0; i-- {
		c[i] = uint8(n%6) + 1
		n /= 6
	}
	return c
}
