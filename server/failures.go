package server

import (
	"sync"
	"time"

	"charm.land/log/v2"
)

// failureQuiet is how long the log holds back further failed purchases
// after it wrote one: a store that stops answering fails every purchase
// of every player, a few hundred a second at a busy stand, and a line
// each would bury everything else the log says.
const failureQuiet = 10 * time.Second

// failures writes the server's failed purchases to its log: the first at
// once, then those that follow within failureQuiet only as a count, given
// with the next failure written and when purchases sell again. Nothing is
// lost: each session's own line still counts its purchases.
type failures struct {
	log *log.Logger
	now func() time.Time

	mu      sync.Mutex
	written time.Time // when the last failure was written
	held    int       // failures since, not written
}

func newFailures(l *log.Logger, now func() time.Time) *failures {
	return &failures{log: l, now: now}
}

// failed logs a failed purchase, or counts it when one was written less
// than failureQuiet ago.
func (f *failures) failed(keyvals ...any) {
	f.mu.Lock()
	now := f.now()
	if !f.written.IsZero() && now.Sub(f.written) < failureQuiet {
		f.held++
		f.mu.Unlock()
		return
	}
	held := f.held
	f.written, f.held = now, 0
	f.mu.Unlock()
	if held > 0 {
		keyvals = append(keyvals, "held_back", held)
	}
	f.log.Error("purchase failed", keyvals...)
}

// sold notes a purchase that sold: the failures held back, if any, are
// written as a count, and the next failure is written at once.
func (f *failures) sold() {
	f.mu.Lock()
	if f.written.IsZero() {
		f.mu.Unlock()
		return
	}
	held, since := f.held, f.written
	f.written, f.held = time.Time{}, 0
	f.mu.Unlock()
	f.log.Info("purchases sell again", "held_back", held, "since", since.Format(time.TimeOnly))
}

// flush writes the count of the failures held back, if any: the server
// is stopping, and no purchase will sell to write them.
func (f *failures) flush() {
	f.mu.Lock()
	held := f.held
	f.written, f.held = time.Time{}, 0
	f.mu.Unlock()
	if held > 0 {
		f.log.Error("purchases failed, not written one by one", "held_back", held)
	}
}
