package vegas

import (
	"math/rand/v2"

	"tapis/game"
)

// Deal fills t with a ticket showing the lot of the given tier (a lot of the
// table or Losing): a split of the lot over the surfaces is drawn uniformly
// from the catalogue (ruling V7), then each surface's content is drawn
// uniformly among the contents paying its part and obeying ruling V8 (V9).
func Deal(r *rand.Rand, tier int, t *Ticket) {
	c := catalogueOnce.Get()
	splits := c.dealable[tier]
	i := 0
	if len(splits) > 1 {
		i = r.IntN(len(splits))
	}
	c.deal(r, &splits[i], t)
}

// DealSplit fills t with a ticket paying exactly the given split. The split
// must be one of the catalogue's or pay amounts every surface can pay; it
// reports false otherwise and leaves t unspecified.
func DealSplit(r *rand.Rand, s Split, t *Ticket) bool {
	c := catalogueOnce.Get()
	d, ok := c.prepare(s)
	if ok {
		c.deal(r, &d, t)
	}
	return ok
}

// prepare finds what dealing a split needs, or reports that some surface
// cannot pay its part.
func (c *catalogue) prepare(s Split) (dealable, bool) {
	pk, ok1 := pokerFor(s[PokerSurface])
	jk, ok2 := caseFor(s[JackpotSurface])
	d := dealable{c.roulette[s[RouletteSurface]], c.craps[s[CrapsSurface]], pk, jk}
	return d, d.roulette != nil && d.craps != nil && ok1 && ok2
}

// deal picks the surfaces' patterns and poker shape by weight, then draws
// every uniform choice left with two draws of Digits: one for the roulette,
// the craps and the jackpot row (at most 36·11⁴·35 × (30·11)³ × 6⁴ < 2⁶⁴
// contents), one for the poker surface.
func (c *catalogue) deal(r *rand.Rand, d *dealable, t *Ticket) {
	ro := &d.roulette.list[d.roulette.Pick(r)]
	cr := &d.craps.list[d.craps.Pick(r)]
	sh := &c.poker[d.poker]
	pk := &sh.list[sh.Pick(r)]
	rows := c.jackpot[d.jackpot]
	digits := game.DrawDigits(r, ro.radix*cr.radix*uint64(len(rows)))
	digits = c.dealRoulette(digits, ro, &t.Roulette)
	digits = c.dealCraps(digits, cr, &t.Craps)
	row, _ := digits.Next(len(rows))
	t.Jackpot = rows[row]
	c.dealPoker(game.DrawDigits(r, pk.radix), pk, &t.Poker)
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
		for k := range Kinds {
			var a int
			a, d = d.Next(len(c.amounts))
			ro.Amounts[k] = c.amounts[a]
		}
		var m int
		m, d = d.Next(35)
		m++
		ro.Bets = [Kinds]int{1 - out[ParityKind], 1 - out[ColorKind], 1 - out[HalfKind], m + int(uint(n-1-m)>>63)}
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

// dealCraps deals the three throws of a pattern: a winning one shows a 7
// and its amount, a losing one any other pair of dice and any amount, one
// digit for both.
func (c *catalogue) dealCraps(d game.Digits, p *pattern, cr *Craps) game.Digits {
	if p.mask == 0 { // every throw loses, as on most tickets: straight on
		for i := range cr {
			var x int
			x, d = d.Next(len(c.losing))
			cr[i] = c.losing[x]
		}
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
	for i := range p.Hand {
		p.Hand[i], d = single(d, &ranks, i)
	}
	for i := range p.Community {
		p.Community[i], d = single(d, &ranks, len(p.Hand)+i)
	}
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
