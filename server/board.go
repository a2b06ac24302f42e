package server

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/bubbletea"
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
// server's one feed, until the viewer quits, the connection drops or the
// server closes. A board is no player: it claims no account, and no idle
// timeout closes it (a big screen sends no key); it counts towards
// --max-sessions.
func (s *Server) watch(sess ssh.Session, lang ui.Lang, env []string, logger *log.Logger, refuse func(line, ...any)) {
	start := time.Now()
	if l, ok := s.claimBoard(); !ok {
		if l == lineFull {
			refuse(l, s.o.MaxSessions)
		} else {
			refuse(l)
		}
		return
	}
	defer s.releaseBoard()
	s.feed.Start()
	m := board.New(board.Options{Lang: lang, Source: s.feed, Profile: colorprofile.Env(env)})
	// As a player's game, the board ends when the server's shutdown says
	// so (at once: nothing is being revealed), not on the process's
	// signals, and at once when the connection drops.
	prog := tea.NewProgram(m, append(bubbletea.MakeOptions(sess), tea.WithContext(sess.Context()),
		tea.WithoutSignalHandler())...)
	over := make(chan struct{})
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
	end := "quit"
	select {
	case <-closed:
		end = "server closing"
		fmt.Fprintf(sess.Stderr(), "%s\r\n", lineClosing.say(lang))
	default:
		if sess.Context().Err() != nil {
			end = "disconnected"
		} else if runErr != nil {
			end = "error"
		}
	}
	logger.Info("watched the board", "lang", string(lang), "for", time.Since(start).Round(time.Second), "end", end)
}

// claimBoard takes a session for a board; it says why not when the server
// is full or closing.
func (s *Server) claimBoard() (refusal line, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return lineClosing, false
	case len(s.playing)+s.boards >= s.o.MaxSessions:
		return lineFull, false
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
