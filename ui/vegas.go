package ui

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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

// vegasState is the Vegas screen: the ticket being scratched.
type vegasState struct {
	sold   *lottery.Sold
	coats  [vegas.Surfaces]coating
	focus  int
	drag   int // the surface being scratched by a drag, or -1
	lastX  int
	lastY  int
	gen    int  // generation of the scratch-everything animation
	note   note // why the last purchase was refused, or a ticket recovered
	autoOn bool
	shown  bool // the journal knows the ticket was revealed
}

func newVegasState() vegasState { return vegasState{drag: -1} }

// start puts a ticket on the screen under its four coatings; the ticks of
// the last ticket's animation are dropped.
func (s *vegasState) start(sold *lottery.Sold) {
	*s = vegasState{sold: sold, drag: -1, gen: s.gen + 1}
	for i := range s.coats {
		s.coats[i] = newCoating()
	}
}

func (s *vegasState) revealing() bool {
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

func (m *Model) vegasKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.vegas
	s := &m.vegas
	switch {
	case key.Matches(msg, k.Buy):
		return m.buyTicket()
	case key.Matches(msg, k.Surface):
		n, _ := strconv.Atoi(msg.String())
		s.focus = n - 1
	case key.Matches(msg, k.Next):
		s.focus = (s.focus + 1) % int(vegas.Surfaces)
	case key.Matches(msg, k.Scratch):
		if s.revealing() {
			s.coats[s.focus].dabs(m.rng, 6)
			m.nextCovered()
		}
	case key.Matches(msg, k.All):
		if !s.revealing() {
			m.buyTicket()
		}
		return m.scratchAll()
	}
	return nil
}

// scratchAll starts scratching every surface of the ticket being revealed
// (« a »), if it is not under way.
func (m *Model) scratchAll() tea.Cmd {
	s := &m.vegas
	if !s.revealing() || s.autoOn {
		return nil
	}
	s.autoOn = true
	s.gen++
	return scratchTick(s.gen)
}

// nextCovered moves the focus to a covered surface once the focused one is
// uncovered.
func (m *Model) nextCovered() {
	s := &m.vegas
	for i := range int(vegas.Surfaces) {
		f := (s.focus + i) % int(vegas.Surfaces)
		if !s.coats[f].done() {
			s.focus = f
			return
		}
	}
}

// buyTicket buys a ticket (3 €) when none is being scratched.
func (m *Model) buyTicket() tea.Cmd {
	s := &m.vegas
	if s.revealing() || m.offer(vegas.Name) {
		return nil
	}
	sold, _, err := m.sell(lottery.Vegas(), vegas.Price())
	if err != nil {
		s.note = m.refusal(err)
		return nil
	}
	s.start(&sold)
	return nil
}

// vegasPointer scratches where the mouse presses or drags on a surface;
// (x, y) is relative to the named layer's corner. A click on the buy button
// buys a ticket.
func (m *Model) vegasPointer(id string, x, y int) tea.Cmd {
	s := &m.vegas
	if id == "btn:buy" && s.drag < 0 {
		return m.buyTicket()
	}
	n, ok := strings.CutPrefix(id, "surface:")
	if !ok || !s.revealing() {
		s.drag = -1
		return nil
	}
	f, _ := strconv.Atoi(n)
	x, y = x-1, y-1 // inside the frame
	if s.drag == f {
		s.coats[f].stroke(s.lastX, s.lastY, x, y)
	} else {
		s.coats[f].scratch(x, y)
	}
	s.focus, s.drag, s.lastX, s.lastY = f, f, x, y
	if s.coats[f].done() {
		s.drag = -1
		m.nextCovered()
	}
	return nil
}

// vegasRelease ends a drag.
func (m *Model) vegasRelease() { m.vegas.drag = -1 }

const scratchEvery = 40 * time.Millisecond

func scratchTick(gen int) tea.Cmd {
	return tea.Tick(scratchEvery, func(time.Time) tea.Msg { return tickMsg{id: "vegas:all", gen: gen} })
}

// vegasTick scratches a little more of every surface, until all are
// uncovered: the animation of « a ».
func (m *Model) vegasTick(t tickMsg) tea.Cmd {
	s := &m.vegas
	if t.gen != s.gen || !s.autoOn || !s.revealing() {
		s.autoOn = false
		return nil
	}
	for i := range s.coats {
		s.coats[i].dabs(m.rng, 3)
	}
	if !s.revealing() {
		s.autoOn = false
		return nil
	}
	return scratchTick(t.gen)
}
