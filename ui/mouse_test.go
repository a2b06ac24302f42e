package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game/yams"
)

// rolling counts the cups rolling: those the queued ticks move.
func rolling(m *Model) int {
	n := 0
	c := clockOf(m)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, msg := range c.queue {
		if t, ok := msg.(cupTickMsg); ok {
			for _, on := range t.group.cups {
				if on {
					n++
				}
			}
		}
	}
	return n
}

// cupLine is what a mat says under a cup's dice once shown.
func cupLine(m *Model, cup yams.Cup) string {
	c := cup.Combination()
	return m.comboName(c) + " · " + m.t.f("pts", c.Points())
}

// matFoot is the last line drawn on mat i, trimmed.
func matFoot(t *testing.T, m *Model, i int) string {
	t.Helper()
	b := bounds(t, m, "cup:"+string(rune('0'+i)))
	lines := strings.Split(plain(m), "\n")
	return strings.TrimSpace(ansi.Cut(lines[b.Max.Y-1], b.Min.X, b.Max.X))
}

// coated counts the cells of a surface still under the coating, as drawn.
func coated(t *testing.T, m *Model, f int) int {
	t.Helper()
	b := bounds(t, m, "surface:"+string(rune('0'+f)))
	lines := strings.Split(plain(m), "\n")
	n := 0
	for y := b.Min.Y + 1; y < b.Max.Y-1; y++ {
		for _, r := range ansi.Cut(lines[y], b.Min.X+1, b.Max.X-1) {
			if r == '░' || r == '▒' {
				n++
			}
		}
	}
	return n
}

// focused reports whether surface f is drawn chosen: with a thick frame.
func focused(t *testing.T, m *Model, f int) bool {
	t.Helper()
	b := bounds(t, m, "surface:"+string(rune('0'+f)))
	return strings.HasPrefix(ansi.Cut(strings.Split(plain(m), "\n")[b.Min.Y], b.Min.X, b.Max.X), "┏")
}

// TestClickCups buys with a click on Jouer, then rolls each cup with a click
// on it, in the order a player might choose.
func TestClickCups(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	clickOn(t, m, "stake:2")
	if !strings.Contains(plain(m), "[€2.00]") {
		t.Fatalf("a click on 2 € did not choose it:\n%s", plain(m))
	}
	clickOn(t, m, "play")
	sold := m.Showing("yams")
	if sold == nil || m.Totals().Played != 1 || !m.Totals().Staked.Equal(decimal.NewFromInt(2)) {
		t.Fatalf("the click on Play bought nothing: %+v", m.Totals())
	}
	for _, i := range []int{2, 0, 1} {
		id := "cup:" + string(rune('0'+i))
		clickOn(t, m, id)
		if rolling(m) != 1 {
			t.Fatalf("a click on cup %d did not roll it", i+1)
		}
		settle(m)
		if got, want := matFoot(t, m, i), cupLine(m, sold.Layout.Yams.Cups[i]); got != want {
			t.Fatalf("cup %d shows %q, dealt %q", i+1, got, want)
		}
	}
	// A click on a cup already shown, or on Play while nothing is revealed
	// any more, never rolls twice; Auto buys the next unit.
	clickOn(t, m, "cup:0")
	if rolling(m) != 0 {
		t.Fatal("a cup shown rolled again")
	}
	clickOn(t, m, "auto")
	settle(m)
	if m.Totals().Played != 2 || m.Revealing() {
		t.Errorf("after Auto: %d played, revealing %v", m.Totals().Played, m.Revealing())
	}
}

// TestKeysNeverBuyWhileRevealing checks a key pressed during a reveal never
// buys another unit (interface.md).
func TestKeysNeverBuyWhileRevealing(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	press(m, "enter", "enter", "left", "1")
	if m.Totals().Played != 1 || !strings.Contains(plain(m), "[€1.00]") {
		t.Fatalf("played %d:\n%s", m.Totals().Played, plain(m))
	}
	press(m, "a") // rolls the cups left
	if m.Totals().Played != 1 {
		t.Fatal("Auto bought during a reveal")
	}
	settle(m)
	press(m, "a")
	settle(m)
	press(m, "enter")
	if m.Totals().Played != 3 {
		t.Errorf("played %d after a, a, enter", m.Totals().Played)
	}
}

// TestScratchWithMouse scratches a surface with a click, then a drag along
// it, and checks the coating goes where the pointer went.
func TestScratchWithMouse(t *testing.T) {
	m := newModel(t, English, VegasScreen, 80, 24)
	clickOn(t, m, "buy")
	if m.Showing("vegas") == nil {
		t.Fatal("the click on the button bought no ticket")
	}
	x, y := find(t, m, "surface:2")
	full := coated(t, m, 2)
	click(m, x, y)
	afterClick := coated(t, m, 2)
	if afterClick >= full || !focused(t, m, 2) {
		t.Fatalf("a click scratched nothing: %d of %d left, or the surface is not chosen", afterClick, full)
	}
	for dx := 1; dx <= 12; dx++ {
		send(m, tea.MouseMotionMsg{X: x + dx, Y: y, Button: tea.MouseLeft})
	}
	afterDrag := coated(t, m, 2)
	if afterDrag >= afterClick {
		t.Fatalf("a drag scratched nothing: %d left", afterDrag)
	}
	send(m, tea.MouseReleaseMsg{X: x + 12, Y: y, Button: tea.MouseLeft})
	// Motion without a button pressed scratches nothing.
	send(m, tea.MouseMotionMsg{X: x - 10, Y: y - 1})
	if coated(t, m, 2) != afterDrag {
		t.Error("hovering scratched")
	}
	// Dragging over the whole surface uncovers it.
	bx, by := x-surfaceW/2, y-surfaceH/2
	for row := 0; row < surfaceH; row += 2 {
		for col := 0; col < surfaceW; col += 3 {
			send(m, tea.MouseMotionMsg{X: bx + col, Y: by + row, Button: tea.MouseLeft})
		}
	}
	if n := coated(t, m, 2); n != 0 {
		t.Errorf("a drag over the whole surface left %d cells", n)
	}
}

// TestMenuClicks opens each screen from the menu with the mouse.
func TestMenuClicks(t *testing.T) {
	want := map[string]Screen{"menu:0": YamsScreen, "menu:1": VegasScreen, "menu:2": HistoryScreen, "menu:3": RulesScreen, "menu:4": StatsScreen}
	for id, s := range want {
		m := newModel(t, French, MenuScreen, 120, 40)
		clickOn(t, m, id)
		if m.Screen() != s {
			t.Errorf("%s opened screen %d, want %d", id, m.Screen(), s)
		}
	}
	m := newModel(t, French, MenuScreen, 80, 24)
	if !quits(clickOn(t, m, "menu:5")) {
		t.Error("Quitter does not quit")
	}
}
