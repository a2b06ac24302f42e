package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/assets"
	"tapis/game/lottery"
	"tapis/game/vegas"
	safe "tapis/text"
)

// ticketView is a ticket as drawn: the live one, or a replay fully
// uncovered.
type ticketView struct {
	ticket  *vegas.Ticket
	coats   *[vegas.Surfaces]coating // nil when every surface is uncovered
	focus   int
	replay  bool
	caption string // a replay's unit, stake and prize
}

func (t *ticketView) uncoverAll() { t.coats = nil }

func (t *ticketView) uncovered(f int) bool { return t.coats == nil || t.coats[f].done() }

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
}

func newTicketArt() ticketArt {
	a := ticketArt{
		card:  assets.MustDrawing("card.txt")[0],
		reel:  assets.MustDrawing("reel.txt")[0],
		wheel: assets.MustDrawing("wheel.txt")[0],
		suits: []rune(assets.MustDrawing("suits.txt")[0][0]),
	}
	for _, row := range assets.MustDrawing("coating.txt")[0] {
		a.coat = append(a.coat, []rune(row))
	}
	return a
}

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

// ticketHeight is what the ticket needs: two rows of framed surfaces and the
// result line.
const ticketHeight = 2*(surfaceH+2) + 1

func (m *Model) vegasLayers(body area) []*lipgloss.Layer {
	s := &m.vegas
	if s.sold == nil {
		return m.buyPrompt(body)
	}
	t := ticketView{ticket: s.sold.Layout.Vegas, coats: &s.coats, focus: s.focus}
	return m.ticketLayers(body, &t)
}

// buyPrompt is the screen before the first ticket: a button to buy one.
func (m *Model) buyPrompt(body area) []*lipgloss.Layer {
	style := m.st.button
	if !m.canPay(vegas.Price()) {
		style = m.st.buttonOff
	}
	btn := style.Render(m.t.f("v.buy", m.t.money(vegas.Price())))
	a := body.centered(lipgloss.Width(btn), 1)
	layers := []*lipgloss.Layer{layer("btn:buy", a, btn)}
	if line := m.vegasNote(); line != "" {
		layers = append(layers, layer("", area{body.x, a.y + 2, body.w, 1}, fit(body.w, 1, ansi.Truncate(line, body.w, "…"))))
	}
	return layers
}

// vegasNote is why the last purchase was refused, or why the wallet cannot
// pay the next ticket, if either; "" otherwise.
func (m *Model) vegasNote() string {
	if n := m.vegas.note; n.kind == noteRefused {
		return m.st.note.Render(n.text)
	}
	if n := m.payNote(lottery.Vegas(), vegas.Price()); n != "" {
		return m.st.note.Render(n)
	}
	return ""
}

// ticketLayers draws the four surfaces in two rows, each named for the mouse,
// and the ticket's result under them.
func (m *Model) ticketLayers(body area, t *ticketView) []*lipgloss.Layer {
	const boxW, boxH = surfaceW + 2, surfaceH + 2
	gap := min(4, max(0, (body.w-2*boxW)/3))
	x0 := body.x + (body.w-(2*boxW+gap))/2
	y0 := body.y + max(0, (body.h-ticketHeight)/2)
	score := t.ticket.Score()
	var layers []*lipgloss.Layer
	for f := range int(vegas.Surfaces) {
		a := area{x0 + (f%2)*(boxW+gap), y0 + (f/2)*boxH, boxW, boxH}
		left := 0
		if !t.uncovered(f) {
			left = t.coats[f].left
		}
		key := fmt.Sprint("surface:", f, t.ticket, left, t.focus == f && !t.done())
		layers = append(layers, layer("surface:"+strconv.Itoa(f), a, m.memoize(key, func() string { return m.surface(t, f, &score) })))
	}
	var line string
	switch {
	case t.replay && score.Prize.IsZero():
		line = m.st.replay.Render(m.t.get("replay")) + "  " + m.st.dim.Render(t.caption) + "  " + m.t.get("v.lot0")
	case t.replay:
		line = m.st.replay.Render(m.t.get("replay")) + "  " + m.st.dim.Render(t.caption) + "  " + m.st.win.Render(m.t.f("v.lot", m.t.money(score.Prize)))
	case !t.done() && !t.replay && m.vegas.note.kind == noteRecovered:
		line = m.st.note.Render(m.t.get("recovered"))
	case !t.done():
		line = m.st.dim.Render(m.t.get("v.hint"))
	case score.Prize.IsZero():
		line = m.t.get("v.lot0") + "  " + m.st.lose.Render(m.t.get("lost"))
	default:
		line = m.celebrate(score.Prize, vegas.Price())
	}
	if t.done() && !t.replay {
		lot := m.t.get("v.lot0")
		if score.Prize.IsPositive() {
			lot = m.t.f("v.lot", m.t.money(score.Prize))
		}
		note := m.vegasNote()
		e := m.elsewhere(vegas.Name)
		switch {
		case note != "" && body.h > ticketHeight: // on the row below
			layers = append(layers, layer("", area{body.x, y0 + 2*boxH + 1, body.w, 1}, fit(body.w, 1, ansi.Truncate(note, body.w, "…"))))
		case note != "":
			line = lot + "   " + note // what the player must know first
		case e != "":
			line += "   " + m.st.win.Render(e)
		default:
			line += m.st.dim.Render("   " + m.t.get("v.next"))
		}
	}
	if !t.replay && m.vegas.sold != nil && m.vegas.sold.Forced != nil {
		line = m.st.replay.Render(safe.Printable(m.vegas.sold.Forced.Label)) + "  " + line
	}
	layers = append(layers, layer("", area{body.x, y0 + 2*boxH, body.w, 1}, fit(body.w, 1, ansi.Truncate(line, body.w, "…"))))
	return layers
}

