package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// TestHeaderOnlyIsTheWholeFrame: on every screen and in the states a
// second may meet (a unit being revealed, one shown, a note, an
// announcement running out, a server closing with its countdown, the
// reality check falling due, QA's status line), the frame after the
// header's seconds, its header painted again over the last frame, is the
// frame laid out whole, for a minute and across the next; and it is taken
// (a sitting session's second paints one row).
func TestHeaderOnlyIsTheWholeFrame(t *testing.T) {
	type state struct {
		name string
		o    Options
		keys []string
		msgs []tea.Msg
	}
	base := Options{Lang: French, Balance: decimal.NewFromInt(100)}
	qa, reality := base, base
	qa.QA = true
	reality.RealityCheck = 3 * time.Second
	at := fixedTime
	states := []state{
		{name: "menu", o: base},
		{name: "yams", o: base, keys: []string{"1"}},
		{name: "yams rolling", o: base, keys: []string{"1", "enter", "2"}},
		{name: "yams shown", o: base, keys: []string{"1", "a"}},
		{name: "vegas scratched", o: base, keys: []string{"2", "enter", "space", "space"}},
		{name: "history", o: base, keys: []string{"1", "a", "h"}},
		{name: "stats", o: base, keys: []string{"1", "a", "s"}},
		{name: "help", o: base, keys: []string{"1", "?"}},
		{name: "speed note", o: base, keys: []string{"1", "v"}},
		{name: "announcement", o: base, keys: []string{"1"}, msgs: []tea.Msg{StandMsg{Announcement: "Tirage à 18 h", Until: at.Add(3 * time.Second)}}},
		{name: "paused", o: base, keys: []string{"1"}, msgs: []tea.Msg{StandMsg{Paused: true}}},
		{name: "closing", o: base, keys: []string{"1", "enter"}, msgs: []tea.Msg{ClosingMsg{Deadline: at.Add(5 * time.Second)}}},
		{name: "reality check", o: reality, keys: []string{"1"}},
		{name: "qa", o: qa, keys: []string{"1"}},
	}
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			m := open(t, st.o, 100, 30, session.Options{Seed: game.SeedFrom(7)})
			run(m, m.Init()) // the clock's seconds, the reality check's timer
			press(m, st.keys...)
			if st.name == "yams shown" || st.name == "history" || st.name == "stats" {
				settle(m)
			}
			for _, msg := range st.msgs {
				send(m, msg)
			}
			m.View()
			c := clockOf(m)
			reused := 0
			for s := range 70 { // a minute and more
				c.add(time.Second)
				for _, msg := range c.take(func(tea.Msg) bool { return true }) { // the second, and what fell due with it
					send(m, msg)
				}
				if m.headerOnly() {
					reused++
				}
				got := m.view(true).Content
				want := m.view(false).Content
				if got != want {
					t.Fatalf("second %d: the header painted again over the last frame:\n%s\nlaid out whole:\n%s", s+1, got, want)
				}
			}
			if st.name == "reality check" && (m.reality == nil || !m.reality.open) {
				t.Error("the reality check did not open")
			}
			if st.name == "menu" && reused < 50 {
				t.Errorf("the menu's header painted alone %d seconds of 70", reused)
			}
		})
	}
}

// TestHeaderOnlyAfterAnyOtherMessage: a key, a size or a tick between two
// seconds, and the next frame is laid out whole.
func TestHeaderOnlyAfterAnyOtherMessage(t *testing.T) {
	m := newModel(t, English, YamsScreen, 100, 30)
	m.View()
	send(m, clockMsg{})
	if !m.headerOnly() {
		t.Fatal("a second after a whole frame: laid out whole again")
	}
	for _, msg := range []tea.Msg{tea.KeyPressMsg{Code: tea.KeyRight}, tea.WindowSizeMsg{Width: 90, Height: 30}, cupTickMsg{}} {
		m.View()
		send(m, clockMsg{})
		send(m, msg)
		send(m, clockMsg{})
		if m.headerOnly() {
			t.Errorf("after %T, the header alone would be painted", msg)
		}
	}
}
