package vegas

import (
	"math/rand/v2"

	"tapis/game"
)

// Deal fills t with a ticket showing the lot of the given tier (a lot of the
// table or Losing): a split of the lot over the surfaces is drawn uniformly
// from the catalogue (ruling V7), then each surface's content is drawn
// uniformly among the contents paying its part and obeying ruling V8 (V9).
func Deal(r *rand.Rand, tier int, t *Ticket) { NewDealer().Deal(game.SourceOf(r), tier, t) }

// Dealer deals tickets as Deal does, from any Source, with the catalogue
// looked up once: what dealing tickets by the million, as an audit does,
// wants. Dealt from game.PCGSource(p), a ticket is the very ticket Deal
// deals from rand.New(p), drawing the same words.
type Dealer struct{ c *catalogue }

// NewDealer returns a Dealer.
func NewDealer() Dealer { return Dealer{catalogueOnce.Get()} }

// Deal fills t with a ticket showing the lot of the given tier, as Deal
// does, drawing from s.
func (d Dealer) Deal(s game.Source, tier int, t *Ticket) { d.c.deal(s, d.c.dealable[tier], t) }

// DealSplit fills t with a ticket paying exactly the given split. The split
// must be one of the catalogue's or pay amounts every surface can pay; it
// reports false otherwise and leaves t unspecified.
func DealSplit(r *rand.Rand, s Split, t *Ticket) bool {
	c := catalogueOnce.Get()
	d, ok := c.prepare(s)
	if ok {
		c.deal(game.SourceOf(r), []dealable{d}, t)
	}
	return ok
}

// prepare finds what dealing a split needs, or reports that some surface
// cannot pay its part.
func (c *catalogue) prepare(s Split) (dealable, bool) {
	pk, ok1 := pokerFor(s[PokerSurface])
	jk, ok2 := caseFor(s[JackpotSurface])
	if !ok1 || !ok2 || c.roulette[s[RouletteSurface]] == nil || c.craps[s[CrapsSurface]] == nil {
		return dealable{}, false
	}
	d := dealable{
		roulette: c.roulette[s[RouletteSurface]], craps: c.craps[s[CrapsSurface]],
		shapes: &c.poker[pk], jackpot: jk, rows: c.jackpot[jk],
	}
	if d.roulette.Len() == 1 && d.craps.Len() == 1 && d.shapes.Len() == 1 {
		f := picked{&d.roulette.list[0], &d.craps.list[0], &d.shapes.list[0], 0}
		f.radix = f.roulette.radix * f.craps.radix * uint64(len(d.rows))
		d.fixed = &f
	}
	return d, true
}

// deal draws one of the splits uniformly (nothing when there is one),
// picks the surfaces' patterns and poker shape by weight, then draws every
// uniform choice left with two draws of Digits: one for the roulette, the
// craps and the jackpot row (at most 36·11⁴·35 × (30·11)³ × 6⁴ < 2⁶⁴
// contents), then one for the poker surface.
func (c *catalogue) deal(s game.Source, splits []dealable, t *Ticket) {
	i := 0
	if len(splits) > 1 {
		i = s.IntN(len(splits))
	}
	d := &splits[i]
	var p picked
	if d.fixed != nil {
		p = *d.fixed
	} else {
		p.roulette = &d.roulette.list[d.roulette.PickFrom(s)]
		p.craps = &d.craps.list[d.craps.PickFrom(s)]
		p.poker = &d.shapes.list[d.shapes.PickFrom(s)]
		p.radix = p.roulette.radix * p.craps.radix * uint64(len(d.rows))
	}
	ro, cr, pk, rows := p.roulette, p.craps, p.poker, d.rows
	digits, poker := s.TwoDigits(p.radix, pk.radix)
	digits = c.dealRoulette(digits, ro, &t.Roulette)
	digits = c.dealCraps(digits, cr, &t.Craps)
	row, _ := digits.Next(len(rows))
	t.Jackpot = rows[row]
	if pk.singles {
		dealSingles(poker, &t.Poker)
	} else {
		c.dealPoker(poker, pk, &t.Poker)
	}
}

func pokerFor(euros int64) (PokerCombination, bool) {
	for i, e := range pokerEuros {
		if e == euros {
			return PokerCombination(i), true
		}
	}
	return 0, false
}

func caseFor(euros int64) (JackpotCase, bool) {
	for i, e := range caseEuros {
		if e == euros {
			return JackpotCase(i), true
		}
	}
	return 0, false
}

// dealRoulette deals the roulette of a pattern: the wheel's number, then
// for each losing result an amount and a chip that misses it.
func (c *catalogue) dealRoulette(d game.Digits, p *pattern, ro *Roulette) game.Digits {
	n, d := d.Next(36)
	n++
	ro.Number = n
	out := &outcomes[n]
	if p.mask == 0 { // every result loses, as on most tickets: straight on
		var a, b, m int
		a, d = d.Next(len(c.amountPairs)) // two results' amounts, one digit for both
		b, d = d.Next(len(c.amountPairs))
		*(*[2]game.Cents)(ro.Amounts[:2]) = c.amountPairs[a]
		*(*[2]game.Cents)(ro.Amounts[2:]) = c.amountPairs[b]
		m, d = d.Next(35)
		m++
		*(*[NumberKind]int)(ro.Bets[:NumberKind]) = missed[n]
		ro.Bets[NumberKind] = m + int(uint(n-1-m)>>63)
		return d
	}
	for k := range Kinds {
		if p.mask&(1<<k) != 0 { // this result wins the pattern's amount
			ro.Bets[k], ro.Amounts[k] = out[k], c.amounts[p.amounts[k]]
			continue
		}
		var a int
		a, d = d.Next(len(c.amounts))
		ro.Bets[k], ro.Amounts[k] = 1-out[k], c.amounts[a]
	}
	if p.mask&(1<<NumberKind) == 0 {
		var m int
		m, d = d.Next(35)
		m++
		ro.Bets[NumberKind] = m + int(uint(n-1-m)>>63) // m, or m+1 from n on: any number but n
	}
	return d
}

