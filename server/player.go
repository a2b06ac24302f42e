package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"

	"tapis/session"
	"tapis/store"
	"tapis/text"
	"tapis/ui"
)

// play is the handler of each SSH session: it lets the player in, or
// tells them in one line why not, then runs their game until they quit,
// the connection drops, they stay idle too long or the server closes.
func (s *Server) play(sess ssh.Session) {
	start := time.Now()
	env := sess.Environ()
	pty, _, terminal := sess.Pty()
	if terminal {
		env = append(env, "TERM="+pty.Term)
	}
	lang := ui.LangFromEnv(getenv(env))
	account, guest := accountOf(sess)
	watch := isBoard(sess.Command())
	logger := s.log.With("from", addr(sess.RemoteAddr()))
	if !watch { // a board claims no account: its lines name none
		logger = s.log.With("account", account, "from", addr(sess.RemoteAddr()))
	}
	refuse := func(l line, args ...any) {
		s.tell(sess, l.say(lang, args...))
		sess.Exit(1)
		logger.Info("refused", "why", l.reason())
	}
	switch {
	case len(sess.Command()) > 0 && !watch:
		refuse(lineCommand, howToPlay(sess.LocalAddr()), howToPlay(sess.LocalAddr()))
		return
	case !terminal && watch:
		refuse(lineNoTerminal, howToPlay(sess.LocalAddr())+" "+boardCommand)
		return
	case !terminal:
		refuse(lineNoTerminal, howToPlay(sess.LocalAddr()))
		return
	case watch: // a board is no player: with a key or without, it claims no account
		s.watch(sess, lang, env, logger, refuse)
		return
	case account == "": // no key and no keyboard-interactive: cannot happen
		refuse(lineUnavailable)
		return
	}
	if l, ok := s.claim(account); !ok {
		if l == lineFull {
			refuse(l, s.o.MaxSessions)
		} else {
			refuse(l)
		}
		return
	}
	defer s.release(account)
	if c := gatedOf(sess.Context()); c != nil {
		if !c.begin() { // closing already: the grace ran out
			return
		}
		defer c.end()
	}
	player, err := session.OpenOn(s.seller, account, session.Options{Balance: s.o.Balance, QA: s.o.QA, Guest: guest, Limit: ui.HistoryLimit})
	var inUse *store.InUseError
	switch {
	case errors.As(err, &inUse): // another server's, or a game's or a simulate's
		logger = logger.With("held_by", fmt.Sprintf("pid %d on %s", inUse.PID, text.Printable(inUse.Host)))
		refuse(lineElsewhere)
		return
	case err != nil:
		logger.Error("account not opened", "err", text.Printable(err.Error()))
		refuse(lineUnavailable)
		return
	}
	m := ui.New(player, ui.Options{Lang: lang, Balance: s.o.Balance, Start: ui.MenuScreen, QA: s.o.QA,
		Profile: colorprofile.Env(env), RealityCheck: s.o.RealityCheck})
	over := make(chan struct{}) // closed once the game is over
	in := &idleInput{r: newInputGuard(sess, over), d: s.o.IdleTimeout}
	prog := s.program(sess, m, in)
	in.watch(prog)
	quitByServer := s.end.watch(prog, over)
	runErr := run(sess, prog)
	close(over)
	idled := in.stop()
	o := m.Outcome()
	var end, farewell string
	switch {
	case idled:
		end, farewell = "idle", lineIdle.say(lang, minutes(s.o.IdleTimeout))
	case m.EndedByClosing() || quitByServer():
		end, farewell = "server closing", goodbye(lang, lineClosed, o, guest)
	case in.lost.Load() || sess.Context().Err() != nil:
		end = "disconnected"
	case runErr != nil:
		end = "error"
		logger.Error("the game stopped", "err", text.Printable(runErr.Error()))
	default:
		end, farewell = "quit", goodbye(lang, lineBye, o, guest)
	}
	// The session is closed (the units shown recorded) before the player
	// is told anything: a client that reads no more holds nothing then.
	if err := m.Close(); err != nil {
		logger.Error("closing the session", "err", text.Printable(err.Error()))
	}
	if farewell != "" {
		s.tell(sess, farewell)
	}
	// Closing waits for a purchase still under way: the session's totals
	// count it, bought and never shown, where the game ended before it.
	t := m.Session().Totals()
	logger.Info("played", "guest", guest, "lang", string(lang), "for", time.Since(start).Round(time.Second),
		"units", t.Played, "staked", t.Staked.StringFixed(2), "won", o.Won.StringFixed(2),
		"pending", o.Pending+t.Played-o.Units, "end", end)
	// The exit status goes out before the account is released: a server
	// closing closes the connections once every account is.
	sess.Exit(0) //nolint:errcheck // a player gone hears nothing
}

// reason names a refusal in the log.
func (l line) reason() string {
	switch l {
	case lineCommand:
		return "command"
	case lineNoTerminal:
		return "no terminal"
	case lineFull:
		return "full"
	case lineBoardsFull:
		return "boards full"
	case lineElsewhere:
		return "playing elsewhere"
	case lineClosing:
		return "closing"
	}
	return "account not opened"
}

// getenv reads a session's environment as os.Getenv reads the process's.
func getenv(env []string) func(string) string {
	return func(key string) string {
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok && k == key {
				return v
			}
		}
		return ""
	}
}

// howToPlay is the command line that plays on this server.
func howToPlay(local net.Addr) string {
	host, port, err := net.SplitHostPort(local.String())
	if err != nil {
		return "ssh -t HOST"
	}
	return "ssh -t -p " + port + " " + host
}

// addr writes a network address for the log.
func addr(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}

// idleInput is a session's input, that quits its program once no input
// came for d (never when d is 0), or once the input is gone: the client
// closed the session (its connection may stay open, multiplexed).
type idleInput struct {
	r     io.Reader
	d     time.Duration
	timer *time.Timer
	idled atomic.Bool
	lost  atomic.Bool // the input ended: the player is gone
	prog  *tea.Program
}

// watch starts the count, for prog.
func (in *idleInput) watch(prog *tea.Program) {
	in.prog = prog
	if in.d > 0 {
		in.timer = time.AfterFunc(in.d, func() {
			in.idled.Store(true)
			prog.Quit()
		})
	}
}

// Read reads the session, and starts the count again on any input.
func (in *idleInput) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	if n > 0 && in.timer != nil && !in.idled.Load() {
		in.timer.Reset(in.d)
	}
	if err != nil && !in.lost.Swap(true) {
		in.prog.Quit()
	}
	return n, err
}

// stop stops the count, and reports whether the input was idle too long.
func (in *idleInput) stop() bool {
	if in.timer != nil {
		in.timer.Stop()
	}
	return in.idled.Load()
}
