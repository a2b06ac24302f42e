package ui

import (
	"math/rand/v2"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/game/vegas"
)

// Size of a surface's scratch area, inside its frame: two surfaces side by
// side fit 80 columns.
const (
	surfaceW = 38
	surfaceH = 8
)

// uncoveredAt is the share of a coating that, once scratched, uncovers the
// whole surface.
const uncoveredAt = 0.8

// coating is the scratchable layer over one surface (couche grattable).
type coating struct {
	covered []bool
	left    int
}

func newCoating() coating {
	c := coating{covered: make([]bool, surfaceW*surfaceH), left: surfaceW * surfaceH}
	for i := range c.covered {
		c.covered[i] = true
	}
	return c
}

// done reports whether the surface is uncovered.
func (c *coating) done() bool { return c.left == 0 }

// scratch removes the coating in a brush around (x, y): 5 cells wide and 3
// high, rounded. Past uncoveredAt the rest comes off too.
func (c *coating) scratch(x, y int) {
	if c.done() {
		return
	}
	for dy := -1; dy <= 1; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if (dy != 0 && (dx == -2 || dx == 2)) || x+dx < 0 || x+dx >= surfaceW || y+dy < 0 || y+dy >= surfaceH {
				continue
			}
			if i := (y+dy)*surfaceW + x + dx; c.covered[i] {
				c.covered[i] = false
				c.left--
			}
		}
	}
	if float64(c.left) <= (1-uncoveredAt)*float64(len(c.covered)) {
		c.uncover()
	}
}

// stroke scratches along the segment from (x0, y0) to (x1, y1).
func (c *coating) stroke(x0, y0, x1, y1 int) {
	n := max(abs(x1-x0), abs(y1-y0), 1)
	for i := 0; i <= n; i++ {
		c.scratch(x0+(x1-x0)*i/n, y0+(y1-y0)*i/n)
	}
}

func (c *coating) uncover() {
	for i := range c.covered {
		c.covered[i] = false
	}
	c.left = 0
}

