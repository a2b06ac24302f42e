package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
	"tapis/wallet"
)

// checked returns a session on the Yam's screen with a reality check every
// 30 minutes, started as the program starts it.
func checked(t *testing.T, lang Lang) *Model {
	t.Helper()
	m := open(t, Options{Lang: lang, Balance: decimal.NewFromInt(100), Start: YamsScreen,
		RealityCheck: 30 * time.Minute}, 100, 30, session.Options{Seed: game.SeedFrom(42)})
	run(m, m.Init())
	return m
}

// realityTicks delivers the reality check's queued ticks.
func realityTicks(m *Model) {
	for _, msg := range clockOf(m).take(func(msg tea.Msg) bool { _, ok := msg.(realityTickMsg); return ok }) {
		send(m, msg)
	}
}

// after moves the test clock on by d and delivers the reality check's
// ticks.
func after(m *Model, d time.Duration) {
	clockOf(m).add(d)
	realityTicks(m)
}

// checking reports whether the reality check shows.
func checking(m *Model) bool {
	s := plain(m)
	return strings.Contains(s, "Reality check") || strings.Contains(s, "Point sur votre jeu")
}

// targets names every layer the mouse can hit on the screen.
func targets(m *Model) []string {
	seen := map[string]bool{}
	layers := m.layers()
	for y := range m.height {
		for x := range m.width {
			if l, ok := hit(layers, x, y); ok {
				seen[l.id.String()] = true
			}
		}
	}
	var out []string
	for id := range seen {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// TestRealityCheckShowsAfterPlay: after 30 minutes of play by the clock,
// and not before, the modal shows the time played, the stakes, the prizes
// seen and the net result; while it shows, no other key or click acts;
// enter, c, esc and a click on Continue each close it until the next 30
// minutes; clicking Quit, or q, quits.
func TestRealityCheckShowsAfterPlay(t *testing.T) {
	m := checked(t, English)
	press(m, "enter", "1", "2", "3")
	settle(m)
	won := m.Recent()[0].Prize
	after(m, 29*time.Minute)
	if checking(m) {
		t.Fatalf("the reality check shows after 29 minutes:\n%s", plain(m))
	}
	after(m, time.Minute)
	if !checking(m) {
		t.Fatalf("no reality check after 30 minutes:\n%s", plain(m))
	}
	net := won.Sub(decimal.NewFromInt(1))
	sign := ""
	if net.IsPositive() {
		sign = "+"
	}
	screen := plain(m)
	for _, want := range []string{"You have been playing for 30 min", "Staked €1.00, won " + wallet.Format(won, "en"),
		"Net result: " + sign + wallet.Format(net, "en"), "enter/c/esc continue"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the reality check does not say %q:\n%s", want, screen)
		}
	}
	if got := targets(m); !slices.Equal(got, []string{"continue", "leave"}) {
		t.Errorf("the mouse hits %q under the reality check, want only its two buttons", got)
	}
	stake := m.games[0].stake()
	for _, k := range []string{"a", "1", "right", "space", "h", "s", "?", "f", "2", "tab"} {
		if cmd := press(m, k); cmd != nil {
			t.Errorf("%s under the reality check asked %v", k, cmd())
		}
	}
	send(m, tea.MouseWheelMsg{X: 50, Y: 15, Button: tea.MouseWheelDown})
	click(m, 2, 2)
	if !checking(m) || m.Totals().Played != 1 || m.Screen() != YamsScreen || !m.games[0].stake().Equal(stake) || m.Revealing() {
		t.Fatalf("keys or clicks acted under the reality check (played %d, screen %d):\n%s", m.Totals().Played, m.Screen(), plain(m))
	}
	if quits(clickLabel(t, m, "Continue", 0)) || checking(m) {
		t.Fatalf("clicking Continue did not close the reality check:\n%s", plain(m))
	}
	press(m, "enter") // plays again
	if m.Totals().Played != 2 {
		t.Fatalf("enter after the reality check bought nothing:\n%s", plain(m))
	}
	press(m, "1", "2", "3")
	settle(m)
	for _, k := range []string{"c", "esc", "enter"} {
		after(m, 29*time.Minute)
		if checking(m) {
			t.Fatalf("the next reality check came before 30 minutes more:\n%s", plain(m))
		}
		after(m, time.Minute)
		if !checking(m) {
			t.Fatalf("no reality check 30 minutes after the last:\n%s", plain(m))
		}
		if quits(press(m, k)) || checking(m) || m.Totals().Played != 2 {
			t.Fatalf("%s did not close the reality check alone:\n%s", k, plain(m))
		}
	}
	after(m, 30*time.Minute)
	if !strings.Contains(plain(m), "You have been playing for 2 h 30 min") {
		t.Errorf("the time played after two hours and a half:\n%s", plain(m))
	}
	if !quits(clickOn(t, m, "leave")) {
		t.Fatal("clicking Quit did not quit")
	}
	m = checked(t, English)
	after(m, 30*time.Minute)
	if !quits(press(m, "q")) {
		t.Fatal("q did not quit from the reality check")
	}
}

// TestRealityCheckWaitsForTheReveal: due while a unit is covered, the
// reality check waits until its last cup is rolled, and the Auto that
// reveals it buys no other; due with a unit left covered on the other
// game's screen, it shows at the next purchase, which it holds.
func TestRealityCheckWaitsForTheReveal(t *testing.T) {
	m := checked(t, English)
	press(m, "enter")
	after(m, 31*time.Minute)
	for _, k := range []string{"1", "2"} {
		press(m, k)
		settle(m)
		if checking(m) {
			t.Fatalf("the reality check interrupted the reveal after cup %s:\n%s", k, plain(m))
		}
	}
	press(m, "3")
	if checking(m) {
		t.Fatalf("the reality check shows while the last cup rolls:\n%s", plain(m))
	}
	settle(m)
	if !checking(m) || m.Revealing() {
		t.Fatalf("no reality check once the unit is shown:\n%s", plain(m))
	}
	press(m, "c")

	press(m, "a") // Auto: bought and revealed at once
	after(m, 30*time.Minute)
	if checking(m) {
		t.Fatalf("the reality check interrupted Auto:\n%s", plain(m))
	}
	settle(m)
	if !checking(m) || m.Totals().Played != 2 {
		t.Fatalf("after Auto's unit: the reality check shows %v, %d played, want it and 2:\n%s", checking(m), m.Totals().Played, plain(m))
	}
	press(m, "c")

	press(m, "enter", "esc", "2") // a Yam's unit left covered, then Vegas
	after(m, 30*time.Minute)
	if checking(m) {
		t.Fatalf("the reality check shows while a unit is covered:\n%s", plain(m))
	}
	press(m, "enter")
	if !checking(m) || m.Totals().Played != 3 {
		t.Fatalf("buying a ticket while the check is due: shows %v, %d played, want it and 3:\n%s", checking(m), m.Totals().Played, plain(m))
	}
	press(m, "c", "enter")
	if checking(m) || m.Totals().Played != 4 {
		t.Fatalf("after the check, enter bought %d, want the 4th:\n%s", m.Totals().Played, plain(m))
	}
}

// TestRealityCheckInFrench: the modal speaks the session's language.
func TestRealityCheckInFrench(t *testing.T) {
	m := checked(t, French)
	after(m, 95*time.Minute)
	screen := plain(m)
	for _, want := range []string{"Point sur votre jeu", "Vous jouez depuis 1 h 35", "Misé 0,00 €, gagné 0,00 €",
		"Résultat net : 0,00 €", "Continuer", "Quitter", "entrée/c/échap continuer"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the reality check does not say %q:\n%s", want, screen)
		}
	}
	if quits(clickLabel(t, m, "Continuer", 0)) || checking(m) {
		t.Fatalf("clicking Continuer did not close it:\n%s", plain(m))
	}
}

