package server

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
	"tapis/ui"
)

// BenchmarkHeaderSecond is a second of a session sitting on Yam's at
// 100×30, a whole minute of them, as its server draws it: "hand", the
// screen writing the time's cells from its last frame's ui.HeaderTime
// (HeaderTime.At, drawTime), the model woken at its minute only; "model",
// the model's own second (a local game's, and every session's before
// d2b8602): its clockMsg's Update, its frame (Lines) and the screen's
// comparing of the rows; "floor", the bytes the hand writes, copied to the
// same writer. Neither counts the wakes around it (the timer, the
// program's loop, the screen's writer) nor the socket.
func BenchmarkHeaderSecond(b *testing.B) {
	const w, h = 100, 30
	start := time.Date(2026, 12, 7, 20, 0, 0, 300e6, time.UTC)
	sitting := func(b *testing.B, drawsSeconds bool) (*ui.Model, *queueClock, *screen, *keptWriter) {
		clock := &queueClock{now: start}
		sess, err := session.Open(session.Options{Seed: game.SeedFrom(42), Balance: decimal.NewFromInt(100), Now: clock.Now})
		if err != nil {
			b.Fatal(err)
		}
		m := ui.New(sess, ui.Options{Lang: ui.French, Balance: decimal.NewFromInt(100), Start: ui.YamsScreen,
			Clock: clock, Remote: true, Profile: colorprofile.TrueColor, DrawsSeconds: drawsSeconds})
		clock.do(m, m.Init())
		clock.run(m, tea.WindowSizeMsg{Width: w, Height: h})
		sent := &keptWriter{}
		s := &screen{out: sent, profile: colorprofile.TrueColor, styles: &styleMemo{}, width: w, height: h}
		v, rows := m.Lines()
		s.draw(v, rows, w, h, false)
		return m, clock, s, sent
	}
	// due takes the wait the model asked last (the clock's: a second's,
	// or its minute's), and when it ends.
	due := func(clock *queueClock) (time.Time, tea.Msg) {
		clock.mu.Lock()
		defer clock.mu.Unlock()
		wt := clock.queue[len(clock.queue)-1]
		clock.queue = clock.queue[:0]
		return clock.now.Add(wt.d), wt.msg
	}
	// wake ends the model's wait at its time, and draws its frame.
	wake := func(m *ui.Model, clock *queueClock, s *screen, at time.Time, msg tea.Msg) {
		clock.mu.Lock()
		clock.now = at
		clock.mu.Unlock()
		clock.run(m, msg)
		v, rows := m.Lines()
		s.draw(v, rows, w, h, false)
	}
	var written []byte // what the hand writes for a second
	{
		m, _, s, sent := sitting(b, true)
		row, ok := m.HeaderTime().At(start.Add(2 * time.Second))
		if !ok {
			b.Fatal("the hand moves nothing in the second second")
		}
		s.drawTime(row, w)
		written = slices.Clone(sent.last)
	}
	b.Run("hand", func(b *testing.B) {
		m, clock, s, sent := sitting(b, true)
		until, msg := due(clock)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			now := clock.Now().Truncate(time.Second).Add(time.Second)
			if !now.Before(until) { // the model's minute
				wake(m, clock, s, until, msg)
				until, msg = due(clock)
			} else {
				if row, ok := m.HeaderTime().At(now); ok { // not in the first second
					s.drawTime(row, w)
				}
				clock.mu.Lock()
				clock.now = now
				clock.mu.Unlock()
			}
			i++
		}
		b.ReportMetric(float64(sent.n)/float64(i), "bytes/second")
	})
	b.Run("model", func(b *testing.B) {
		m, clock, s, sent := sitting(b, false)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			at, msg := due(clock)
			wake(m, clock, s, at, msg)
			i++
		}
		b.ReportMetric(float64(sent.n)/float64(i), "bytes/second")
	})
	b.Run("floor", func(b *testing.B) {
		var sent []byte
		b.ReportAllocs()
		for b.Loop() {
			sent = append(sent[:0], written...)
		}
		b.ReportMetric(float64(len(sent)), "bytes/second")
	})
}

// keptWriter counts what is written to it, and keeps the last write.
type keptWriter struct {
	countingWriter
	last []byte
}

func (w *keptWriter) Write(p []byte) (int, error) {
	w.last = append(w.last[:0], p...)
	return w.countingWriter.Write(p)
}
