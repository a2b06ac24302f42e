package server

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
	"tapis/ui"
)

// queueClock is a ui.Clock whose waits queue their messages until the
// caller delivers them, moving its time by each wait.
type queueClock struct {
	mu    sync.Mutex
	now   time.Time
	queue []waited
}

type waited struct {
	d   time.Duration
	msg tea.Msg
}

// waitedMsg is a wait's message, back from its command.
type waitedMsg struct{ waited }

func (c *queueClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *queueClock) After(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return waitedMsg{waited{d, msg}} }
}

// run hands msg to m and runs the commands it returns, at once, but the
// clock's waits, which it queues.
func (c *queueClock) run(m tea.Model, msg tea.Msg) {
	_, cmd := m.Update(msg)
	c.do(m, cmd)
}

func (c *queueClock) do(m tea.Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, cmd := range msg {
			c.do(m, cmd)
		}
	case waitedMsg:
		c.mu.Lock()
		c.queue = append(c.queue, msg.waited)
		c.mu.Unlock()
	default:
		c.run(m, msg)
	}
}

// next delivers the wait queued first (the model asks for one step at a
// time, or a second), moving the clock by it, and reports whether there
// was one. The header's second is dropped: it would tick for ever.
func (c *queueClock) next(m tea.Model) bool {
	c.mu.Lock()
	if len(c.queue) == 0 {
		c.mu.Unlock()
		return false
	}
	w := c.queue[0]
	c.queue = c.queue[1:]
	c.now = c.now.Add(w.d)
	c.mu.Unlock()
	if w.d == time.Second { // the header's second
		return true
	}
	c.run(m, w.msg)
	return true
}

// drawnFrame is a frame as a session's model hands it to its screen.
type drawnFrame struct {
	view tea.View
	rows []string
}

// autoFrames returns n frames of a remote player's Yam's at w×h, pressing
// Auto (a) whenever a unit is revealed: the frames a session of the load
// draws, its rolling cups most of them, as rows (Model.Lines).
func autoFrames(tb testing.TB, w, h, n int) []drawnFrame {
	tb.Helper()
	clock := &queueClock{now: time.Date(2026, 12, 2, 20, 0, 0, 0, time.UTC)}
	sess, err := session.Open(session.Options{Seed: game.SeedFrom(42), Balance: decimal.NewFromInt(1_000_000), Now: clock.Now})
	if err != nil {
		tb.Fatal(err)
	}
	m := ui.New(sess, ui.Options{Lang: ui.French, Balance: decimal.NewFromInt(1_000_000), Start: ui.YamsScreen,
		Clock: clock, Remote: true, Profile: colorprofile.TrueColor})
	clock.do(m, m.Init())
	clock.run(m, tea.WindowSizeMsg{Width: w, Height: h})
	var frames []drawnFrame
	for len(frames) < n {
		if !m.Revealing() {
			clock.run(m, tea.KeyPressMsg{Code: 'a', Text: "a"})
		} else if !clock.next(m) {
			tb.Fatal("a unit being revealed asks for no step")
		}
		v, rows := m.Lines()
		frames = append(frames, drawnFrame{v, slices.Clone(rows)})
	}
	return frames
}

// BenchmarkScreenDraw draws the frames of a session playing Auto, as the
// server's screen writes them to its terminal (only what changed), beside
// its floor in the same run: each frame's whole text written, as it is, to
// the same writer, the least a frame costs to send (a byte copy, not the
// same work). bytes/frame is what the terminal is sent.
func BenchmarkScreenDraw(b *testing.B) {
	for _, size := range []struct{ w, h int }{{80, 24}, {100, 30}, {120, 40}} {
		frames := autoFrames(b, size.w, size.h, 300)
		name := func(s string) string { return fmt.Sprintf("%s/%dx%d", s, size.w, size.h) }
		b.Run(name("screen"), func(b *testing.B) {
			var sent countingWriter
			s := &screen{out: &sent, profile: colorprofile.TrueColor, styles: &styleMemo{}, width: size.w, height: size.h}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				f := frames[i%len(frames)]
				s.draw(f.view, f.rows, size.w, size.h, false)
				i++
			}
			b.ReportMetric(float64(sent.n)/float64(i), "bytes/frame")
		})
		// Sessions drawing at once on every core, as a server's do, each
		// its own screen and all one process's style memo.
		b.Run(name("screens"), func(b *testing.B) {
			styles := &styleMemo{}
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				s := &screen{out: io.Discard, profile: colorprofile.TrueColor, styles: styles, width: size.w, height: size.h}
				i := 0
				for pb.Next() {
					f := frames[i%len(frames)]
					s.draw(f.view, f.rows, size.w, size.h, false)
					i++
				}
			})
		})
		b.Run(name("floor"), func(b *testing.B) {
			whole := make([]string, len(frames))
			for i, f := range frames {
				whole[i] = strings.Join(f.rows, "\n")
			}
			var sent countingWriter
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				io.WriteString(&sent, whole[i%len(frames)]) //nolint:errcheck // counts
				i++
			}
			b.ReportMetric(float64(sent.n)/float64(i), "bytes/frame")
		})
	}
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
