// Package beat gives tickers whose ticks fall on the wall clock's
// multiples of their period. A server's light periodic work (its leases'
// locks made sure of and renewed, its players written for the board, its
// housekeeping, its processors weighed) then wakes the process on the
// whole second, or the quarter, when its sessions' clocks wake it anyway,
// rather than each at a moment of its own. On a virtual machine a wake of
// an idle process costs more than most of what is done awake (README,
// Serving over SSH).
package beat

import (
	"sync"
	"time"
)

// Ticker sends the time on C at each multiple of its period on the wall
// clock, as time.Ticker does at its own: while the reader is not ready
// one tick is held, the others are dropped.
type Ticker struct {
	// C delivers the ticks.
	C <-chan time.Time
	c chan time.Time
	d time.Duration

	mu      sync.Mutex
	t       *time.Timer
	next    time.Time // the multiple of d the timer is set for, on the wall clock
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
	now := time.Now()
	t.next = now.Truncate(d).Add(d)
	t.t = time.AfterFunc(Until(now, d), t.fire)
	t.mu.Unlock()
	return t
}

// Until is how long from now to the next multiple of d on the wall clock
// (a whole d ahead when now is one).
func Until(now time.Time, d time.Duration) time.Duration {
	return now.Truncate(d).Add(d).Sub(now)
}

// fire sends a tick, unless the last is still unread, and sets the next.
// A timer ending before the multiple it was set for (the wall clock set
// back meanwhile) is set again for it, sending nothing: one tick a
// multiple, never two.
func (t *Ticker) fire() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	now := time.Now()
	if wall := now.Round(0); wall.Before(t.next) {
		t.t.Reset(t.next.Sub(wall))
		return
	}
	select {
	case t.c <- now:
	default:
	}
	t.next = now.Truncate(t.d).Add(t.d)
	t.t.Reset(Until(now, t.d))
}

// Reset changes the ticker's period to d: its next tick is the next
// multiple of d on the wall clock. A tick held unread stays. d must be
// positive.
func (t *Ticker) Reset(d time.Duration) {
	if d <= 0 {
		panic("beat: non-positive period")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped || d == t.d {
		return
	}
	now := time.Now()
	t.d, t.next = d, now.Truncate(d).Add(d)
	t.t.Reset(Until(now, d))
}

// Stop stops the ticks: none is received after it returns, even one sent
// just before. It does not close C.
func (t *Ticker) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	t.t.Stop()
	select {
	case <-t.c:
	default:
	}
}
