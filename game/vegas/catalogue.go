package vegas

import (
	"slices"

	"tapis/game"
)

// amountEuros is the set of amounts printed under the roulette's results and
// the craps' Gain chips, winning or not (ruling V6).
var amountEuros = [...]int64{3, 5, 10, 20, 50, 100, 200, 500, 1_000, 5_000, 10_000}

// AmountSet returns the amounts, in euros, that the roulette results and the
// craps Gain chips show (ruling V6), lowest first.
func AmountSet() []int64 { return slices.Clone(amountEuros[:]) }

// Split is how a lot is split over the four surfaces: what each pays, in
// euros, indexed by Surface (ruling V7).
type Split [Surfaces]int64

// Winners returns how many surfaces of the split win.
func (s Split) Winners() int {
	n := 0
	for _, e := range s {
		if e > 0 {
			n++
		}
	}
	return n
}

// Total returns what the split pays in all.
func (s Split) Total() int64 { return s[0] + s[1] + s[2] + s[3] }

// pattern is which results (or throws) of a surface win, and with which
// amounts (indexes into amountEuros); the others lose.
type pattern struct {
	mask    uint8
	amounts [Kinds]uint8
	radix   uint64 // the product of the bases of the draws dealing it
}

// patterns lists the patterns that pay one amount, weighted by the number of
// surface contents each stands for, so that picking a pattern by weight and
// the rest uniformly picks a content uniformly (ruling V9).
type patterns struct {
	game.Weights
	list []pattern
}

// shape is a poker deal up to ranks and suits: for each rank it uses, how
// many of its cards are « Vos cartes » and how many are community cards.
type shape struct {
	ranks   []rankUse
	slots   []slotUse // ranks as dealPoker lays them
	singles bool      // seven ranks, one card each
	radix   uint64    // product of the bases of the draws dealing it
}

// slotUse is a rank use as dealPoker deals it: the base of its digit (the
// ranks left times the ordered choices of its suits), and where its cards
// lie among the seven, « Vos cartes » 0 and 1, then the community cards.
type slotUse struct {
	base  int
	cards uint8
	slots [4]uint8
}

type rankUse struct{ hand, community int }

// shapes lists the poker shapes that pay one combination, weighted by the
// number of 7-card deals each stands for.
type shapes struct {
	game.Weights
	list []shape
}

// dealable is a split with what dealing each surface needs: the patterns
// of its roulette's and its craps' parts, the shapes of its poker
// combination, its jackpot case and that case's symbol rows.
type dealable struct {
	roulette, craps *patterns
	shapes          *shapes
	jackpot         JackpotCase
	rows            []Jackpot
	// fixed is what deal picks when the roulette, the craps and the poker
	// have one pattern or shape each, as every losing ticket, so that
	// picking draws nothing; nil when some surface has a choice.
	fixed *picked
}

// picked is what deal picks for a split: the roulette's and the craps'
// patterns, the poker's shape, and the radix of the digits drawn for the
// roulette, the craps and the jackpot row.
type picked struct {
	roulette, craps *pattern
	poker           *shape
	radix           uint64
}

// catalogue is everything the dealer needs, computed once.
type catalogue struct {
	amounts [len(amountEuros)]game.Cents
	// amountPairs lists two amounts at a time, the first times the
	// amounts plus the second: one digit deals two amounts, as two digits
	// do.
	amountPairs [len(amountEuros) * len(amountEuros)][2]game.Cents
	roulette    map[int64]*patterns
	craps       map[int64]*patterns
	poker       [pokerCombinations]shapes
	jackpot     [jackpotCases][]Jackpot
	splits      [Losing + 1][]Split
	dealable    [Losing + 1][]dealable       // splits[t][i] ready to deal
	sevens      [][2]int                     // the 6 dice pairs that make 7
	losing      [30 * len(amountEuros)]Throw // the 30 others, each with each amount
	suits       [5][][4]uint8                // the ordered choices of 0 to 4 distinct suits
	orders      [120][5]uint8                // the orders of five cards
}

var catalogueOnce = game.NewLazy(newCatalogue)

