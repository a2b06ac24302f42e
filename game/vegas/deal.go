package vegas

import "math/rand/v2"

// Deal fills t with a ticket showing the lot of the given tier (a lot of the
// table or Losing): a split of the lot over the surfaces is drawn uniformly
// from the catalogue (ruling V7), then each surface's content is drawn
// uniformly among the contents paying its part and obeying ruling V8 (V9).
func Deal(r *rand.Rand, tier int, t *Ticket) {
	c := catalogueOnce()
	splits := c.splits[tier]
	s := splits[r.IntN(len(splits))]
	DealSplit(r, s, t)
}

// DealSplit fills t with a ticket paying exactly the given split. The split
// must be one of the catalogue's or pay amounts every surface can pay; it
// reports false otherwise and leaves t unspecified.
func DealSplit(r *rand.Rand, s Split, t *Ticket) bool {
	c := catalogueOnce()
	ro, cr := c.roulette[s[RouletteSurface]], c.craps[s[CrapsSurface]]
	pk, ok1 := pokerFor(s[PokerSurface])
	jk, ok2 := caseFor(s[JackpotSurface])
	if ro == nil || cr == nil || !ok1 || !ok2 {
		return false
	}
	c.dealRoulette(r, ro, &t.Roulette)
	c.dealCraps(r, cr, &t.Craps)
	c.dealPoker(r, pk, &t.Poker)
	rows := c.jackpot[jk]
	t.Jackpot = rows[r.IntN(len(rows))]
	return true
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
	n := 1 + r.IntN(36)
	ro.Number = n
	for k := range Kinds {
		if p.mask&(1<<k) != 0 {
			ro.Bets[k] = Outcome(n, k)
			ro.Amounts[k] = c.amounts[p.amounts[k]]
			continue
		}
		ro.Amounts[k] = c.amounts[r.IntN(len(c.amounts))]
		if k == NumberKind {
			m := 1 + r.IntN(35)
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
	for i := range cr {
		if p.mask&(1<<i) != 0 {
			cr[i].Dice = c.sevens[r.IntN(len(c.sevens))]
			cr[i].Amount = c.amounts[p.amounts[i]]
		} else {
			cr[i].Dice = c.others[r.IntN(len(c.others))]
			cr[i].Amount = c.amounts[r.IntN(len(c.amounts))]
		}
	}
}

// dealPoker deals a shape paying the combination, then gives its rank uses
// distinct ranks at random and each rank's cards random distinct suits, and
// shuffles the order the cards lie in.
func (c *catalogue) dealPoker(r *rand.Rand, combo PokerCombination, p *Poker) {
	sh := &c.poker[combo]
	s := sh.list[sh.pick(r)]
	ranks := [13]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	h, k := 0, 0
	for i, u := range s.ranks {
		j := i + r.IntN(13-i)
		ranks[i], ranks[j] = ranks[j], ranks[i]
		suits := [4]int{0, 1, 2, 3}
		t := u.hand + u.community
		for x := range t {
			y := x + r.IntN(4-x)
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
		j := r.IntN(i + 1)
		p.Hand[i], p.Hand[j] = p.Hand[j], p.Hand[i]
	}
	for i := len(p.Community) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
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
