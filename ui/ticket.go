package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/assets"
	"tapis/game/vegas"
)

// ticketView is a ticket as drawn: the live one, or a replay fully
// uncovered.
type ticketView struct {
	ticket  *vegas.Ticket
	coats   *[vegas.Surfaces]coating // nil when every surface is uncovered
	focus   int
	gen     int // the coatings' generation: a new one with every ticket taken
	replay  bool
	caption string     // a replay's unit, stake and prize
	size    ticketSize // what its surfaces are drawn at, for the body they are drawn in

	recovered bool   // the ticket is one of an earlier run
	label     string // a forced ticket's label (QA, DEMO)
	note      string // the line the screen has to say once the ticket is shown
	elsewhere string // where another unit left unrevealed waits
	// next is the button that buys the next ticket, once this one is
	// shown: the live screen's, nil on a replay.
	next *drawing
}

func (t *ticketView) uncoverAll() { t.coats = nil }

func (t *ticketView) uncovered(f int) bool { return t.coats == nil || t.coats[f].done() }

// uncoveredSet returns the surfaces uncovered so far, a bit each.
func (t *ticketView) uncoveredSet() uint8 {
	var set uint8
	for f := range int(vegas.Surfaces) {
		if t.uncovered(f) {
			set |= 1 << f
		}
	}
	return set
}

// wonSoFar returns what the surfaces uncovered so far pay.
func (t *ticketView) wonSoFar(score *vegas.Score) decimal.Decimal {
	won := decimal.Zero
	for f := range int(vegas.Surfaces) {
		if t.uncovered(f) {
			won = won.Add(score.SurfacePrize(vegas.Surface(f)).Decimal())
		}
	}
	return won
}

func (t *ticketView) done() bool {
	for f := range int(vegas.Surfaces) {
		if !t.uncovered(f) {
			return false
		}
	}
	return true
}

// ticketArt holds the ticket's drawings from assets/.
type ticketArt struct {
	card, reel, wheel []string
	suits             []rune
	coat              [][]rune
	largeCard         []string                // the larger surface's card
	symbols           [vegas.Symbols][]string // the Jackpot's symbols, as a reel shows them
	dice, wideDice    [6][3]string            // the craps dice's faces, pips drawn, and the larger surface's
}

// symbolNames are the Jackpot's symbols as symbols.txt names them.
var symbolNames = map[string]vegas.Symbol{
	"seven": vegas.Seven, "crown": vegas.Crown, "bar": vegas.Bar,
	"bell": vegas.Bell, "star": vegas.Star, "cherry": vegas.Cherry,
}

func newTicketArt() ticketArt {
	a := ticketArt{
		card:      assets.MustDrawing("card.txt")[0],
		largeCard: assets.MustDrawing("card.txt")[1],
		reel:      assets.MustDrawing("reel.txt")[0],
		wheel:     assets.MustDrawing("wheel.txt")[0],
		suits:     []rune(assets.MustDrawing("suits.txt")[0][0]),
	}
	for _, row := range assets.MustDrawing("coating.txt")[0] {
		a.coat = append(a.coat, []rune(row))
	}
	for _, b := range assets.MustDrawing("symbols.txt") {
		if s, ok := symbolNames[b[0]]; ok {
			a.symbols[s] = b[1:]
		}
	}
	for f, face := range assets.MustDrawing("dice.txt") {
		for r, row := range face {
			a.dice[f][r] = " " + pips(row) + " "
			a.wideDice[f][r] = " " + pips(string([]rune{rune(row[0]), ' ', rune(row[1]), ' ', rune(row[2])})) + " "
		}
	}
	return a
}

// ticketArt returns the ticket's drawings.
func (c *common) ticketArt() *ticketArt { return c.art.ticket }

// gridInks returns the inks of the ticket's grids.
func (c *common) gridInks() *inks { return c.art.inks }

// stamp writes text over the run of "#" in a drawing's row, centred.
func stamp(row, text string) string {
	i, j := strings.Index(row, "#"), strings.LastIndex(row, "#")
	if i < 0 {
		return row
	}
	n := len([]rune(row[i : j+1]))
	w := len([]rune(text))
	pad := max(0, n-w)
	return row[:i] + spaces(pad/2) + text + spaces(pad-pad/2) + row[j+1:]
}

func (s *vegasScreen) layers(body area) []layer {
	if s.sold == nil {
		return s.buyPrompt(body)
	}
	t := ticketView{ticket: s.sold.Layout.Vegas, coats: &s.coats, focus: s.focus, gen: s.gen,
		recovered: s.note.kind == noteRecovered, note: s.noteLine(), elsewhere: s.elsewhere(vegas.Name)}
	if !s.revealing() && t.note == "" {
		t.next = s.buyButton("v.again")
	}
	if s.sold.Forced != nil {
		t.label = s.sold.Forced.Label
	}
	s.laid = s.ticketLayers(s.laid[:0], body, &t)
	s.size = t.size // where the mouse scratches
	return s.laid
}

// buyKey is a buy button, on or off, with its text's key.
type buyKey struct {
	off   bool
	label string
}

