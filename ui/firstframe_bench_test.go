package ui

import (
	"bytes"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/shopspring/decimal"

	"tapis/session"
)

// frameWriter is a program's terminal: it tells, once, when what the
// program wrote holds mark.
type frameWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	mark []byte
	seen chan struct{}
}

func (w *frameWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mark == nil {
		return len(p), nil
	}
	w.buf.Write(p)
	if bytes.Contains(w.buf.Bytes(), w.mark) {
		w.mark = nil
		close(w.seen)
	}
	return len(p), nil
}

// firstFrame runs a program of the model newModel returns, as the game
// runs (the same options but a terminal in memory), and returns how long
// it took from newModel to the first frame holding mark written out.
func firstFrame(b *testing.B, newModel func() tea.Model, mark string) time.Duration {
	b.Helper()
	out := &frameWriter{mark: []byte(mark), seen: make(chan struct{})}
	start := time.Now()
	p := tea.NewProgram(newModel(), tea.WithInput(nil), tea.WithOutput(out), tea.WithWindowSize(120, 40),
		tea.WithColorProfile(colorprofile.TrueColor), tea.WithoutSignalHandler(), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	select {
	case <-out.seen:
	case err := <-done:
		b.Fatalf("the program ended before its first frame: %v", err)
	case <-time.After(5 * time.Second):
		b.Fatal("no first frame in 5 s")
	}
	d := time.Since(start)
	p.Quit()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkFirstFrame is the time from New to the first frame of the menu
// written out, in a real program.
func BenchmarkFirstFrame(b *testing.B) {
	var total time.Duration
	for b.Loop() {
		total += firstFrame(b, func() tea.Model {
			sess, err := session.Open(session.Options{Balance: decimal.NewFromInt(100)})
			if err != nil {
				b.Fatal(err)
			}
			return New(sess, Options{Lang: French, Balance: decimal.NewFromInt(100), Profile: colorprofile.TrueColor})
		}, "♦")
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/frame")
}

// emptyModel is the least Bubble Tea program: it draws a word.
type emptyModel struct{}

func (emptyModel) Init() tea.Cmd                         { return nil }
func (e emptyModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return e, nil }
func (emptyModel) View() tea.View {
	v := tea.NewView("♦")
	v.AltScreen = true
	return v
}

// BenchmarkFirstFrameFloor is BenchmarkFirstFrame's floor: an empty
// program's first frame, measured the same way.
func BenchmarkFirstFrameFloor(b *testing.B) {
	var total time.Duration
	for b.Loop() {
		total += firstFrame(b, func() tea.Model { return emptyModel{} }, "♦")
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/frame")
}