// surfaceKeys are the text keys of the surfaces' names.
var surfaceKeys = [vegas.Surfaces]string{
	vegas.RouletteSurface: "s.roulette", vegas.CrapsSurface: "s.craps",
	vegas.PokerSurface: "s.poker", vegas.JackpotSurface: "s.jackpot",
}

// surface draws one framed surface: its name on the frame, its content under
// the coating, and once uncovered what it pays.
func (m *Model) surface(t *ticketView, f int, score *vegas.Score) string {
	g := m.surfaceGrid(t.ticket, vegas.Surface(f), score, false)
	var cover func(x, y int) (rune, bool)
	if !t.uncovered(f) {
		c := &t.coats[f]
		label := []rune(m.t.get("v.scratchhere"))
		lx := (surfaceW - len(label)) / 2
		cover = func(x, y int) (rune, bool) {
			if !c.covered[y*surfaceW+x] {
				return 0, false
			}
			if y == surfaceH/2 && x >= lx && x < lx+len(label) {
				return label[x-lx], true
			}
			row := m.art.coat[y%len(m.art.coat)]
			return row[x%len(row)], true
		}
	}
	frame := m.st.surface
	if t.focus == f && !t.done() {
		frame = m.st.surfaceOn
	}
	name := m.t.get(surfaceKeys[f])
	foot := ""
	if t.uncovered(f) {
		if p := score.SurfacePrize(vegas.Surface(f)); p.IsPositive() {
			foot = m.st.win.Render(" +" + m.euros(p) + " ")
		} else {
			foot = m.st.dim.Render(" " + m.t.get("v.none") + " ")
		}
	}
	return framed(frame, surfaceW, strconv.Itoa(f+1)+" · "+name, foot, g.render(&m.inks, cover))
}

// surfaceGrid draws the content of a surface, uncovered; checked, the grid
// can tell its problems.
func (m *Model) surfaceGrid(t *vegas.Ticket, f vegas.Surface, score *vegas.Score, checked bool) *grid {
	g := newGrid(surfaceW, surfaceH, checked)
	switch f {
	case vegas.RouletteSurface:
		m.drawRoulette(g, &t.Roulette, &score.Roulette)
	case vegas.CrapsSurface:
		m.drawCraps(g, &t.Craps, &score.Craps)
	case vegas.PokerSurface:
		m.drawPoker(g, &t.Poker, &score.Poker)
	case vegas.JackpotSurface:
		m.drawJackpot(g, &t.Jackpot, &score.Jackpot)
	}
	return g
}

// framed puts a frame in the border and colour of st around body, w cells
// wide, with a title in its top edge and a note in its bottom edge. The
// chosen surface has a heavy frame, plain to see without colours too.
func framed(st lipgloss.Style, w int, title, foot, body string) string {
	open, close, _ := strings.Cut(lipgloss.NewStyle().Foreground(st.GetBorderTopForeground()).Render("\x00"), "\x00")
	e := st.GetBorderStyle()
	var b strings.Builder
	b.WriteString(open + e.TopLeft + e.Top + " " + close + st.UnsetBorderStyle().Bold(true).Render(title) + open + " ")
	b.WriteString(strings.Repeat(e.Top, max(0, w-3-lipgloss.Width(title))) + e.TopRight + close)
	left, right := open+e.Left+close, open+e.Right+close
	for r := range strings.SplitSeq(body, "\n") {
		b.WriteString("\n" + left + r + right)
	}
	b.WriteString("\n" + open + e.BottomLeft + strings.Repeat(e.Bottom, max(0, w-lipgloss.Width(foot)-1)) + close + foot + open + e.Bottom + e.BottomRight + close)
	return b.String()
}

// euros writes a whole amount without cents ("10 000 €", "€10,000").
func (m *Model) euros(d decimal.Decimal) string {
	s := m.t.money(d)
	if d.Equal(d.Truncate(0)) {
		if m.t.lang == French {
			return strings.Replace(s, ",00", "", 1)
		}
		return strings.Replace(s, ".00", "", 1)
	}
	return s
}

