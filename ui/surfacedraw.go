package ui

// The four surfaces' drawings on a ticket's grid (art. 4): the Roulette,
// the Craps, the Poker and the Jackpot, each drawn from its layout and lit
// where it wins.

import (
	"strconv"
	"strings"

	"tapis/game/vegas"
)

// drawRoulette draws the wheel's number, then a row for each kind of bet
// (art. 4.2): the wheel's result of that kind and its amount, and the chip
// Mise 1 to 4. A row whose chip matches its result is lit.
func (c *common) drawRoulette(g *grid, r *vegas.Roulette, s *vegas.RouletteScore) {
	colour := c.betWord(vegas.ColorKind, vegas.Outcome(r.Number, vegas.ColorKind))
	z := ticketSize{g.w, g.h}
	betsY, pilesX, chipX, wheelY := z.roulette()
	wheelY-- // the wheel's middle row is where "scratch here" is written
	left, amountX := 1, 17
	if z.large() {
		left, amountX = 2, 25
	}
	for i, row := range c.ticketArt().wheel {
		g.art((g.w-len([]rune(row)))/2, wheelY+i, stamp(row, strconv.Itoa(r.Number)+" · "+colour), inkTitle)
	}
	g.text(left, betsY-1, c.t.get("v.results"), inkDim)
	g.text(pilesX, betsY-1, c.t.get("v.bets"), inkDim)
	for k := range vegas.Kinds {
		y := betsY + int(k)
		result, chip := strconv.Itoa(r.Number), strconv.Itoa(r.Bets[k])
		if k != vegas.NumberKind {
			result = c.betWord(k, r.Result(k))
			chip = c.betWord(k, r.Bets[k])
		}
		in := inkPlain
		if s.Wins[k] {
			in = inkWin
		}
		g.text(left, y, result, in)
		g.right(amountX, y, c.euros(r.Amounts[k].Decimal()), in)
		g.text(pilesX, y, c.t.f("v.mise", k+1), inkDim)
		g.text(chipX, y, chip, in)
	}
}

// betKeys are the text keys of the roulette's results and chips, by kind
// and value (a number is written as such).
var betKeys = [vegas.NumberKind][2]string{
	vegas.ParityKind: {"bet.even", "bet.odd"},
	vegas.ColorKind:  {"bet.red", "bet.black"},
	vegas.HalfKind:   {"bet.low", "bet.high"},
}

func (c *common) betWord(k vegas.Kind, v int) string {
	return c.t.get(betKeys[k][v])
}

// drawCraps draws the three throws side by side, each its two dice as die
// faces over its Gain chip (art. 4.3); a throw of 7 says so under its dice.
func (c *common) drawCraps(g *grid, cr *vegas.Craps, s *vegas.CrapsScore) {
	// A throw's column: two dice and a gap; the larger surface's dice are
	// the wide ones, a pip every other cell.
	col, x0, y0, dieW, dice := 12, 1, 0, 5, &c.ticketArt().dice
	if g.w > surfaceW {
		col, x0, y0, dieW, dice = 17, 2, 1, 7, &c.ticketArt().wideDice
	}
	for i, th := range cr {
		x := x0 + col*i
		in := inkPlain
		if s.Wins[i] {
			in = inkWin
		}
		g.text(x, y0, c.t.f("v.throw", i+1), in)
		for d, v := range th.Dice {
			for r, row := range dice[v-1] {
				g.art(x+(dieW+1)*d, y0+1+r, row, inkDie)
			}
		}
		if s.Wins[i] {
			g.text(x+dieW-1, y0+4, "= 7", inkWin)
		}
		gainY := y0 + 5
		if g.w > surfaceW {
			gainY++
		}
		g.text(x, gainY, c.t.get("v.gain"), in)
		g.amount(x, gainY+1, c.euros(th.Amount.Decimal()), in)
	}
}

// drawPoker draws « Cartes communes » and « Vos cartes » (art. 4.4).
func (c *common) drawPoker(g *grid, p *vegas.Poker, s *vegas.PokerScore) {
	// The larger surface's cards are larger: seven cells by five.
	cardW, handX, y0, comboY := 5, 27, 0, 6
	if g.w > surfaceW {
		cardW, handX, y0, comboY = 7, 39, 1, 9
	}
	g.text(1, y0, c.t.get("v.community"), inkDim)
	g.text(handX, y0, c.t.get("v.hand"), inkDim)
	// The cards of every rank that appears twice or more form the
	// combination when the surface wins (always so on a dealt ticket, V8).
	count := map[int]int{}
	for _, card := range append(p.Hand[:], p.Community[:]...) {
		count[card.Rank()]++
	}
	lit := func(card vegas.Card) bool { return s.Combination != vegas.NoPoker && count[card.Rank()] >= 2 }
	for i, card := range p.Community {
		c.drawCard(g, 1+cardW*i, y0+1, card, lit(card))
	}
	for i, card := range p.Hand {
		c.drawCard(g, handX+cardW*i, y0+1, card, lit(card))
	}
	if s.Combination != vegas.NoPoker {
		g.center(comboY, c.t.get(pokerKeys[s.Combination]), inkWin)
	}
}

