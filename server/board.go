package server

import (
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"

	"tapis/board"
	"tapis/ui"
)

// boardCommand is the one command a session may ask for: the live board
// (ssh -t -p PORT HOST board).
const boardCommand = "board"

// isBoard reports whether a session's command asks for the board.
func isBoard(cmd []string) bool { return len(cmd) == 1 && cmd[0] == boardCommand }

// watch runs a board session: the store's live board, drawn from the
// server's one feed, until the viewer quits, the connection drops, it
// stays idle too long or the server closes. A board is no player: it
// claims no account, and takes a place of --max-boards, none of the
// players'.
func (s *Server) watch(sess ssh.Session, lang ui.Lang, env []string, logger *log.Logger, refuse func(line, ...any)) {
	start := time.Now()
	if l, ok := s.claimBoard(); !ok {
		if l == lineBoardsFull {
			refuse(l, s.o.MaxBoards)
		} else {
			refuse(l)
		}
		return
	}
	defer s.releaseBoard()
	if c := gatedOf(sess.Context()); c != nil {
		if !c.begin() { // closing already: the grace ran out
			return
		}
		defer c.end()
	}
	s.feed.Start()
	m := board.New(board.Options{Lang: lang, Source: s.feed, Profile: colorprofile.Env(env)})
	// As a player's game, the board ends when the server's shutdown says
	// so (at once: nothing is being revealed).
	over := make(chan struct{}) // closed once the board is over
	in := &idleInput{r: newInputGuard(sess, over), d: s.o.IdleTimeout}
	prog := s.program(sess, m, in)
	in.watch(prog)
	closed := make(chan struct{})
	go func() {
		select {
		case <-s.end.closing:
			close(closed)
			prog.Quit()
		case <-over:
		}
	}()
	runErr := run(sess, prog)
	close(over)
	idled := in.stop()
	end := "quit"
	select {
	case <-closed:
		end = "server closing"
		s.tell(sess, lineClosing.say(lang))
	default:
		if idled {
			end = "idle"
			s.tell(sess, lineBoardIdle.say(lang, minutes(s.o.IdleTimeout)))
		} else if in.lost.Load() || sess.Context().Err() != nil {
			end = "disconnected"
		} else if runErr != nil {
			end = "error"
		}
	}
	logger.Info("watched the board", "lang", string(lang), "for", time.Since(start).Round(time.Second), "end", end)
	// The exit status goes out before the place is released, as a
	// player's: a server closing closes the connections once every
	// session is over, and a viewer would see none.
	sess.Exit(0) //nolint:errcheck // a viewer gone hears nothing
}

// claimBoard takes a place for a board; it says why not when the boards
// are full or the server is closing.
func (s *Server) claimBoard() (refusal line, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return lineClosing, false
	case s.boards >= s.o.MaxBoards:
		return lineBoardsFull, false
	}
	s.boards++
	s.wg.Add(1)
	return 0, true
}

// releaseBoard gives a board's session back.
func (s *Server) releaseBoard() {
	s.mu.Lock()
	s.boards--
	s.mu.Unlock()
	s.wg.Done()
}

// Watching returns how many boards are watched now.
func (s *Server) Watching() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.boards
}