// drawRoulette draws the wheel's number, then a row for each kind of bet
// (art. 4.2): the wheel's result of that kind and its amount, and the chip
// Mise 1 to 4. A row whose chip matches its result is lit.
func (m *Model) drawRoulette(g *grid, r *vegas.Roulette, s *vegas.RouletteScore) {
	colour := m.betWord(vegas.ColorKind, vegas.Outcome(r.Number, vegas.ColorKind))
	for i, row := range m.art.wheel {
		g.art((surfaceW-len([]rune(row)))/2, i, stamp(row, strconv.Itoa(r.Number)+" · "+colour), inkTitle)
	}
	g.text(1, 3, m.t.get("v.results"), inkDim)
	g.text(21, 3, m.t.get("v.bets"), inkDim)
	for k := range vegas.Kinds {
		y := 4 + int(k)
		result, chip := strconv.Itoa(r.Number), strconv.Itoa(r.Bets[k])
		if k != vegas.NumberKind {
			result = m.betWord(k, r.Result(k))
			chip = m.betWord(k, r.Bets[k])
		}
		in := inkPlain
		if s.Wins[k] {
			in = inkWin
		}
		g.text(1, y, result, in)
		g.right(17, y, m.euros(r.Amounts[k]), in)
		g.text(21, y, m.t.f("v.mise", k+1), inkDim)
		g.text(29, y, chip, in)
	}
}

// betKeys are the text keys of the roulette's results and chips, by kind
// and value (a number is written as such).
var betKeys = [vegas.NumberKind][2]string{
	vegas.ParityKind: {"bet.even", "bet.odd"},
	vegas.ColorKind:  {"bet.red", "bet.black"},
	vegas.HalfKind:   {"bet.low", "bet.high"},
}

func (m *Model) betWord(k vegas.Kind, v int) string {
	return m.t.get(betKeys[k][v])
}

// drawCraps draws the three throws and their Gain chips (art. 4.3).
func (m *Model) drawCraps(g *grid, c *vegas.Craps, s *vegas.CrapsScore) {
	for i, th := range c {
		y := 1 + 2*i
		in := inkPlain
		if s.Wins[i] {
			in = inkWin
		}
		g.text(1, y, m.t.f("v.throw", i+1), in)
		g.art(10, y, " "+strconv.Itoa(th.Dice[0])+" ", inkDie)
		g.text(14, y, "+", inkPlain)
		g.art(16, y, " "+strconv.Itoa(th.Dice[1])+" ", inkDie)
		if s.Wins[i] {
			g.text(20, y, "=7", inkWin)
		}
		g.right(surfaceW-2, y, m.t.get("v.gain")+" "+m.euros(th.Amount), in)
	}
}

// drawPoker draws « Cartes communes » and « Vos cartes » (art. 4.4).
func (m *Model) drawPoker(g *grid, p *vegas.Poker, s *vegas.PokerScore) {
	g.text(1, 0, m.t.get("v.community"), inkDim)
	g.text(27, 0, m.t.get("v.hand"), inkDim)
	// The cards of every rank that appears twice or more form the
	// combination when the surface wins (always so on a dealt ticket, V8).
	count := map[int]int{}
	for _, c := range append(p.Hand[:], p.Community[:]...) {
		count[c.Rank()]++
	}
	lit := func(c vegas.Card) bool { return s.Combination != vegas.NoPoker && count[c.Rank()] >= 2 }
	for i, c := range p.Community {
		m.drawCard(g, 1+5*i, 1, c, lit(c))
	}
	for i, c := range p.Hand {
		m.drawCard(g, 27+5*i, 1, c, lit(c))
	}
	if s.Combination != vegas.NoPoker {
		g.center(6, m.t.get(pokerKeys[s.Combination]), inkWin)
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

func (m *Model) drawCard(g *grid, x, y int, c vegas.Card, lit bool) {
	rank := rankNames[m.t.lang][c.Rank()]
	in := inkCard
	switch {
	case lit:
		in = inkCardLit
	case c.Suit() < 2:
		in = inkCardRed
	}
	for i, row := range m.art.card {
		g.art(x, y+i, strings.Replace(row, "###", padRight(rank+string(m.art.suits[c.Suit()]), 3), 1), in)
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

// drawJackpot draws the three reels and the Bonus reel (art. 4.5).
func (m *Model) drawJackpot(g *grid, j *vegas.Jackpot, s *vegas.JackpotScore) {
	for i, sym := range j.Reels {
		m.drawReel(g, 4+10*i, 0, sym)
	}
	if s.Case != vegas.NoJackpot {
		g.center(3, m.t.get(jackpotKeys[s.Case]), inkWin)
	}
	g.text(7, 5, m.t.get("v.bonus"), inkDim)
	m.drawReel(g, 14, 4, j.Bonus)
}

func (m *Model) drawReel(g *grid, x, y int, s vegas.Symbol) {
	name := m.t.get(symbolKeys[s])
	for i, row := range m.art.reel {
		g.art(x, y+i, stamp(row, name), inkReel)
	}
}