// missed holds for each number of the wheel the chips of parity, colour
// and half that miss its results.
var missed = func() (t [37][NumberKind]int) {
	for n := range t {
		for k := range NumberKind {
			t[n][k] = 1 - Outcome(n, k)
		}
	}
	return t
}()

// dealCraps deals the three throws of a pattern: a winning one shows a 7
// and its amount, a losing one any other pair of dice and any amount, one
// digit for both.
func (c *catalogue) dealCraps(d game.Digits, p *pattern, cr *Craps) game.Digits {
	if p.mask == 0 { // every throw loses, as on most tickets: straight on
		var x, y, z int
		x, d = d.Next(len(c.losing))
		y, d = d.Next(len(c.losing))
		z, d = d.Next(len(c.losing))
		cr[0] = c.losing[x]
		cr[1] = c.losing[y]
		cr[2] = c.losing[z]
		return d
	}
	for i := range cr {
		var x int
		if p.mask&(1<<i) != 0 {
			x, d = d.Next(len(c.sevens))
			cr[i].Dice, cr[i].Amount = c.sevens[x], c.amounts[p.amounts[i]]
		} else {
			x, d = d.Next(len(c.losing))
			cr[i] = c.losing[x]
		}
	}
	return d
}

// dealPoker deals a shape: it gives the shape's rank uses distinct ranks at
// random and each rank's cards random distinct suits, one digit a rank for
// both, then puts « Vos cartes » and the community cards in a random order,
// one digit each. Seven ranks of one card each are dealt in a random order
// already: they skip that last step. The digits multiply to the shape's
// radix.
func (c *catalogue) dealPoker(d game.Digits, s *shape, p *Poker) {
	if s.singles {
		dealSingles(d, p)
		return
	}
	ranks := [16]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	var cards [8]Card // « Vos cartes », then the community cards
	for i := range s.slots {
		u := &s.slots[i]
		suits := c.suits[u.cards]
		var x int
		x, d = d.Next(u.base) // which rank left, and which suits
		v := uint(x)
		var j, m uint
		switch len(suits) { // 4, 12 or 24 ordered choices of 1, 2, 3 or 4 suits
		case 4:
			j, m = v>>2, v&3
		case 12:
			j = v / 12
			m = v - 12*j
		default:
			j = v / 24
			m = v - 24*j
		}
		j = (j + uint(i)) & 15
		r, su := Card(ranks[j])*4, &suits[m]
		ranks[j] = ranks[i] // the rank taken gives its place to rank i
		for x := range u.cards {
			cards[u.slots[x]&7] = r + Card(su[x])
		}
	}
	a, d := d.Next(2)
	p.Hand = [2]Card{cards[a&1], cards[1-a&1]}
	x, _ := d.Next(len(c.orders))
	o := &c.orders[x]
	for x := range p.Community {
		p.Community[x] = cards[(2+o[x])&7]
	}
}

// dealSingles deals seven cards of seven ranks: Fisher and Yates's shuffle
// of the thirteen ranks, stopped after seven, each rank with a random suit,
// one digit a card, written straight into place.
func dealSingles(d game.Digits, p *Poker) {
	ranks := [16]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	// Written out, so that each card's base and place are constants.
	p.Hand[0], d = single(d, &ranks, 0)
	p.Hand[1], d = single(d, &ranks, 1)
	p.Community[0], d = single(d, &ranks, 2)
	p.Community[1], d = single(d, &ranks, 3)
	p.Community[2], d = single(d, &ranks, 4)
	p.Community[3], d = single(d, &ranks, 5)
	p.Community[4], _ = single(d, &ranks, 6)
}

// single deals card i of seven single ranks: one of the ranks left, the
// ranks from i on (the one taken gives its place to rank i, which only later
// cards read), with one of the four suits.
func single(d game.Digits, ranks *[16]uint8, i int) (Card, game.Digits) {
	v, d := d.Next((13 - i) * 4) // which rank left, and which suit
	j := (i + v>>2) & 15
	r := ranks[j]
	ranks[j] = ranks[i&15]
	return Card(r)*4 + Card(v&3), d
}

// Plain reports whether a ticket obeys ruling V8, as every dealt ticket does:
// on the poker surface every rank appearing twice or more has one of « Vos
// cartes » and one community card; the jackpot shows no four equal symbols,
// no two cerises, no triple with a cerise.
func (t *Ticket) Plain() bool {
	var h, c [13]int
	for _, x := range t.Poker.Hand {
		h[x.Rank()]++
	}
	for _, x := range t.Poker.Community {
		c[x.Rank()]++
	}
	for i := range 13 {
		if h[i]+c[i] >= 2 && (h[i] == 0 || c[i] == 0) {
			return false
		}
	}
	return t.Jackpot.plain()
}
