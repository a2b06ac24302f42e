package ui

import (
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
