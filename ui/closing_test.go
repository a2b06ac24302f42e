package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"
)

// TestClosingQuitsAtOnceWhenNothingIsRevealed: a player on the menu, or
// with the last unit shown, has nothing to finish: the game quits itself.
func TestClosingQuitsAtOnceWhenNothingIsRevealed(t *testing.T) {
	m := newModel(t, English, MenuScreen, 100, 30)
	if cmd := send(m, ClosingMsg{Deadline: fixedTime.Add(10 * time.Second)}); !quits(cmd) || !m.EndedByClosing() {
		t.Fatalf("on the menu, ClosingMsg did not quit (ended %v)", m.EndedByClosing())
	}

	m = newModel(t, English, VegasScreen, 100, 30)
	press(m, "a") // a ticket bought and scratched all at once
	settle(m)
	if m.Revealing() {
		t.Fatal("the ticket is still being revealed")
	}
	if cmd := send(m, ClosingMsg{}); !quits(cmd) {
		t.Fatal("with the ticket shown, ClosingMsg did not quit")
	}
}

// TestClosingLetsTheRevealFinish: a player with a unit being revealed
// sees the banner and its countdown in the header, is refused a purchase
// on the buy button, finishes the reveal, and the game quits only once the
// unit shown is recorded.
func TestClosingLetsTheRevealFinish(t *testing.T) {
	m := newModel(t, English, YamsScreen, 100, 30)
	press(m, "enter") // a unit bought, its cups covered
	if !m.Revealing() {
		t.Fatal("enter bought nothing")
	}
	if cmd := send(m, ClosingMsg{Deadline: fixedTime.Add(10 * time.Second)}); cmd != nil {
		t.Fatalf("ClosingMsg quit while a unit is being revealed: %v", cmd())
	}
	head := func() string { return strings.SplitN(plain(m), "\n", 2)[0] }
	if h := head(); !strings.Contains(h, "Server closing in 10 s: finish your unit, your purchases are kept") {
		t.Errorf("the header says %q", h)
	}
	clockOf(m).add(3500 * time.Millisecond)
	send(m, clockMsg{})
	if h := head(); !strings.Contains(h, "Server closing in 7 s") {
		t.Errorf("3.5 s later the header says %q", h)
	}

	press(m, "esc", "2") // the Vegas screen, where the buy button is
	clickOn(t, m, "buy")
	if n := m.Totals().Played; n != 1 {
		t.Fatalf("the buy button bought while the server closes: %d units", n)
	}
	if screen := plain(m); !strings.Contains(screen, "The server is closing: no more purchases; what you bought is kept") {
		t.Errorf("the refusal is not said:\n%s", screen)
	}

	press(m, "esc", "1", "a") // back to the unit, revealed all at once
	var shown []tea.Msg
	for range 1000 {
		ticks := clockOf(m).take(animation)
		if len(ticks) == 0 {
			break
		}
		for _, tick := range ticks {
			_, cmd := m.Update(tick)
			for _, msg := range flatten(m, cmd) {
				switch msg.(type) {
				case tea.QuitMsg:
					t.Fatal("the game quit before the unit shown was recorded")
				case shownMsg:
					shown = append(shown, msg)
				}
			}
		}
	}
	if len(shown) != 1 || m.Revealing() {
		t.Fatalf("the reveal ended with %d records, revealing %v", len(shown), m.Revealing())
	}
	_, cmd := m.Update(shown[0])
	quit := false
	for _, msg := range flatten(m, cmd) {
		_, ok := msg.(tea.QuitMsg)
		quit = quit || ok
	}
	if !quit || !m.EndedByClosing() {
		t.Fatal("the unit shown and recorded, the game did not quit")
	}
	if o := m.Outcome(); o.Units != 1 || o.Pending != 0 || !o.Staked.Equal(decimal.NewFromInt(1)) {
		t.Errorf("outcome %+v", o)
	}
}

// TestClosingBannerInFrench: the banner speaks the player's language, and
// without a deadline gives no countdown.
func TestClosingBannerInFrench(t *testing.T) {
	m := newModel(t, French, VegasScreen, 80, 24)
	press(m, "enter") // a ticket bought, to scratch
	send(m, ClosingMsg{})
	if h := strings.SplitN(plain(m), "\n", 2)[0]; !strings.Contains(h, "Le serveur ferme : finissez votre partie, vos achats sont gardés") {
		t.Errorf("the header says %q", h)
	}
}

// TestOutcomeLine: the outcome as the player reads it, won counting the
// prizes shown only, the units not shown said apart.
func TestOutcomeLine(t *testing.T) {
	o := Outcome{Units: 3, Staked: decimal.NewFromInt(3), Won: decimal.RequireFromString("1.5"),
		Net: decimal.RequireFromString("-1.5"), Pending: 1}
	if got, want := o.Line(English), "played 3 · staked €3.00 · won €1.50 · net -€1.50 · unrevealed 1"; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	o.Pending, o.Won, o.Net = 0, decimal.NewFromInt(5), decimal.NewFromInt(2)
	if got, want := o.Line(French), "parties 3 · misé 3,00 € · gagné 5,00 € · net +2,00 €"; got != want {
		t.Errorf("French: %q, want %q", got, want)
	}
}

// flatten runs a command's messages as the program would, without giving
// them to the model: ticks go to the clock's queue, the rest is returned.
func flatten(m *Model, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, flatten(m, c)...)
		}
		return out
	case scheduled:
		c := clockOf(m)
		c.mu.Lock()
		c.queue = append(c.queue, msg.msg)
		c.mu.Unlock()
		return nil
	default:
		return []tea.Msg{msg}
	}
}