// TestRealityCheckOff: without a reality check, none shows, however long
// the session.
func TestRealityCheckOff(t *testing.T) {
	m := newModel(t, English, YamsScreen, 100, 30)
	run(m, m.Init())
	after(m, 48*time.Hour)
	press(m, "enter")
	if checking(m) || m.Totals().Played != 1 {
		t.Fatalf("a reality check without one asked:\n%s", plain(m))
	}
}

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d      time.Duration
		fr, en string
	}{
		{20 * time.Second, "20 s", "20 s"},
		{30 * time.Minute, "30 min", "30 min"},
		{65*time.Minute + 10*time.Second, "1 h 05", "1 h 05 min"},
		{25 * time.Hour, "25 h 00", "25 h 00 min"},
	} {
		if fr, en := duration(French, c.d), duration(English, c.d); fr != c.fr || en != c.en {
			t.Errorf("%s: %q and %q, want %q and %q", c.d, fr, en, c.fr, c.en)
		}
	}
}

// TestRealityCheckBoxIsSquare: the box's top edge, with its title, ends
// in the column its sides are drawn in, in both languages; the title's
// padding made it two cells wider (a newcomer's trial over SSH).
func TestRealityCheckBoxIsSquare(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		m := checked(t, lang)
		press(m, "1")
		after(m, 30*time.Minute)
		if !checking(m) {
			t.Fatalf("%v: no reality check after 30 minutes", lang)
		}
		lines := strings.Split(plain(m), "\n")
		top := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "╭─ ") && strings.Contains(l, "╮") })
		if top < 0 || top+1 >= len(lines) {
			t.Fatalf("%v: no titled box:\n%s", lang, plain(m))
		}
		corner := func(l, r string) int { return ansi.StringWidth(l[:strings.LastIndex(l, r)]) }
		if c, side := corner(lines[top], "╮"), corner(lines[top+1], "│"); c != side {
			t.Errorf("%v: the top edge ends in column %d, the side is in column %d:\n%s\n%s", lang, c, side, lines[top], lines[top+1])
		}
	}
}
