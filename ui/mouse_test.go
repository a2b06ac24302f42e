package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestClickCups buys with a click on Jouer, then rolls each cup with a click
// on it, in the order a player might choose.
func TestClickCups(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	clickOn(t, m, "stake:2")
	if m.yams.stake != 2 {
		t.Fatalf("stake %d after a click on 2 €", m.yams.stake)
	}
	clickOn(t, m, "btn:play")
	if m.yams.sold == nil || m.Totals().Played != 1 || !m.Totals().Staked.Equal(m.yamsStake()) {
		t.Fatalf("the click on Play bought nothing: %+v", m.Totals())
	}
	for _, i := range []int{2, 0, 1} {
		id := "cup:" + string(rune('0'+i))
		if cmd := clickOn(t, m, id); cmd == nil || m.yams.phase[i] != cupRolling {
			t.Fatalf("a click on cup %d did not roll it", i+1)
		}
		settle(m)
		if m.yams.phase[i] != cupShown || m.yams.faces[i] != m.yams.sold.Layout.Yams.Cups[i] {
			t.Fatalf("cup %d shows %v, dealt %v", i+1, m.yams.faces[i], m.yams.sold.Layout.Yams.Cups[i])
		}
	}
	// A click on a cup already shown, or on Play while nothing is revealed
	// any more, never rolls twice; Auto buys the next unit.
	clickOn(t, m, "cup:0")
	clickOn(t, m, "btn:auto")
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
	if m.Totals().Played != 1 || m.yams.stake != 1 {
		t.Fatalf("played %d, stake %d", m.Totals().Played, m.yams.stake)
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
	clickOn(t, m, "btn:buy")
	if m.vegas.sold == nil {
		t.Fatal("the click on the button bought no ticket")
	}
	x, y := find(t, m, "surface:2")
	full := m.vegas.coats[2].left
	click(m, x, y)
	afterClick := m.vegas.coats[2].left
	if afterClick >= full || m.vegas.focus != 2 {
		t.Fatalf("a click scratched nothing: %d of %d left, focus %d", afterClick, full, m.vegas.focus)
	}
	for dx := 1; dx <= 12; dx++ {
		m.Update(tea.MouseMotionMsg{X: x + dx, Y: y, Button: tea.MouseLeft})
	}
	afterDrag := m.vegas.coats[2].left
	if afterDrag >= afterClick {
		t.Fatalf("a drag scratched nothing: %d left", afterDrag)
	}
	m.Update(tea.MouseReleaseMsg{X: x + 12, Y: y, Button: tea.MouseLeft})
	// Motion without a button pressed scratches nothing.
	m.Update(tea.MouseMotionMsg{X: x - 10, Y: y - 1})
	if m.vegas.coats[2].left != afterDrag || m.vegas.drag != -1 {
		t.Error("hovering scratched")
	}
	// Dragging over the whole surface uncovers it.
	bx, by := x-surfaceW/2, y-surfaceH/2
	for row := 0; row < surfaceH; row += 2 {
		for col := 0; col < surfaceW; col += 3 {
			m.Update(tea.MouseMotionMsg{X: bx + col, Y: by + row, Button: tea.MouseLeft})
		}
	}
	if !m.vegas.coats[2].done() {
		t.Errorf("a drag over the whole surface left %d cells", m.vegas.coats[2].left)
	}
}

// TestMenuClicks opens each screen from the menu with the mouse.
func TestMenuClicks(t *testing.T) {
	want := map[string]Screen{"menu:0": YamsScreen, "menu:1": VegasScreen, "menu:2": HistoryScreen, "menu:3": RulesScreen}
	for id, s := range want {
		m := newModel(t, French, MenuScreen, 120, 40)
		clickOn(t, m, id)
		if m.screen != s {
			t.Errorf("%s opened screen %d, want %d", id, m.screen, s)
		}
	}
	m := newModel(t, French, MenuScreen, 80, 24)
	if cmd := clickOn(t, m, "menu:4"); cmd == nil {
		t.Error("Quitter does not quit")
	}
}
