package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// whole returns the frame laid out whole, leaving the model as it was:
// the next frame still paints over the layers the last one laid out.
func whole(m *Model) string {
	laid, at, only := slices.Clone(m.laid), m.drawnWhole, m.onlyClock
	v, rows := m.view(false)
	frame := v.Content
	if rows != nil {
		frame = strings.Join(rows, "\n")
	}
	m.laid, m.drawnWhole, m.onlyClock = append(m.laid[:0], laid...), at, only
	return frame
}

// TestHeaderOnlyIsTheWholeFrame: on every screen and in the states a
// second may meet (a unit being revealed, one shown, a note, an
// announcement running out, a server closing with its countdown, the
// reality check falling due, a kiosk's demo waking, QA's status line, the
// history across midnight), each frame of 70 seconds, drawn as a server
// draws them (the header painted again over the last frame's layers when
// only the second moved), is the frame laid out whole; and the header
// alone is painted most seconds (a sitting session's second paints one
// row), but where something else ticks each second (QA's blocks, the
// demo's loop).
func TestHeaderOnlyIsTheWholeFrame(t *testing.T) {
	type state struct {
		name string
		o    Options
		keys []string
		msgs []tea.Msg
		at   time.Time // the clock's start, fixedTime when zero
	}
	base := Options{Lang: French, Balance: decimal.NewFromInt(100)}
	qa, reality, kiosk := base, base, base
	qa.QA = true
	reality.RealityCheck = 3 * time.Second
	kiosk.Demo, kiosk.Idle = true, 20*time.Second
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
		{name: "kiosk waking", o: kiosk},
		{name: "qa", o: qa, keys: []string{"1"}},
		{name: "history at midnight", o: base, keys: []string{"1", "a", "h"}, at: time.Date(2026, 11, 29, 23, 59, 30, 0, time.UTC)},
	}
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			if !st.at.IsZero() {
				st.o.Clock = &testClock{t: st.at}
			}
			m := open(t, st.o, 100, 30, session.Options{Seed: game.SeedFrom(7)})
			run(m, m.Init()) // the clock's seconds, the reality check's timer
			press(m, st.keys...)
			settle(m)
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
				got, want := m.View().Content, whole(m)
				if got != want {
					t.Fatalf("second %d: the header painted again over the last frame:\n%s\nlaid out whole:\n%s", s+1, got, want)
				}
			}
			if st.name == "reality check" && (m.reality == nil || !m.reality.open) {
				t.Error("the reality check did not open")
			}
			if st.name != "qa" && st.name != "kiosk waking" && reused < 35 {
				t.Errorf("the header painted alone %d seconds of 70", reused)
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

// TestHeaderOnlyNotWhenTheDemoWakes: a kiosk left alone for its idle time
// starts its demo on a second (clockMsg): that frame is laid out whole.
func TestHeaderOnlyNotWhenTheDemoWakes(t *testing.T) {
	m := open(t, Options{Lang: French, Balance: decimal.NewFromInt(100), Demo: true, Idle: 5 * time.Second}, 100, 30)
	run(m, m.Init())
	press(m, "1") // a visitor: the demo stops
	settle(m)
	if m.demo.on {
		t.Fatal("the demo goes on after a key")
	}
	m.View()
	c := clockOf(m)
	for s := range 10 {
		c.add(time.Second)
		send(m, clockMsg{})
		if m.demo.on {
			if m.onlyClock {
				t.Fatalf("second %d woke the demo, and the next frame would paint the header alone", s+1)
			}
			return
		}
		if !m.onlyClock {
			t.Fatalf("second %d: only the second moved, and the next frame is laid out whole", s+1)
		}
		m.View()
	}
	t.Fatal("the demo did not wake after its idle time")
}

// TestHeaderOnlyWithinTheMinute: the header alone is painted only within
// the minute of the last whole frame; the first second of the next minute
// lays the frame out whole (what the body shows of the time changes by the
// minute at the finest).
func TestHeaderOnlyWithinTheMinute(t *testing.T) {
	m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen,
		Clock: &testClock{t: time.Date(2026, 11, 29, 20, 0, 58, 0, time.UTC)}}, 100, 30)
	c := clockOf(m)
	m.View()
	c.add(time.Second) // 20:00:59
	send(m, clockMsg{})
	if !m.headerOnly() {
		t.Fatal("a second within the minute: laid out whole")
	}
	m.View()
	c.add(time.Second) // 20:01:00
	send(m, clockMsg{})
	if m.headerOnly() {
		t.Fatal("the first second of the next minute paints the header alone")
	}
	m.View()
	c.add(time.Second) // 20:01:01
	send(m, clockMsg{})
	if !m.headerOnly() {
		t.Error("a second after the minute's whole frame: laid out whole")
	}
}
