// Package beat gives tickers whose ticks fall on the wall clock's
// multiples of their period: every periodic task of a server (a lease
// renewed, a store checked, the players written for the board, the
// processors weighed) then wakes the process at the very moments its
// sessions' clocks do, on the whole second, rather than each at a moment
// of its own. On a virtual machine a wake of an idle process costs more
// than most of what is done awake (README, Serving over SSH).
package beat

import (
	"sync"
	"time"
)

// Ticker sends the time on C at each multiple of its period on the wall
// clock, as time.Ticker does at its own: a tick the reader is not ready
// for is dropped, never queued.
type Ticker struct {
	// C delivers the ticks.
	C <-chan time.Time
	c chan time.Time
	d time.Duration

	mu      sync.Mutex
	t       *time.Timer
	stopped bool
}

// NewTicker returns a ticker of period d, whose first tick is the next
// multiple of d on the wall clock. d must be positive.
func NewTicker(d time.Duration) *Ticker {
	if d <= 0 {
		panic("beat: non-positive period")
	}
	c := make(chan time.Time, 1)
	t := &Ticker{C: c, c: c, d: d}
	t.mu.Lock()
	t.t = time.AfterFunc(Until(time.Now(), d), t.fire)
	t.mu.Unlock()
	return t
}

// Until is how long from now to the next multiple of d on the wall clock
// (a whole d ahead when now is one).
func Until(now time.Time, d time.Duration) time.Duration {
	return now.Truncate(d).Add(d).Sub(now)
}

// fire sends a tick, unless the last is still unread, and sets the next.
func (t *Ticker) fire() {
	now := time.Now()
	select {
	case t.c <- now:
	default:
	}
	t.mu.Lock()
	if !t.stopped {
		t.t.Reset(Until(now, t.d))
	}
	t.mu.Unlock()
}

// Stop stops the ticks; it does not close C.
func (t *Ticker) Stop() {
	t.mu.Lock()
	t.stopped = true
	t.t.Stop()
	t.mu.Unlock()
}
