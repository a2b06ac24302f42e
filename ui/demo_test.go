package ui

import (
	"tapis/game"

	"runtime"
	"strings"
	"tapis/session"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/wallet"
)

func demoModel(t *testing.T, c *testClock) *Model {
	t.Helper()
	m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(20), Start: MenuScreen,
		Clock: c, Demo: true, Idle: time.Minute}, 80, 24, session.Options{Seed: game.SeedFrom(7)})
	run(m, m.Init())
	return m
}

// drive plays the attract loop until it has played n more units, sending
// the ticks a real program would receive; it fails if the loop stalls.
func drive(t *testing.T, m *Model, n int) {
	t.Helper()
	want := m.Totals().Played + n
	for steps := 0; m.Totals().Played < want || m.Revealing(); steps++ {
		if steps > 200*n+100 {
			t.Fatalf("the attract loop stalled at %d units", m.Totals().Played)
		}
		if !step(m) {
			t.Fatalf("the attract loop waits for nothing at %d units", m.Totals().Played)
		}
		settle(m)
	}
}

// demoUnits plays n units of the loop and returns them in order (the loop
// has a new wallet for each).
func demoUnits(t *testing.T, m *Model, n int) []wallet.Operation {
	t.Helper()
	var ops []wallet.Operation
	for range n {
		drive(t, m, 1)
		ops = append(ops, m.Recent()[0])
	}
	return ops
}

// TestAttractLoop runs the demo through many cycles: it never stops, it
// alternates the games, its units are marked DEMO, a key hands over at once
// and the loop comes back after the idle time.
func TestAttractLoop(t *testing.T) {
	c := newTestClock()
	m := demoModel(t, c)
	if !m.Attracting() || !strings.Contains(plain(m), "DEMO") {
		t.Fatalf("the demo does not start:\n%s", plain(m))
	}
	units := demoUnits(t, m, 40)
	for i, op := range units {
		if !strings.Contains(op.Unit, ":DEMO:") {
			t.Fatalf("unit %s is not marked DEMO", op.Unit)
		}
		if i > 0 && strings.HasPrefix(op.Unit, "yams") == strings.HasPrefix(units[i-1].Unit, "yams") {
			t.Fatalf("%s then %s: the games do not alternate", units[i-1].Unit, op.Unit)
		}
	}
	if m.Totals().Played != 40 || !m.Totals().Staked.GreaterThan(decimal.NewFromInt(20)) {
		t.Errorf("the loop's wallet (it has its own, of 100 €, for each unit) ran short: %+v", m.Totals())
	}
	// A key hands over at once, and does nothing more; the loop's ticks
	// then change nothing.
	screenBefore := m.Screen()
	press(m, "esc")
	played := m.Totals().Played
	if m.Attracting() || m.Screen() != screenBefore {
		t.Fatal("esc did not hand over, or did more")
	}
	press(m, "esc")
	for range 20 {
		step(m)
		settle(m)
	}
	if m.Totals().Played != played {
		t.Fatal("the demo kept playing after a visitor took over")
	}
	// The visitor plays a real unit.
	press(m, "1", "a")
	settle(m)
	if op := m.Recent()[0]; strings.Contains(op.Unit, "DEMO") || op.Unit != "yams:1:1:1" {
		t.Errorf("the visitor's unit is %s", op.Unit)
	}
	// Idle for less than a minute: nothing; then the loop comes back.
	c.add(59 * time.Second)
	send(m, clockMsg{})
	if m.Attracting() {
		t.Fatal("the demo came back before the idle time")
	}
	c.add(2 * time.Second)
	send(m, clockMsg{})
	if !m.Attracting() {
		t.Fatal("the demo did not come back after the idle time")
	}
	drive(t, m, 4)
	// 40 + 4 units of the loop, and the visitor's own.
	if !strings.HasSuffix(m.Summary(), "· DEMO 44") || m.Totals().Played != 45 {
		t.Errorf("summary %q", m.Summary())
	}
}

// TestDemoHandsOverMidUnit: a visitor who leaves a unit half revealed finds
// it revealed when the loop comes back, and the loop goes on.
func TestDemoHandsOverMidUnit(t *testing.T) {
	c := newTestClock()
	m := demoModel(t, c)
	press(m, "x", "2", "enter", "space") // the first key wakes the kiosk up
	if !m.Revealing() || m.Screen() != VegasScreen {
		t.Fatal("no ticket being scratched")
	}
	c.add(time.Minute)
	send(m, clockMsg{})
	step(m)
	if !m.Revealing() {
		t.Error("the loop scratched the visitor's ticket at once, too fast to follow")
	}
	drive(t, m, 2)
	if !m.Attracting() || !strings.Contains(plain(m), "DEMO") {
		t.Error("the visitor's ticket was not finished")
	}
}

// TestDemoPlaylist plays a custom playlist in its order.
func TestDemoPlaylist(t *testing.T) {
	items, err := lottery.ReadPlaylist(strings.NewReader(`{"game":"vegas","prize":"40000"}
{"game":"yams","stake":"2","cups":[[6,6,6,6,6],[6,6,6,6,6],[1,2,3,5,6]]}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClock()
	m := open(t, Options{Lang: French, Balance: decimal.NewFromInt(100), Clock: c, Demo: true, Playlist: items}, 80, 24, session.Options{Seed: game.SeedFrom(7)})
	run(m, m.Init())
	h := demoUnits(t, m, 4)
	if !h[0].Prize.Equal(decimal.NewFromInt(40000)) || !h[1].Prize.Equal(decimal.NewFromInt(10000)) || !h[2].Prize.Equal(decimal.NewFromInt(40000)) {
		t.Errorf("played %s, %s, %s", h[0].Prize, h[1].Prize, h[2].Prize)
	}
}

// TestDemoRunsForHours plays thousands of units: the history, the drawings'
// memo and the heap stay bounded.
func TestDemoRunsForHours(t *testing.T) {
	n := 3000
	if testing.Short() || raceEnabled {
		n = 300
	}
	c := newTestClock()
	m := demoModel(t, c)
	drive(t, m, 200)
	plain(m)
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	for i := 0; i < n; i += 100 {
		drive(t, m, 100)
		plain(m)
		c.add(time.Minute)
		send(m, clockMsg{})
	}
	after := heap()
	if n := len(m.Recent()); n > HistoryLimit {
		t.Errorf("unbounded: %d units in the history", n)
	}
	if after > before+4<<20 {
		t.Errorf("heap grew from %d to %d bytes over %d units", before, after, n)
	}
	if !m.Attracting() || m.Totals().Played < n {
		t.Errorf("after %d units the loop is on: %v", m.Totals().Played, m.Attracting())
	}
	t.Logf("%d units, heap %d → %d bytes", m.Totals().Played, before, after)
}
