package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"time"

	"tapis/internal/beat"
	"tapis/store"
	"tapis/text"
)

// presence writes the server's count of players in the store every
// store.PresenceEvery, for the boards of every server on the store to add
// up, and removes it when stopped.
type presence struct {
	id      string
	writes  *ticker
	stopped sync.Once
}

// presenceRefresh: a count of players that did not change is written
// again every presenceRefresh × store.PresenceEvery (6 s), within
// store.PresenceWithin, for the boards to go on counting the server; a
// count that changed is written at once.
const presenceRefresh = 2

// presenceWrites says which of presence's ticks write the count of
// players: one that changed, or that was not written for presenceRefresh
// ticks, or whose last write failed.
type presenceWrites struct {
	last  int // the count written last; -1: none yet
	since int // ticks since it was written: a failed write leaves it growing, and the next tick writes
}

// due reports whether this tick writes n.
func (w *presenceWrites) due(n int) bool {
	w.since++
	return n != w.last || w.since >= presenceRefresh
}

// written records n written; a tick that failed to write records nothing,
// and the next writes again.
func (w *presenceWrites) written(n int) { w.last, w.since = n, 0 }

// serverID names a server among those on a store: its machine, its
// process and a random part.
func serverID() string {
	host, err := os.Hostname()
	if err != nil {
		host = "tapis"
	}
	b := make([]byte, 4)
	rand.Read(b) // never fails (crypto/rand)
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b))
}

// startPresence starts writing the server's players, once; s.mu is held.
func (s *Server) startPresence() {
	if s.presence != nil {
		return
	}
	p := &presence{id: serverID()}
	s.presence = p
	failing := false
	w := presenceWrites{last: -1}
	p.writes = every(store.PresenceEvery, func() {
		ctx, cancel := context.WithTimeout(context.Background(), store.PresenceEvery)
		var err error
		if n := s.Playing(); w.due(n) {
			if err = s.o.Store.Present(ctx, p.id, n); err == nil {
				w.written(n)
			}
		}
		if err == nil { // what another server's host set, followed here
			var shared store.Stand
			if shared, err = s.o.Store.ReadStand(ctx); err == nil && s.stand.takeUp(shared) {
				s.log.Info("the stand as the store has it", "paused", shared.Paused, "announce", text.Printable(shared.Announce))
			}
		}
		cancel()
		if err != nil {
			s.metrics.storeError("presence")
		}
		if err != nil && !failing {
			s.log.Error("players not recorded for the board", "err", text.Printable(err.Error()))
		}
		failing = err != nil
	})
}

// stopPresence stops writing the server's players, and removes them; only
// its first call does, and none when the server never served.
func (s *Server) stopPresence() {
	s.mu.Lock()
	p := s.presence
	s.mu.Unlock()
	if p == nil {
		return
	}
	p.stopped.Do(func() {
		p.writes.end()
		ctx, cancel := context.WithTimeout(context.Background(), store.PresenceEvery)
		defer cancel()
		if err := s.o.Store.Absent(ctx, p.id); err != nil {
			s.log.Error("players not removed from the board", "err", text.Printable(err.Error()))
		}
	})
}

// ticker calls a function every so often, until stopped.
type ticker struct {
	stop    chan struct{}
	done    chan struct{}
	stopped sync.Once
}

// every calls f at once, then at each multiple of d on the wall clock (the
// first may come a moment after), and a last time when stopped.
func every(d time.Duration, f func()) *ticker {
	t := &ticker{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(t.done)
		tick := beat.NewTicker(d)
		defer tick.Stop()
		for {
			f()
			select {
			case <-t.stop:
				f()
				return
			case <-tick.C:
			}
		}
	}()
	return t
}

// end stops the ticker, after its last call; nil does nothing.
func (t *ticker) end() {
	if t == nil {
		return
	}
	t.stopped.Do(func() { close(t.stop) })
	<-t.done
}
