package server

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"tapis/board"
	"tapis/text"
)

// boardCommand is the one command a session may ask for: the live board
// (ssh -t -p PORT HOST board).
const boardCommand = "board"

// isBoard reports whether a session's command asks for the board.
func isBoard(cmd []string) bool { return len(cmd) == 1 && cmd[0] == boardCommand }

// viewer is a board's session: the store's live board, drawn from the
// server's one feed, until the viewer quits, the connection drops, it
// stays idle too long or the server closes. A board is no player: it
// claims no account, and takes a place of --max-boards, none of the
// players'.
type viewer struct {
	*lifecycle
	closed chan struct{} // closed once the server's shutdown quit the board
}

// claim takes a board's place.
func (v *viewer) claim() (func(), *refusal) {
	if l, ok := v.s.claimBoard(); !ok {
		if l == lineBoardsFull {
			return nil, refuse(l, v.s.o.MaxBoards)
		}
		return nil, refuse(l)
	}
	return v.s.releaseBoard, nil
}

// open starts the feed, and returns the board drawing it.
func (v *viewer) open() (tea.Model, *refusal) {
	v.s.feed.Start()
	return board.New(board.Options{Lang: v.lang, Source: v.s.feed, Profile: colorprofile.Env(v.env), Join: v.s.o.Join}), nil
}

// watch quits the board when the server's shutdown starts: as a player's
// game, the board ends when the server's shutdown says so (at once:
// nothing is being revealed).
func (v *viewer) watch(prog *tea.Program, over <-chan struct{}) {
	v.s.stand.follow(prog, over, boardStand)
	v.closed = make(chan struct{})
	go func() {
		select {
		case <-v.s.end.closing:
			close(v.closed)
			prog.Quit()
		case <-over:
		}
	}()
}

// end names how the board ended, and what the viewer is told.
func (v *viewer) end(o outcome) (reason, farewell string) {
	select {
	case <-v.closed:
		if v.s.end.tampered {
			return "sales stopped", lineStopped.say(v.lang)
		}
		return "server closing", lineClosing.say(v.lang)
	default:
	}
	switch {
	case o.idled:
		return "idle", lineBoardIdle.say(v.lang, minutes(v.s.o.IdleTimeout))
	case o.disconnected:
		return "disconnected", ""
	case o.err != nil:
		v.logger.Error("the board stopped", "err", text.Printable(o.err.Error()))
		return "error", ""
	}
	return "quit", ""
}

// name is "board".
func (v *viewer) name() string { return "board" }

// close does nothing: a board holds nothing of the store's.
func (v *viewer) close() {}

// logEnd logs the board watched.
func (v *viewer) logEnd(reason string, d time.Duration) {
	v.logger.Info("watched the board", "lang", string(v.lang), "for", d, "end", reason)
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