func newCatalogue() *catalogue {
	c := &catalogue{roulette: map[int64]*patterns{}, craps: map[int64]*patterns{}}
	for i, e := range amountEuros {
		c.amounts[i] = game.Euros(e)
	}
	for i := range c.amountPairs {
		c.amountPairs[i] = [2]game.Cents{c.amounts[i/len(c.amounts)], c.amounts[i%len(c.amounts)]}
	}
	losing := 0
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			if a+b == 7 {
				c.sevens = append(c.sevens, [2]int{a, b})
			} else {
				for _, e := range amountEuros {
					c.losing[losing] = Throw{Dice: [2]int{a, b}, Amount: game.Euros(e)}
					losing++
				}
			}
		}
	}
	n := uint64(len(amountEuros))
	// Roulette: a losing chip of parity, colour or half has one value, a
	// losing number chip 35; a losing result's amount is any of the set.
	enumerate(int(Kinds), func(p pattern, euros int64) {
		w := uint64(1)
		for k := range Kinds {
			if p.mask&(1<<k) == 0 {
				w *= n
				if k == NumberKind {
					w *= 35
				}
			}
		}
		p.radix = 36 * w // the wheel's number, then the losing chips
		addPattern(c.roulette, p, euros, w)
	})
	// Craps: a winning throw has 6 dice pairs, a losing one 30 and any amount.
	enumerate(3, func(p pattern, euros int64) {
		w := uint64(1)
		for i := range 3 {
			if p.mask&(1<<i) != 0 {
				w *= 6
			} else {
				w *= 30 * n
			}
		}
		p.radix = w
		addPattern(c.craps, p, euros, w)
	})
	c.buildPoker()
	c.buildOrders()
	c.buildJackpot()
	c.buildSplits()
	return c
}

// enumerate calls f with every pattern of a surface of size results: every
// subset of winning results and every amount for each winning one.
func enumerate(size int, f func(pattern, int64)) {
	var rec func(i int, p pattern, euros int64)
	rec = func(i int, p pattern, euros int64) {
		if i == size {
			f(p, euros)
			return
		}
		rec(i+1, p, euros) // result i loses
		for a, e := range amountEuros {
			q := p
			q.mask |= 1 << i
			q.amounts[i] = uint8(a)
			rec(i+1, q, euros+e)
		}
	}
	rec(0, pattern{}, 0)
}

func addPattern(m map[int64]*patterns, p pattern, euros int64, w uint64) {
	ps := m[euros]
	if ps == nil {
		ps = &patterns{}
		m[euros] = ps
	}
	ps.list = append(ps.list, p)
	ps.Add(w)
}

// buildPoker enumerates the shapes of deals that obey ruling V8: every rank
// with two or more cards has at least one of « Vos cartes » and one community
// card.
func (c *catalogue) buildPoker() {
	uses := []rankUse{{1, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 1}, {1, 3}, {2, 2}}
	var rec func(from int, hand, comm int, cur []rankUse)
	rec = func(from, hand, comm int, cur []rankUse) {
		if hand == 2 && comm == 5 {
			s := shape{ranks: slices.Clone(cur), singles: len(cur) == 7, radix: 1}
			if !s.singles {
				s.radix = 2 * 120 // the order of both hands
			}
			h, k := 0, 2
			for i, u := range cur {
				su := slotUse{base: 13 - i, cards: uint8(u.hand + u.community)} // its rank
				for x := range u.hand + u.community {
					su.base *= 4 - x // its suits
					if x < u.hand {
						su.slots[x], h = uint8(h), h+1
					} else {
						su.slots[x], k = uint8(k), k+1
					}
				}
				s.radix *= uint64(su.base)
				s.slots = append(s.slots, su)
			}
			combo := s.combination()
			c.poker[combo].list = append(c.poker[combo].list, s)
			c.poker[combo].Add(s.deals())
			return
		}
		for i := from; i < len(uses); i++ {
			u := uses[i]
			if hand+u.hand <= 2 && comm+u.community <= 5 && len(cur) < 13 {
				rec(i, hand+u.hand, comm+u.community, append(cur, u))
			}
		}
	}
	rec(0, 0, 0, nil)
}

// buildOrders lists the ordered choices of distinct suits, and the orders of
// five cards, that dealPoker draws among.
func (c *catalogue) buildOrders() {
	for t := range c.suits {
		for _, a := range arrangements(4, t) {
			var s [4]uint8
			copy(s[:], a)
			c.suits[t] = append(c.suits[t], s)
		}
	}
	for i, a := range arrangements(5, 5) {
		copy(c.orders[i][:], a)
	}
}