// dabs scratches a few random places: one press of space.
func (c *coating) dabs(r *rand.Rand, n int) {
	for range n {
		c.scratch(r.IntN(surfaceW), r.IntN(surfaceH))
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// vegasScreen is « Vegas »: the ticket being scratched, surface by surface.
type vegasScreen struct {
	*common
	slot
	g      lottery.Game // Vegas, made once: a frame asks for its price
	coats  [vegas.Surfaces]coating
	focus  int
	drag   int // the surface being scratched by a drag, or -1
	lastX  int
	lastY  int
	gen    int // generation of the scratch-everything animation
	autoOn bool
	size   ticketSize // the surfaces' size as last laid out: the mouse scratches at it
	laid   []layer    // the array layers fills, frame after frame
}

func newVegasScreen(c *common) *vegasScreen {
	return &vegasScreen{common: c, g: lottery.Vegas(), drag: -1}
}

func (s *vegasScreen) game() lottery.Game       { return s.g }
func (s *vegasScreen) stake() decimal.Decimal   { return s.g.Stakes[0] }
func (s *vegasScreen) setStake(decimal.Decimal) {}

// take puts a ticket on the screen under its four coatings; the ticks of
// the last ticket's animation are dropped.
func (s *vegasScreen) take(sold *lottery.Sold, n note) {
	*s = vegasScreen{common: s.common, g: s.g, slot: slot{sold: sold, note: n}, drag: -1, gen: s.gen + 1, laid: s.laid}
	for i := range s.coats {
		s.coats[i] = newCoating()
	}
}

// reset empties the screen for a fresh wallet.
func (s *vegasScreen) reset() {
	*s = vegasScreen{common: s.common, g: s.g, drag: -1, gen: s.gen + 1, laid: s.laid}
}

func (s *vegasScreen) revealing() bool {
	if s.sold == nil {
		return false
	}
	for i := range s.coats {
		if !s.coats[i].done() {
			return true
		}
	}
	return false
}

func (s *vegasScreen) shownNow() *lottery.Sold { return s.seen(s.revealing()) }

func (s *vegasScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s.key(msg)
	case clickMsg:
		return s.pointer(msg)
	case releaseMsg:
		s.drag = -1
	case scratchTickMsg:
		return s.tick(msg)
	case boughtMsg:
		return takeBought(s, &s.slot, s.till, msg)
	}
	return nil
}

func (s *vegasScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys.vegas
	if s.hold(msg, key.Matches(msg, k.All, k.Scratch, k.Choose)) {
		return nil
	}
	switch {
	case key.Matches(msg, k.Buy):
		return s.play(false)
	case key.Matches(msg, k.Next):
		s.focus = (s.focus + 1) % int(vegas.Surfaces)
	case key.Matches(msg, k.Scratch):
		if s.revealing() {
			s.coats[s.focus].dabs(s.rng, 6)
			s.nextCovered()
		}
	case key.Matches(msg, k.All):
		return s.play(true)
	case key.Matches(msg, k.Speed):
		s.changeSpeed()
	}
	for i, f := range k.Surfaces {
		if key.Matches(msg, f) {
			s.focus = i
		}
	}
	return nil
}

// play buys a ticket (3 €) when none is being scratched; auto scratches
// it all (« a »), or the ticket on screen.
func (s *vegasScreen) play(auto bool) tea.Cmd { return playOn(s, &s.slot, s.till, auto) }

// revealAll scratches every surface still covered.
func (s *vegasScreen) revealAll() tea.Cmd { return s.scratchAll() }

// scratchAll starts scratching every surface of the ticket being revealed
// (« a »), one after another from the chosen one, if it is not under way.
func (s *vegasScreen) scratchAll() tea.Cmd {
	if !s.revealing() || s.autoOn {
		return nil
	}
	s.autoOn = true
	s.gen++
	return s.clock.After(s.pace().scratchEvery, scratchTickMsg{s.gen})
}

// revealStep scratches a few strokes more, at the demo's pace.
func (s *vegasScreen) revealStep() (tea.Cmd, time.Duration) {
	s.nextCovered()
	s.coats[s.focus].dabs(s.rng, 3)
	s.nextCovered()
	return nil, demoScratch
}

// nextCovered moves the focus to a covered surface once the focused one is
// uncovered.
func (s *vegasScreen) nextCovered() {
	for i := range int(vegas.Surfaces) {
		f := (s.focus + i) % int(vegas.Surfaces)
		if !s.coats[f].done() {
			s.focus = f
			return
		}
	}
}

// pointer scratches where the mouse presses or drags on a surface; (x, y)
// is relative to the named layer's corner. A click on the buy button buys
// a ticket.
func (s *vegasScreen) pointer(c clickMsg) tea.Cmd {
	if c.target.kind == buyTarget && !c.drag {
		return s.play(false)
	}
	f := c.target.n
	if c.target.kind != surfaceTarget || f >= int(vegas.Surfaces) || !s.revealing() {
		s.drag = -1
		return nil
	}
	x, y := c.x-1, c.y-1 // inside the frame, then on the coating
	if z := s.size; z.large() && x >= 0 && y >= 0 && x < z.w && y < z.h {
		x, y = z.coatAt(x, y)
	}
	if s.drag == f {
		s.coats[f].stroke(s.lastX, s.lastY, x, y)
	} else {
		s.coats[f].scratch(x, y)
	}
	s.focus, s.drag, s.lastX, s.lastY = f, f, x, y
	if s.coats[f].done() {
		s.drag = -1
		s.nextCovered()
	}
	return nil
}

// scratchEvery is Auto's step on a surface, on a local terminal.
const scratchEvery = 40 * time.Millisecond

// tick scratches a little more of the chosen surface, until it is
// uncovered; then, a beat later (the speed's), the next covered one, until
// all are: the animation of « a », surface by surface.
func (s *vegasScreen) tick(t scratchTickMsg) tea.Cmd {
	if t.gen != s.gen || !s.autoOn || !s.revealing() {
		s.autoOn = false
		return nil
	}
	s.nextCovered()
	f := s.focus
	s.coats[f].dabs(s.rng, s.pace().dabs)
	switch {
	case !s.revealing():
		s.autoOn = false
		return nil
	case s.coats[f].done():
		s.nextCovered()
		return s.clock.After(s.pace().land, t)
	}
	return s.clock.After(s.pace().scratchEvery, t)
}

func (s *vegasScreen) keyMap() keyMap {
	revealing := s.revealing()
	busy, pays := revealing || s.busy, s.till.canPay(s.stake())
	return s.keyMapOf(keyMapKey{VegasScreen, states(busy, pays, revealing)}, func() keyMap {
		v := s.keys.vegas
		own := []key.Binding{v.Buy, v.Choose, v.Scratch, v.All, v.Speed}
		// The hint under the ticket says how to choose a surface.
		short := []key.Binding{only(v.Buy, !busy && pays), only(v.Scratch, revealing), only(v.All, busy || pays), only(v.Speed, revealing)}
		return s.withGlobal(VegasScreen, own, short)
	})
}