// pokerKeys are the text keys of the Poker surface's paying combinations.
var pokerKeys = map[vegas.PokerCombination]string{
	vegas.PokerPair: "p.pair", vegas.PokerTwoPairs: "p.two_pairs", vegas.PokerThreeOfAKind: "p.three_of_a_kind",
	vegas.PokerFullHouse: "p.full_house", vegas.PokerFourOfAKind: "p.four_of_a_kind",
}

// rankNames are the card ranks as each language writes them: French cards
// read R, D, V for the king, the queen and the jack.
var rankNames = map[Lang][13]string{
	English: {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"},
	French:  {"2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R", "A"},
}

func (c *common) drawCard(g *grid, x, y int, card vegas.Card, lit bool) {
	rank := rankNames[c.t.lang][card.Rank()]
	in := inkCard
	switch {
	case lit:
		in = inkCardLit
	case card.Suit() < 2:
		in = inkCardRed
	}
	suit := string(c.ticketArt().suits[card.Suit()])
	if g.w > surfaceW { // the larger card: its rank in two corners, its suit in the middle
		r := strings.NewReplacer("RR", padRight(rank, 2), "rr", padLeft(rank, 2), "S", suit)
		for i, row := range c.ticketArt().largeCard {
			g.art(x, y+i, r.Replace(row), in)
		}
		return
	}
	for i, row := range c.ticketArt().card {
		g.art(x, y+i, strings.Replace(row, "###", padRight(rank+suit, 3), 1), in)
	}
}

// jackpotKeys are the text keys of the Jackpot surface's paying cases, and
// symbolKeys those of its symbols.
var (
	jackpotKeys = map[vegas.JackpotCase]string{
		vegas.CherryCase: "j.cherry", vegas.StarCase: "j.star", vegas.BellCase: "j.bell",
		vegas.BarCase: "j.bar", vegas.CrownCase: "j.crown", vegas.SevenCase: "j.seven",
	}
	symbolKeys = [vegas.Symbols]string{
		vegas.Seven: "sym.seven", vegas.Crown: "sym.crown", vegas.Bar: "sym.bar",
		vegas.Bell: "sym.bell", vegas.Star: "sym.star", vegas.Cherry: "sym.cherry",
	}
)

// drawJackpot draws the three reels and, under them, the Bonus reel
// (art. 4.5), each showing its symbol's drawing; what the symbols pay is
// written beside the Bonus reel.
func (c *common) drawJackpot(g *grid, j *vegas.Jackpot, s *vegas.JackpotScore) {
	// The reels, ten cells wide, side by side (apart on the larger
	// surface); the Bonus reel under them, its name left of it and what
	// the symbols pay right of it.
	reelsX, step, y0, bonusX, bonusY, left := 4, 10, 0, 8, 4, 1
	if g.w > surfaceW {
		reelsX, step, y0, bonusX, bonusY, left = 8, 14, 1, 14, 6, 4
	}
	for i, sym := range j.Reels {
		c.drawReel(g, reelsX+step*i, y0, sym)
	}
	g.text(left, bonusY+1, c.t.get("v.bonus"), inkDim)
	c.drawReel(g, bonusX, bonusY, j.Bonus)
	if s.Case != vegas.NoJackpot {
		x0 := bonusX + 11 // right of the Bonus reel
		name := c.t.get(jackpotKeys[s.Case])
		g.text(x0+max(0, (g.w-x0-len([]rune(name)))/2), bonusY+1, name, inkWin)
	}
}

// drawReel draws a reel at (x, y) showing symbol s.
func (c *common) drawReel(g *grid, x, y int, s vegas.Symbol) {
	art := c.ticketArt()
	n := 0
	for i, row := range art.reel {
		if strings.Contains(row, "#") && n < len(art.symbols[s]) {
			row = stamp(row, art.symbols[s][n])
			n++
		}
		g.art(x, y+i, row, inkReel)
	}
}
