package board

import (
	"context"
	"sync"
	"time"

	"tapis/internal/beat"
	"tapis/store"
)

// Every is how often a feed reads the store, and a board redraws.
const Every = time.Second

// Keep is how many big wins a feed keeps: what the largest screen shows.
const Keep = 30

// Source gives a board what to draw: the latest reading of the store, and
// the error of the last poll, if it failed. ok is false until the first
// reading. It never blocks on the store.
type Source interface {
	Latest() (b store.Board, ok bool, err error)
}

// Feed polls a store once every Every, for every board that watches it: a
// server has one feed however many boards it serves. Start starts it
// (again and again is once), Close stops it.
type Feed struct {
	poller *store.Poller
	report func(error) // told each time polls start failing; nil: no one
	every  time.Duration
	stop   chan struct{}
	done   chan struct{}

	mu      sync.Mutex
	started bool // Start was called: run runs, or has run
	closed  bool // Close was called
	board   store.Board
	ok      bool
	err     error
}

// NewFeed returns a feed of the store, not started. report, when not
// nil, is told why polls fail each time they start failing: the boards
// say only that they are paused, the server's log says why.
func NewFeed(s *store.SQL, report func(error)) *Feed {
	return &Feed{poller: s.NewPoller(Keep), report: report, every: Every, stop: make(chan struct{}), done: make(chan struct{})}
}

// Start starts polling, at once and then every Every, until Close. Only
// the first call starts it; none does once it is closed.
func (f *Feed) Start() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.started || f.closed {
		return
	}
	f.started = true
	go f.run()
}

// Latest returns the latest reading.
func (f *Feed) Latest() (store.Board, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.board, f.ok, f.err
}

// Close stops polling, and waits for a poll under way to end. It may be
// called more than once.
func (f *Feed) Close() {
	f.mu.Lock()
	if !f.closed {
		f.closed = true
		close(f.stop)
	}
	started := f.started
	f.mu.Unlock()
	if started {
		<-f.done
	}
}

func (f *Feed) run() {
	defer close(f.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-f.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	t := beat.NewTicker(f.every)
	defer t.Stop()
	for {
		f.poll(ctx)
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
	}
}

// poll reads the store once, in five periods at most. A poll that fails
// keeps the last reading, and says why.
func (f *Feed) poll(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*f.every)
	defer cancel()
	b, err := f.poller.Poll(ctx)
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		if f.err == nil && f.report != nil {
			f.report(err)
		}
		f.err = err
		return
	}
	f.board, f.ok, f.err = b, true, nil
}
