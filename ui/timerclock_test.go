package ui

import (
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestTimerClock: After hands Bubble Tea no command; a wait over before
// Start is kept and sent once Start names where, without Start waiting
// on the send (a program's Send waits for it to run); a wait sends its
// message once it is over, never more than half a beat early; none is
// sent after Stop.
func TestTimerClock(t *testing.T) {
	c := NewTimerClock()
	if cmd := c.After(time.Millisecond, "early"); cmd != nil {
		t.Error("After returned a command: Bubble Tea would run a goroutine for it")
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		n := len(c.early)
		c.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a wait of 1 ms not over (kept for Start) after 5 s")
		}
	}
	got := make(chan tea.Msg)
	started := make(chan struct{})
	go func() { c.Start(func(msg tea.Msg) { got <- msg }); close(started) }()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("Start waited on the send of a wait over before it")
	}
	if msg := <-got; msg != "early" {
		t.Errorf("after Start: %v, want the wait over before it", msg)
	}
	start := time.Now()
	c.After(50*time.Millisecond, "step")
	if msg := <-got; msg != "step" {
		t.Errorf("got %v, want step", msg)
	}
	if d := time.Since(start); d < 45*time.Millisecond {
		t.Errorf("a wait of 50 ms ended after %v", d)
	}
	c.After(100*time.Millisecond, "late")
	c.Stop()
	select {
	case msg := <-got:
		t.Errorf("after Stop: %v sent", msg)
	case <-time.After(300 * time.Millisecond):
	}
}

// tickQuit quits at its clock's first tick, which it asks for at Init.
type tickQuit struct {
	c     Clock
	ticks int
}

func (m *tickQuit) Init() tea.Cmd { return m.c.After(20*time.Millisecond, clockMsg{}) }

func (m *tickQuit) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(clockMsg); ok {
		m.ticks++
		return m, tea.Quit
	}
	return m, nil
}

func (m *tickQuit) View() tea.View { return tea.View{} }

// TestTimerClockRunsAProgram: a program started on a TimerClock, as a
// server starts each session's (Start before Run), gets its waits'
// messages: its first tick quits it.
func TestTimerClockRunsAProgram(t *testing.T) {
	c := NewTimerClock()
	m := &tickQuit{c: c}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignalHandler())
	c.Start(p.Send)
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	select {
	case err := <-done:
		if err != nil || m.ticks != 1 {
			t.Errorf("the program ended with %v after %d ticks, want its tick's quit", err, m.ticks)
		}
	case <-time.After(10 * time.Second):
		p.Kill()
		t.Fatal("the program got no tick in 10 s")
	}
	c.Stop()
}
