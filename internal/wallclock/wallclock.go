// Package wallclock ticks on the wall clock's whole seconds: a server's
// periodic work (heads, checks, presence, leases) wakes with its players'
// clocks, which tick on the second, rather than at moments of its own. On
// a virtual machine a wake of the process costs more than most of what it
// wakes for: the runtime's threads and its monitor come out of their sleep
// and go back to it.
package wallclock

import (
	"sync"
	"time"
)

// Ticker sends the time on C at each multiple of its period on the wall
// clock (since the zero time: a period of 2 s ticks on the even seconds),
// and drops a tick its reader is not ready for, as time.Ticker does.
type Ticker struct {
	C <-chan time.Time
	c chan time.Time
	d time.Duration

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

// NewTicker returns a ticker ticking every d on the wall clock (whole
// seconds tick on the second; a second if d is not positive), the first
// time at the next multiple of d but the nearest.
func NewTicker(d time.Duration) *Ticker {
	if d <= 0 {
		d = time.Second
	}
	c := make(chan time.Time, 1)
	t := &Ticker{C: c, c: c, d: d}
	t.mu.Lock()
	t.timer = time.AfterFunc(Next(time.Now(), d), t.fire)
	t.mu.Unlock()
	return t
}

// Next returns the wait from now to the next multiple of d on the wall
// clock, past the one nearest to now: a timer that fired a little early or
// late does not tick twice for one multiple, nor miss the next.
func Next(now time.Time, d time.Duration) time.Duration {
	return now.Add(d / 2).Truncate(d).Add(d).Sub(now)
}

func (t *Ticker) fire() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	now := time.Now()
	select {
	case t.c <- now:
	default: // the reader is busy: this tick is dropped
	}
	t.timer.Reset(Next(now, t.d))
}

// Stop stops the ticker: no tick is sent after it returns but one already
// on C.
func (t *Ticker) Stop() {
	t.mu.Lock()
	t.stopped = true
	t.timer.Stop()
	t.mu.Unlock()
}
