package ui

import (
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestOnBeat: waits end on the beat nearest to them, never more than half
// a beat early, and a second's tick taken up late still ends on the next
// whole second.
func TestOnBeat(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		now  time.Duration // past at
		d    time.Duration
		want time.Duration
	}{
		{300 * time.Millisecond, time.Second, 700 * time.Millisecond},                                   // the first tick: the nearest second
		{700 * time.Millisecond, time.Second, 1300 * time.Millisecond},                                  // the nearest second past 1.7 s is 2 s
		{1000*time.Millisecond + 400*time.Microsecond, time.Second, time.Second - 400*time.Microsecond}, // a tick taken up late
		{3 * time.Millisecond, 60 * time.Millisecond, 57 * time.Millisecond},
		{7 * time.Millisecond, 60 * time.Millisecond, 63 * time.Millisecond},
		{3 * time.Millisecond, 1200 * time.Millisecond, 1197 * time.Millisecond},
		{3 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond},
	} {
		now := at.Add(c.now)
		if got := onBeat(now, c.d); got != c.want {
			t.Errorf("a wait of %s at %s: %s, want %s", c.d, c.now, got, c.want)
		}
		if got := onBeat(now, c.d); got < c.d/2 {
			t.Errorf("a wait of %s at %s ends at %s: more than half a beat early", c.d, c.now, got)
		}
	}
}

// TestLazy: the header's second and a showing recorded may wait for the
// next frame; a showing the store failed to record says so at once, and a
// key, a purchase's answer or an animation's step are never lazy.
func TestLazy(t *testing.T) {
	for _, c := range []struct {
		msg  tea.Msg
		lazy bool
	}{
		{clockMsg{}, true},
		{clockMsg{countdown: true}, false},
		{shownMsg{}, true},
		{shownMsg{err: errors.New("disk full")}, false},
		{tea.KeyPressMsg{Code: 'a'}, false},
		{boughtMsg{}, false},
		{cupTickMsg{}, false},
		{scratchTickMsg{}, false},
	} {
		if got := Lazy(c.msg); got != c.lazy {
			t.Errorf("Lazy(%T %+v) = %v, want %v", c.msg, c.msg, got, c.lazy)
		}
	}
}
