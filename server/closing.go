package server

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"tapis/ui"
)

// quitGrace bounds how long the server waits for the games it quit to
// give their players' terminals back (alternate screen left, mouse
// reporting off, cursor shown) before it closes their connections.
const quitGrace = time.Second

// ending is how the server ends its players' sessions: each session
// watches it, and its game is told when the server starts closing, then
// quit when the server ends the games that are left.
type ending struct {
	closing  chan struct{} // closed once the server starts closing
	quitting chan struct{} // closed once the games left are to quit now
	deadline time.Time     // written before closing is closed: when the games will be quit
	tampered bool          // written before closing is closed: the store was changed under the server
	tell     sync.Once
	quit     sync.Once
}

func newEnding() ending {
	return ending{closing: make(chan struct{}), quitting: make(chan struct{})}
}

// quitAll quits every game still running.
func (e *ending) quitAll() { e.quit.Do(func() { close(e.quitting) }) }

// watch tells prog when the server starts closing, and quits it when the
// server ends the games, until over is closed (its session is over). It
// returns what reports whether the server quit it.
func (e *ending) watch(prog *tea.Program, over <-chan struct{}) (quitByServer func() bool) {
	var forced atomic.Bool
	go func() {
		select {
		case <-e.closing:
		case <-over:
			return
		}
		prog.Send(ui.ClosingMsg{Deadline: e.deadline, Tampered: e.tampered})
		select {
		case <-e.quitting:
			forced.Store(true)
			prog.Quit()
		case <-over:
		}
	}()
	return forced.Load
}

// stopAccepting closes the listeners, so that new connections are
// refused, refuses the sessions of the connections already in, and tells
// the games playing that the server closes (tampered: that sales are
// stopped because the store was changed under it): they quit at deadline
// (zero: whenever their reveal ends). The connections stay open until
// Close.
func (s *Server) stopAccepting(deadline time.Time, tampered bool) {
	s.end.tell.Do(func() {
		s.mu.Lock()
		s.closed = true
		listeners := s.listeners
		s.mu.Unlock()
		// With a context already done, ssh's Shutdown closes its listeners
		// and returns without waiting for the connections.
		done, cancel := context.WithCancel(context.Background())
		cancel()
		s.ssh.Shutdown(done) //nolint:errcheck // the context's error, expected
		for _, l := range listeners {
			l.Close() // one that ssh.Serve had not taken yet
		}
		s.end.deadline, s.end.tampered = deadline, tampered
		close(s.end.closing)
	})
}

// Shutdown closes the server gracefully: new connections are refused at
// once, every player's game says that the server closes and buys no more;
// a game with nothing being revealed ends at once, the others as soon as
// their reveal is over and recorded. When ctx ends first (its deadline is
// the one the players see), the games left are quit. Every game is ended
// through Bubble Tea, which gives the player's terminal back, before the
// connections are closed. Anything bought and not shown is offered at the
// player's next visit. Shutdown returns nil once every game ended by
// itself, and ctx's error, wrapped, when reveals were cut short.
func (s *Server) Shutdown(ctx context.Context) error { return s.shutdown(ctx, false) }

// StopSelling is Shutdown for a store found changed under the server
// (store.Options.OnTamper): the store sells nothing more already; every
// player is told, in one line, that sales are stopped for that reason,
// and the reveals under way finish as in Shutdown.
func (s *Server) StopSelling(ctx context.Context) error { return s.shutdown(ctx, true) }

// shutdown is Shutdown and StopSelling.
func (s *Server) shutdown(ctx context.Context, tampered bool) error {
	deadline, _ := ctx.Deadline()
	s.stopAccepting(deadline, tampered)
	var err error
	select {
	case <-s.sessionsOver():
	case <-ctx.Done():
		err = fmt.Errorf("server: reveals cut short: %w", ctx.Err())
		s.end.quitAll()
		s.waitSessions(quitGrace)
	}
	if cerr := s.ssh.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("server: closing the connections: %w", cerr)
	}
	s.finish()
	return err
}

// finish waits for every session to be over, then stops the boards' feed,
// removes the server's players from the store and logs the last refusals
// and the failed purchases not written yet.
func (s *Server) finish() {
	s.wg.Wait()
	s.seller.failed.flush()
	s.feed.Close()
	s.stopPresence()
	s.mu.Lock()
	housekeeper := s.housekeeper
	s.mu.Unlock()
	housekeeper.end()
	s.hand.end()
}

// sessionsOver returns a channel closed once every session is over.
func (s *Server) sessionsOver() <-chan struct{} {
	over := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(over)
	}()
	return over
}

// waitSessions waits for every session to be over, for d at most.
func (s *Server) waitSessions(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.sessionsOver():
	case <-t.C:
	}
}
