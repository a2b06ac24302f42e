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
	c := catalogueOnce()
	splits := c.dealable[tier]
	c.deal(r, &splits[r.IntN(len(splits))], t)
}

// DealSplit fills t with a ticket paying exactly the given split. The split
// must be one of the catalogue's or pay amounts every surface can pay; it
// reports false otherwise and leaves t unspecified.
func DealSplit(r *rand.Rand, s Split, t *Ticket) bool {
	c := catalogueOnce()
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

func (c *catalogue) deal(r *rand.Rand, d *dealable, t *Ticket) {
	c.dealRoulette(r, d.roulette, &t.Roulette)
	c.dealCraps(r, d.craps, &t.Craps)
	c.dealPoker(r, d.poker, &t.Poker)
	rows := c.jackpot[d.jackpot]
	t.Jackpot = rows[r.IntN(len(rows))]
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

func (c *catalogue) dealRoulette(r *rand.Rand, ps *patterns, ro *Roulette) {
	p := ps.list[ps.pick(r)]
	radix := uint64(36)
	for k := range Kinds {
		if p.mask&(1<<k) == 0 {
			radix *= uint64(len(c.amounts))
			if k == NumberKind {
				radix *= 35
			}
		}
	}
	d := game.DrawDigits(r, radix)
	n := 1 + d.Next(36)
	ro.Number = n
	for k := range Kinds {
		if p.mask&(1<<k) != 0 {
			ro.Bets[k] = Outcome(n, k)
			ro.Amounts[k] = c.amounts[p.amounts[k]]
			continue
		}
		ro.Amounts[k] = c.amounts[d.Next(len(c.amounts))]
		if k == NumberKind {
			m := 1 + d.Next(35)
			if m >= n {
				m++
			}
			ro.Bets[k] = m
		} else {
			ro.Bets[k] = 1 - Outcome(n, k)
		}
	}
}

func (c *catalogue) dealCraps(r *rand.Rand, ps *patterns, cr *Craps) {
	p := ps.list[ps.pick(r)]
	radix := uint64(1)
	for i := range cr {
		if p.mask&(1<<i) != 0 {
			radix *= uint64(len(c.sevens))
		} else {
			radix *= uint64(len(c.others) * len(c.amounts))
		}
	}
	d := game.DrawDigits(r, radix)
	for i := range cr {
		if p.mask&(1<<i) != 0 {
			cr[i].Dice = c.sevens[d.Next(len(c.sevens))]
			cr[i].Amount = c.amounts[p.amounts[i]]
		} else {
			cr[i].Dice = c.others[d.Next(len(c.others))]
			cr[i].Amount = c.amounts[d.Next(len(c.amounts))]
		}
	}
}

// dealPoker deals a shape paying the combination, then gives its rank uses
// distinct ranks at random and each rank's cards random distinct suits, and
// shuffles the order the cards lie in.
func (c *catalogue) dealPoker(r *rand.Rand, combo PokerCombination, p *Poker) {
	sh := &c.poker[combo]
	s := &sh.list[sh.pick(r)]
	d := game.DrawDigits(r, s.radix)
	ranks := [13]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	h, k := 0, 0
	for i, u := range s.ranks {
		j := i + d.Next(13-i)
		ranks[i], ranks[j] = ranks[j], ranks[i]
		suits := [4]int{0, 1, 2, 3}
		t := u.hand + u.community
		for x := range t {
			y := x + d.Next(4-x)
			suits[x], suits[y] = suits[y], suits[x]
		}
		for x := range u.hand {
			p.Hand[h] = NewCard(ranks[i], suits[x])
			h++
		}
		for x := range u.community {
			p.Community[k] = NewCard(ranks[i], suits[u.hand+x])
			k++
		}
	}
	for i := len(p.Hand) - 1; i > 0; i-- {
		j := d.Next(i + 1)
		p.Hand[i], p.Hand[j] = p.Hand[j], p.Hand[i]
	}
	for i := len(p.Community) - 1; i > 0; i-- {
		j := d.Next(i + 1)
		p.Community[i], p.Community[j] = p.Community[j], p.Community[i]
	}
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