// buyButton is the button that buys a ticket: off while a purchase is
// under way or the balance does not pay one.
func (s *vegasScreen) buyButton(label string) *drawing {
	off := s.busy || !s.till.canPay(s.stake())
	return drawn(s.common, buyKey{off, label}, func() string {
		style := s.st.button
		if off {
			style = s.st.buttonOff
		}
		return style.Render(s.t.f(label, s.t.money(s.stake())))
	})
}

// buyPrompt is the screen before the first ticket: a button to buy one,
// over a preview of the ticket and its lot table where they fit.
func (s *vegasScreen) buyPrompt(body area) []layer {
	btn := s.buyButton("v.buy")
	a := body.centered(btn.w, 1)
	layers, top, ok := s.preview(s.laid[:0], body)
	if ok {
		a.y = top
	}
	layers = append(layers, named(target{kind: buyTarget}, a, btn))
	if line := s.noteLine(); line != "" && a.y+2 < body.y+body.h {
		layers = append(layers, place(area{body.x, a.y + 2, body.w, 1}, s.centerLine(body.w, line)))
	} else if line != "" { // the note, on the last row, under the button
		layers = append(layers, place(area{body.x, a.y + 1, body.w, 1}, s.centerLine(body.w, line)))
	}
	s.laid = layers
	return layers
}

// noteLine is why the last purchase was refused, or why the wallet cannot
// pay the next ticket, if either; "" otherwise.
func (s *vegasScreen) noteLine() string {
	switch {
	case s.note.refused():
		return s.st.note.Render(s.say(s.note))
	case s.busy:
		return s.st.dim.Render(s.t.get("buying"))
	}
	if n := s.payNote(s.g, s.stake()); n != "" {
		return s.st.note.Render(n)
	}
	return ""
}

// Keys of the ticket's drawings.
type (
	surfaceKey struct {
		f, gen int
		ticket *vegas.Ticket
		left   int // the cells still covered: fewer with every scratch of one coating
		lit    bool
		size   ticketSize
	}
	ticketLineKey struct {
		ticket                                *vegas.Ticket
		w                                     int
		replay, done, recovered, below, flash bool
		next                                  bool // the next ticket's button beside it
		caption, label, note, elsewhere       string
		sofar                                 uint8 // the surfaces uncovered so far, a bit each
	}
)

// ticketTop is the row of a body the ticket's first row is drawn on: its
// rows centred.
func ticketTop(body area) int { return body.y + max(0, (body.h-ticketSizeFor(body).height())/2) }

// ticketLayers appends to layers the four surfaces in two rows, each named
// for the mouse, and the ticket's result under them.
func (c *common) ticketLayers(layers []layer, body area, t *ticketView) []layer {
	t.size = ticketSizeFor(body)
	boxW, boxH := t.size.boxW(), t.size.boxH()
	gap := min(4, max(0, (body.w-2*boxW)/3))
	x0 := body.x + (body.w-(2*boxW+gap))/2
	y0 := ticketTop(body)
	// A big win: its lettering over the top surfaces, a jackpot's over the
	// bottom ones too.
	party := c.party.frame > 0 && !t.replay && t.done() && c.party.celebrating(t.ticket.Score().Prize.Decimal(), vegas.Price())
	if party {
		layers = append(layers, c.partyBands(area{x0, y0, 2*boxW + gap, boxH}, area{x0, y0 + boxH, 2*boxW + gap, boxH})...)
	}
	for f := range int(vegas.Surfaces) {
		if party && (f < 2 || c.party.huge) {
			continue
		}
		a := area{x0 + (f%2)*(boxW+gap), y0 + (f/2)*boxH, boxW, boxH}
		left := 0
		if !t.uncovered(f) {
			left = t.coats[f].left
		}
		key := surfaceKey{f, t.gen, t.ticket, left, t.focus == f && !t.done(), t.size}
		draw := func() string {
			score := t.ticket.Score()
			return c.surface(t, f, &score)
		}
		var d *drawing
		if left > 0 {
			// A coating is drawn again at every scratch, and never shows
			// again once scratched more: kept only while it shows, and
			// drawn again only on the rows the scratch changed.
			d = c.kept.surfaces[f].get(key, func() *drawing { return c.drawCoated(t, f) })
		} else {
			d = drawn(c, key, draw)
		}
		layers = append(layers, named(target{surfaceTarget, f}, a, d))
	}
	done := t.done()
	below := done && !t.replay && t.note != "" && body.h > t.size.height() // the note on the row below
	k := ticketLineKey{t.ticket, body.w, t.replay, done, t.recovered, below, c.party.flashing(),
		t.next != nil, t.caption, t.label, t.note, t.elsewhere, t.uncoveredSet()}
	if below {
		layers = append(layers, place(area{body.x, y0 + 2*boxH + 1, body.w, 1}, c.centerLine(body.w, t.note)))
	}
	y := y0 + 2*boxH
	if t.next != nil && !below {
		// What it won, and the button that buys the next ticket beside it:
		// a click buys where the button is drawn.
		const gap = 3
		text := drawn(c, k, func() string { return ansi.Truncate(c.ticketLine(t, below), max(0, body.w-t.next.w-gap), "…") })
		x := body.x + max(0, (body.w-text.w-gap-t.next.w)/2)
		return append(layers, place(area{x, y, text.w, 1}, text),
			named(target{kind: buyTarget}, area{x + text.w + gap, y, t.next.w, 1}, t.next))
	}
	line := drawn(c, k, func() string { return fit(body.w, 1, ansi.Truncate(c.ticketLine(t, below), body.w, "…")) })
	return append(layers, place(area{body.x, y, body.w, 1}, line))
}

