package yams

import (
	"fmt"
	"math/rand/v2"

	"tapis/game"
)

// tables holds what dealing needs, computed once: every ordered cup by
// combination, and for every tier the triples of combinations whose points
// land in it, weighted by how many dice triples show them.
type tables struct {
	cups    [combinations][]Cup // the cups showing each combination
	triples [Losing + 1]tripleTable
	totals  [151]tripleTable // the triples of each exact total, 0 to 150
}

// tripleTable lists combination triples, each weighed by the number of
// ordered dice triples that show it: one draw picks a dice triple uniformly
// among all of them (ruling Y3), and so the triple of combinations by
// weight, then each cup uniformly among the cups of its combination.
type tripleTable struct {
	game.Weights
	triples []triple
}

// triple is a triple of combinations as dealing reads it: the cups showing
// each, and the divisors that read a dice triple's number, from 0 to the
// number of dice triples, as a cup of each.
type triple struct {
	cups    [3][]Cup
	lastTwo game.Divisor // the number of cups of the last two combinations
	last    game.Divisor // the number of cups of the last
}

func (t *tripleTable) add(c [3]Combination, d *tables) {
	a, b, z := d.cups[c[0]], d.cups[c[1]], d.cups[c[2]]
	n := uint64(len(a)) * uint64(len(b)) * uint64(len(z))
	e := triple{cups: [3][]Cup{a, b, z}, lastTwo: game.NewDivisor(uint64(len(b) * len(z))), last: game.NewDivisor(uint64(len(z)))}
	if n > e.lastTwo.Max() { // never: 3 600³ dice triples at most, below 2⁴⁰
		panic(fmt.Sprintf("yams: %d dice triples of %v", n, c))
	}
	t.Add(n)
	t.triples = append(t.triples, e)
}

var tablesOnce = game.NewLazy(newTables)

func newTables() *tables {
	d := &tables{}
	for n := range 7776 {
		c := decode(n)
		d.cups[c.Combination()] = append(d.cups[c.Combination()], c)
	}
	for a := range combinations {
		for b := range combinations {
			for c := range combinations {
				total := points[a] + points[b] + points[c]
				cs := [3]Combination{a, b, c}
				d.totals[total].add(cs, d)
				var tier int
				switch {
				case total <= 4:
					tier = Losing
				case total > 100:
					continue // never dealt (ruling Y3)
				default:
					tier = TierOf(total)
				}
				d.triples[tier].add(cs, d)
			}
		}
	}
	return d
}

// Deal fills u with three cups whose points land in the given tier (a winning
// bracket or Losing), drawn uniformly among all ordered dice triples that do
// (ruling Y3). A losing deal totals 0 to 4 points. The stake is left as is.
func Deal(r *rand.Rand, tier int, u *Unit) {
	deal(game.SourceOf(r), &tablesOnce.Get().triples[tier], u)
}

// Dealer deals units as Deal does, from any Source, with the dealer's
// tables looked up once: what dealing units by the million, as an audit
// does, wants. Dealt from game.PCGSource(p), a unit shows the very cups
// Deal deals from rand.New(p), drawing the same words.
type Dealer struct{ t *tables }

// NewDealer returns a Dealer.
func NewDealer() Dealer { return Dealer{tablesOnce.Get()} }

// Deal fills u with three cups whose points land in the given tier, as
// Deal does, drawing from s. The stake is left as is.
func (d Dealer) Deal(s game.Source, tier int, u *Unit) { deal(s, &d.t.triples[tier], u) }

// DealTotal fills u with three cups totalling exactly total points, drawn
// uniformly among the dice triples that do, and reports false when no
// triple makes that total (QA forcing).
func DealTotal(r *rand.Rand, total int, u *Unit) bool {
	d := tablesOnce.Get()
	if total < 0 || total >= len(d.totals) || d.totals[total].Total() == 0 {
		return false
	}
	deal(game.SourceOf(r), &d.totals[total], u)
	return true
}

// DealCombinations fills u with cups showing the given combinations, each
// cup drawn uniformly among the cups showing its combination (QA forcing).
func DealCombinations(r *rand.Rand, cs [3]Combination, u *Unit) {
	d := tablesOnce.Get()
	t := tripleTable{}
	t.add(cs, d)
	deal(game.SourceOf(r), &t, u)
}

// deal draws a dice triple of the table uniformly: one bounded draw gives
// the triple of combinations and the dice triple's number among those
// showing it, which two divisions by constants (multiplications) read as a
// cup of each combination.
func deal(s game.Source, t *tripleTable, u *Unit) {
	i, x := t.DrawFrom(s)
	e := &t.triples[i]
	a, x := e.lastTwo.DivMod(x)
	b, z := e.last.DivMod(x)
	u.Cups[0] = e.cups[0][a]
	u.Cups[1] = e.cups[1][b]
	u.Cups[2] = e.cups[2][z]
}

// Ways returns the number of ordered dice triples dealt for a tier, the
// weight with which ruling Y3 conditions fair dice.
func Ways(tier int) uint64 { return tablesOnce.Get().triples[tier].Total() }

// CupsShowing returns how many of the 7776 ordered cups show a combination.
func CupsShowing(c Combination) int { return len(tablesOnce.Get().cups[c]) }
