package ui

import (
	"tapis/game"

	"strings"
	"tapis/session"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
)

// TestKioskCannotBeQuit: in demo mode q, esc, ctrl+z and a single ctrl+c
// never quit, nor does the menu offer to; the operator quits with ctrl+c
// twice within two seconds. The keys' help does not tell visitors how.
func TestKioskCannotBeQuit(t *testing.T) {
	c := newTestClock()
	m := demoModel(t, c)
	press(m, "ctrl+c")
	if !strings.Contains(title(m), "DEMO") {
		t.Errorf("the operator's first ctrl+c handed the kiosk over: %q", title(m))
	}
	c.add(3 * time.Second)
	for _, k := range []string{"q", "esc", "q", "ctrl+z", "esc", "ctrl+c"} {
		if cmd := press(m, k); quits(cmd) || cmd != nil && k == "ctrl+z" {
			t.Fatalf("%s quits or suspends the kiosk", k)
		}
	}
	if strings.Contains(plain(m), "Quit") || strings.Contains(lastLine(m), "quit") {
		t.Errorf("the kiosk tells visitors how to quit:\n%s", plain(m))
	}
	press(m, "6")
	if title(m) != "" {
		t.Errorf("6 in the kiosk's menu opened %q", title(m))
	}
	press(m, "?")
	if strings.Contains(plain(m), "quit") {
		t.Errorf("the kiosk's help tells visitors how to quit:\n%s", plain(m))
	}
	c.add(3 * time.Second) // too late for the first one
	if quits(press(m, "ctrl+c")) {
		t.Fatal("ctrl+c three seconds after another quits")
	}
	c.add(1900 * time.Millisecond)
	if !quits(press(m, "ctrl+c")) {
		t.Fatal("ctrl+c twice within two seconds does not quit")
	}
}

// TestKioskVisitorsStartFresh hands the kiosk over at every step of its
// loop: each visitor gets a fresh wallet of the starting balance and an
// empty history, never a demo unit's prize; when the loop comes back after
// the idle time, the next visitor starts fresh too; the summary counts
// every unit and prints the last visitor's balance.
func TestKioskVisitorsStartFresh(t *testing.T) {
	items, err := lottery.ReadPlaylist(strings.NewReader(`{"game":"vegas","prize":"40000"}
{"game":"yams","stake":"2","prize":"10000"}
`))
	if err != nil {
		t.Fatal(err)
	}
	for at := range 40 {
		c := newTestClock()
		m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(50), Clock: c, Demo: true, Playlist: items}, 80, 24, session.Options{Seed: game.SeedFrom(7)})
		run(m, m.Init())
		for range at {
			step(m)
			if at%2 == 0 {
				settle(m)
			}
		}
		demo := m.Totals().Played
		c.add(42 * time.Second)
		press(m, "enter", "h") // a visitor: the first key buys nothing
		if b, n := headerMoney(t, m); !b.Equal(decimal.NewFromInt(50)) || !n.IsZero() || !strings.Contains(plain(m), "No unit played yet") {
			t.Fatalf("at %d: the visitor finds balance %s, net %s:\n%s", at, b, n, plain(m))
		}
		if !strings.Contains(plain(m), "Time 00:00") {
			t.Fatalf("at %d: the visitor's time does not start at 0:\n%s", at, plain(m))
		}
		press(m, "esc", "esc", "1")
		if !strings.Contains(plain(m), "[€1.00]") {
			t.Fatalf("at %d: the visitor does not start at the starting stake:\n%s", at, plain(m))
		}
		press(m, "a")
		settle(m)
		op := m.Recent()[0]
		if m.Totals().Played != demo+1 || strings.Contains(op.Unit, "DEMO") || !op.Before.Equal(decimal.NewFromInt(50)) {
			t.Fatalf("at %d: the visitor's unit %+v", at, op)
		}
		visitor := m.Balance()
		c.add(2 * time.Minute) // the visitor leaves; the loop comes back
		send(m, clockMsg{})
		drive(t, m, 3)
		if !strings.Contains(m.Summary(), "balance "+m.t.money(visitor)+" · DEMO ") {
			t.Fatalf("at %d: summary %q, the last visitor has %s", at, m.Summary(), visitor)
		}
		// The summary counts the units shown: a demo unit the visitor cut
		// short is bought (Totals) and never shown.
		if got := m.Totals().Played; got != demo+4 || !strings.HasPrefix(m.Summary(), "played "+itoa(m.till.seen.Played)+" ") {
			t.Fatalf("at %d: summary %q, %d played", at, m.Summary(), got)
		}
		press(m, "esc") // the next visitor
		if b, _ := headerMoney(t, m); !b.Equal(decimal.NewFromInt(50)) || m.Revealing() {
			t.Fatalf("at %d: the next visitor finds %s:\n%s", at, b, plain(m))
		}
	}
}

func itoa(n int) string { return decimal.NewFromInt(int64(n)).String() }