// ticketLine is the line under the ticket: how to scratch it, or what it
// won; below says the note is on the row under it.
func (c *common) ticketLine(t *ticketView, below bool) string {
	score := t.ticket.Score()
	var line string
	switch {
	case t.replay && score.Prize.IsZero():
		line = c.st.replay.Render(c.t.get("replay")) + "  " + c.st.dim.Render(t.caption) + "  " + c.t.get("v.lot0")
	case t.replay:
		line = c.st.replay.Render(c.t.get("replay")) + "  " + c.st.dim.Render(t.caption) + "  " + c.st.win.Render(c.t.f("v.lot", c.t.money(score.Prize.Decimal())))
	case !t.done() && !t.replay && t.recovered:
		line = c.st.note.Render(c.t.get("recovered"))
	case !t.done():
		v := c.keys.vegas
		line = c.st.dim.Render(c.t.f("v.hint", v.Choose.Help().Key, v.Scratch.Help().Key, v.All.Help().Key))
		if won := t.wonSoFar(&score); won.IsPositive() { // the lot counts up surface by surface
			line = c.st.win.Render(c.t.f("v.sofar", c.t.money(won))) + "  " + line
		}
	case score.Prize.IsZero():
		line = c.st.lose.Render(c.t.get("lost"))
	default:
		line = c.celebrate(score.Prize.Decimal(), vegas.Price())
	}
	if t.done() && !t.replay {
		lot := c.t.get("v.lot0")
		if score.Prize.IsPositive() {
			lot = c.t.f("v.lot", c.t.money(score.Prize.Decimal()))
		}
		switch note, e := t.note, t.elsewhere; {
		case below:
		case note != "":
			line = lot + "   " + note // what the player must know first
		case e != "":
			line += "   " + c.st.win.Render(e)
		case t.next == nil:
			line += c.st.dim.Render("   " + c.t.get("v.next"))
		}
	}
	if t.label != "" {
		line = c.st.replay.Render(c.unitLabel(t.label)) + "  " + line
	}
	return line
}

// surfaceKeys are the text keys of the surfaces' names.
var surfaceKeys = [vegas.Surfaces]string{
	vegas.RouletteSurface: "s.roulette", vegas.CrapsSurface: "s.craps",
	vegas.PokerSurface: "s.poker", vegas.JackpotSurface: "s.jackpot",
}

// surface draws one framed surface: its name on the frame, its content under
// the coating, and once uncovered what it pays.
func (c *common) surface(t *ticketView, f int, score *vegas.Score) string {
	z := t.size
	if z.w == 0 {
		z = regularSurface
	}
	g := c.surfaceGrid(t.ticket, vegas.Surface(f), score, false, z)
	var cover func(x, y int) (rune, bool)
	if !t.uncovered(f) {
		cover = c.coverOf(&t.coats[f], f, z)
	}
	frame := c.surfaceFrame(t.focus == f && !t.done())
	foot := ""
	if t.uncovered(f) {
		if p := score.SurfacePrize(vegas.Surface(f)); p.IsPositive() {
			foot = c.st.win.Render(" +" + c.euros(p.Decimal()) + " ")
		} else {
			foot = c.st.dim.Render(" " + c.t.get("v.none") + " ")
		}
	}
	return framed(frame, z.w, c.surfaceTitle(f), foot, g.render(c.gridInks(), cover))
}

// surfaceGrid draws the content of a surface, uncovered, at a size;
// checked, the grid can tell its problems.
func (c *common) surfaceGrid(t *vegas.Ticket, f vegas.Surface, score *vegas.Score, checked bool, z ticketSize) *grid {
	g := newGrid(z.w, z.h, checked)
	switch f {
	case vegas.RouletteSurface:
		c.drawRoulette(g, &t.Roulette, &score.Roulette)
	case vegas.CrapsSurface:
		c.drawCraps(g, &t.Craps, &score.Craps)
	case vegas.PokerSurface:
		c.drawPoker(g, &t.Poker, &score.Poker)
	case vegas.JackpotSurface:
		c.drawJackpot(g, &t.Jackpot, &score.Jackpot)
	}
	return g
}

// euros writes a whole amount without cents ("10 000 €", "€10,000").
func (c *common) euros(d decimal.Decimal) string {
	s := c.t.money(d)
	if d.Equal(d.Truncate(0)) {
		if c.t.lang == French {
			return strings.Replace(s, ",00", "", 1)
		}
		return strings.Replace(s, ".00", "", 1)
	}
	return s
}

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
