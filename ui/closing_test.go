package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
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

// TestCountdownShowsEachNumberASecond: a closing server's countdown shows
// each number for a whole second: the model wakes where the number
// changes, not on the wall clock's second, where a number showed from a
// cup's step to the next second (1.24 s, then 0.85 s, in a host's
// trial). A server closes its sessions, whose models it tells
// DrawsSeconds.
func TestCountdownShowsEachNumberASecond(t *testing.T) {
	c := newTestClock()
	c.t = fixedTime.Add(300 * time.Millisecond)
	m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen, Clock: c,
		DrawsSeconds: true}, 100, 30, session.Options{Seed: game.SeedFrom(42)})
	press(m, "enter")                                            // a unit being revealed: the game waits for its end
	end := c.t.Add(10 * time.Second)                             // 20:00:10.30
	send(m, ClosingMsg{Deadline: end.Add(7 * time.Millisecond)}) // on the 10 ms beat before it
	banner := func(at time.Time) string {
		c.t = at
		_, rows := m.Lines()
		return ansi.Strip(rows[0])
	}
	if got := banner(c.t); !strings.Contains(got, "closing in 10 s") {
		t.Fatalf("the banner at the start: %q", got)
	}
	for k := 9; k >= 1; k-- {
		step := end.Add(-time.Duration(k) * time.Second)
		if got, want := c.t.Add(c.clockWait), step; !got.Equal(want) {
			t.Fatalf("the model wakes at %s, want %s (%d s left)",
				got.Format("15:04:05.000"), want.Format("15:04:05.000"), k)
		}
		if got := banner(step.Add(-time.Millisecond)); !strings.Contains(got, fmt.Sprintf("closing in %d s", k+1)) {
			t.Errorf("just before %d s left: %q", k, got)
		}
		if Lazy(c.clockAsked) {
			t.Errorf("%d s left: the countdown's wait is lazy: a server would draw it with a later frame", k)
		}
		c.t = step
		send(m, c.clockAsked)
		if got := banner(step); !strings.Contains(got, fmt.Sprintf("closing in %d s", k)) {
			t.Errorf("at %d s left: %q", k, got)
		}
	}
	for _, at := range []time.Duration{-time.Millisecond, 0, 5 * time.Millisecond} {
		if got := banner(end.Add(at)); !strings.Contains(got, "closing in 1 s") {
			t.Errorf("%s from the end: %q, want 1 s until the server quits", at, got)
		}
	}
}