// arrangements lists the ordered choices of k distinct numbers from 0 to
// n-1, in lexicographic order.
func arrangements(n, k int) [][]uint8 {
	if k == 0 {
		return [][]uint8{nil}
	}
	var out [][]uint8
	for _, a := range arrangements(n, k-1) {
		for x := range uint8(n) {
			if !slices.Contains(a, x) {
				out = append(out, append(slices.Clone(a), x))
			}
		}
	}
	return out
}

// combination scores a shape, as Poker.Combination scores its deals.
func (s shape) combination() PokerCombination {
	var p Poker
	h, k := 0, 0
	for rank, u := range s.ranks {
		for i := range u.hand {
			p.Hand[h] = NewCard(rank, i)
			h++
		}
		for i := range u.community {
			p.Community[k] = NewCard(rank, u.hand+i)
			k++
		}
	}
	return p.Combination()
}

// deals counts the 7-card deals of a shape: the ways to give its rank uses
// distinct ranks, times for each rank the ways to choose its cards' suits and
// which of them are « Vos cartes ».
func (s shape) deals() uint64 {
	ways := uint64(1)
	for i := range s.ranks {
		ways *= uint64(13 - i)
	}
	for i := 0; i < len(s.ranks); {
		j := i
		for j < len(s.ranks) && s.ranks[j] == s.ranks[i] {
			j++
		}
		for m := 2; m <= j-i; m++ {
			ways /= uint64(m)
		}
		i = j
	}
	for _, u := range s.ranks {
		t := u.hand + u.community
		ways *= binomial(4, t) * binomial(t, u.hand)
	}
	return ways
}

func binomial(n, k int) uint64 {
	r := uint64(1)
	for i := 1; i <= k; i++ {
		r = r * uint64(n-k+i) / uint64(i)
	}
	return r
}

// buildJackpot sorts the 6⁴ symbol rows that obey ruling V8 by case: never
// four equal symbols, never two cerises or more, never a triple with a cerise.
func (c *catalogue) buildJackpot() {
	for n := range 6 * 6 * 6 * 6 {
		j := Jackpot{Reels: [3]Symbol{Symbol(n % 6), Symbol(n / 6 % 6), Symbol(n / 36 % 6)}, Bonus: Symbol(n / 216)}
		if !j.plain() {
			continue
		}
		cs := j.Case()
		c.jackpot[cs] = append(c.jackpot[cs], j)
	}
}

// plain reports whether a jackpot row obeys ruling V8.
func (j *Jackpot) plain() bool {
	var n [Symbols]int
	for _, s := range j.Reels {
		n[s]++
	}
	n[j.Bonus]++
	triple := false
	for s := range Symbols {
		if n[s] == 4 {
			return false
		}
		if n[s] == 3 {
			triple = true
		}
	}
	return n[Cherry] == 0 || (n[Cherry] == 1 && !triple)
}

// buildSplits lists, for every lot, every way to pay it with the four
// surfaces: each surface paying an amount it can pay, two surfaces or more for
// the cumulative lots (ruling V5, V7).
func (c *catalogue) buildSplits() {
	rouletteEuros := sortedKeys(c.roulette)
	for tier := range Losing + 1 {
		var target int64
		if tier < Losing {
			target = lots[tier].euros
		}
		for _, p := range pokerEuros {
			for _, j := range caseEuros {
				for _, ro := range rouletteEuros {
					cr := target - p - j - ro
					if cr < 0 || c.craps[cr] == nil {
						continue
					}
					s := Split{ro, cr, p, j}
					if target > 0 && Cumulative(target) && s.Winners() < 2 {
						continue
					}
					c.splits[tier] = append(c.splits[tier], s)
				}
			}
		}
		slices.SortFunc(c.splits[tier], func(a, b Split) int {
			for i := range a {
				if a[i] != b[i] {
					return int(b[i] - a[i])
				}
			}
			return 0
		})
		for _, s := range c.splits[tier] {
			d, _ := c.prepare(s)
			c.dealable[tier] = append(c.dealable[tier], d)
		}
	}
}

func sortedKeys(m map[int64]*patterns) []int64 {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Splits returns the catalogue of splits of a lot, in euros (zero for a
// losing ticket): every valid split, from which the dealer draws one
// uniformly (ruling V7). It returns nil for an amount that is not a lot.
func Splits(euros int64) []Split {
	c := catalogueOnce.Get()
	for tier := range Losing + 1 {
		if (tier == Losing && euros == 0) || (tier < Losing && lots[tier].euros == euros) {
			return slices.Clone(c.splits[tier])
		}
	}
	return nil
}
