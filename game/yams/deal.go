package yams

import (
	"math/rand/v2"
	"sort"
	"sync"

	"tapis/game"
)

// dealer holds what dealing needs, computed once: every ordered cup by
// combination, and for every tier the triples of combinations whose points
// land in it, weighted by how many dice triples show them.
type dealer struct {
	cups    [combinations][]uint16 // cup codes showing each combination
	triples [Losing + 1]tripleTable
	totals  [151]tripleTable // the triples of each exact total, 0 to 150
}

// tripleTable lists the combination triples of one tier with cumulative
// weights: the weight of a triple is the number of ordered dice triples that
// show it, so picking a triple by weight and then each cup uniformly among
// the cups of its combination picks a dice triple uniformly (ruling Y3).
type tripleTable struct {
	combos [][3]Combination
	cum    []uint64 // cum[i] = total weight of combos[0..i]
}

func (t *tripleTable) total() uint64 {
	if len(t.cum) == 0 {
		return 0
	}
	return t.cum[len(t.cum)-1]
}

func (t *tripleTable) add(c [3]Combination, w uint64) {
	t.combos = append(t.combos, c)
	t.cum = append(t.cum, t.total()+w)
}

var dealerOnce = sync.OnceValue(newDealer)

func newDealer() *dealer {
	d := &dealer{}
	for n := range 7776 {
		c := decode(n).Combination()
		d.cups[c] = append(d.cups[c], uint16(n))
	}
	for a := range combinations {
		for b := range combinations {
			for c := range combinations {
				total := points[a] + points[b] + points[c]
				w := uint64(len(d.cups[a])) * uint64(len(d.cups[b])) * uint64(len(d.cups[c]))
				d.totals[total].add([3]Combination{a, b, c}, w)
				var tier int
				switch {
				case total <= 4:
					tier = Losing
				case total > 100:
					continue // never dealt (ruling Y3)
				default:
					tier = TierOf(total)
				}
				d.triples[tier].add([3]Combination{a, b, c}, w)
			}
		}
	}
	return d
}

// Deal fills u with three cups whose points land in the given tier (a winning
// bracket or Losing), drawn uniformly among all ordered dice triples that do
// (ruling Y3). A losing deal totals 0 to 4 points. The stake is left as is.
func Deal(r *rand.Rand, tier int, u *Unit) {
	d := dealerOnce()
	d.deal(r, &d.triples[tier], u)
}

// DealTotal fills u with three cups totalling exactly total points, drawn
// uniformly among the dice triples that do, and reports false when no
// triple makes that total (QA forcing).
func DealTotal(r *rand.Rand, total int, u *Unit) bool {
	d := dealerOnce()
	if total < 0 || total >= len(d.totals) || d.totals[total].total() == 0 {
		return false
	}
	d.deal(r, &d.totals[total], u)
	return true
}

// DealCombinations fills u with cups showing the given combinations, each
// cup drawn uniformly among the cups showing its combination (QA forcing).
func DealCombinations(r *rand.Rand, cs [3]Combination, u *Unit) {
	d := dealerOnce()
	t := tripleTable{}
	t.add(cs, 1)
	d.deal(r, &t, u)
}

func (d *dealer) deal(r *rand.Rand, t *tripleTable, u *Unit) {
	x := r.Uint64N(t.total())
	i := sort.Search(len(t.cum), func(i int) bool { return t.cum[i] > x })
	combos := &t.combos[i]
	radix := uint64(1)
	for _, c := range combos {
		radix *= uint64(len(d.cups[c]))
	}
	digits := game.DrawDigits(r, radix)
	for k, c := range combos {
		list := d.cups[c]
		u.Cups[k] = decode(int(list[digits.Next(len(list))]))
	}
}

// Ways returns the number of ordered dice triples dealt for a tier, the
// weight with which ruling Y3 conditions fair dice.
func Ways(tier int) uint64 { return dealerOnce().triples[tier].total() }

// CupsShowing returns how many of the 7776 ordered cups show a combination.
func CupsShowing(c Combination) int { return len(dealerOnce().cups[c]) }
