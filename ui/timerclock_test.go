package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestTimerClock: a wait sends its message once it is over, to where
// Start says; one over before Start is sent at Start; none is sent after
// Stop; and After hands Bubble Tea no command to run.
func TestTimerClock(t *testing.T) {
	c := NewTimerClock()
	got := make(chan tea.Msg, 4)
	if cmd := c.After(time.Millisecond, "early"); cmd != nil {
		t.Error("After returned a command: Bubble Tea would run a goroutine for it")
	}
	time.Sleep(20 * time.Millisecond)
	c.Start(func(msg tea.Msg) { got <- msg })
	if msg := <-got; msg != "early" {
		t.Errorf("at Start: %v, want the wait over before it", msg)
	}
	start := time.Now()
	c.After(50*time.Millisecond, "step")
	if msg := <-got; msg != "step" {
		t.Errorf("got %v, want step", msg)
	}
	if d := time.Since(start); d < 25*time.Millisecond { // onBeat: never more than half a beat early
		t.Errorf("a wait of 50 ms ended after %v", d)
	}
	c.After(10*time.Millisecond, "late")
	c.Stop()
	select {
	case msg := <-got:
		t.Errorf("after Stop: %v sent", msg)
	case <-time.After(60 * time.Millisecond):
	}
}
