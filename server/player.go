package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
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

// kindOf picks a session's kind: a player's game, or a board when its
// command asks for one; it refuses a command, a session without a
// terminal, and a player with no account (cannot happen).
func (s *Server) kindOf(l *lifecycle, sess ssh.Session) (sessionKind, *refusal) {
	_, _, terminal := sess.Pty()
	account, guest := accountOf(sess)
	watch := isBoard(sess.Command())
	from := addr(sess.RemoteAddr())
	if watch { // a board claims no account: its lines name none
		l.logger = s.log.With("from", from)
	} else {
		l.logger = s.log.With("account", account, "from", from)
	}
	switch {
	case len(sess.Command()) > 0 && !watch:
		return nil, refuse(lineCommand, howToPlay(sess.LocalAddr()), howToPlay(sess.LocalAddr()))
	case !terminal && watch:
		return nil, refuse(lineNoTerminal, howToPlay(sess.LocalAddr())+" "+boardCommand)
	case !terminal:
		return nil, refuse(lineNoTerminal, howToPlay(sess.LocalAddr()))
	case watch: // a board is no player: with a key or without, it claims no account
		return &viewer{lifecycle: l}, nil
	case account == "": // no key and no keyboard-interactive: cannot happen
		return nil, refuse(lineUnavailable)
	}
	return &player{lifecycle: l, account: account, guest: guest, keepWith: withKey(sess.LocalAddr())}, nil
}

// player is a player's session: their game, until they quit, the
// connection drops, they stay idle too long or the server closes.
type player struct {
	*lifecycle
	account      string
	guest        bool
	keepWith     string // the command that plays with a key, for a guest
	m            *ui.Model
	quitByServer func() bool // the server's shutdown quit the game
	outcome      ui.Outcome  // the game's, once it is over
	prog         *tea.Program
	clock        *ui.TimerClock // the game's waits, sent to prog once it runs
	kicked       atomic.Bool    // an operator ended the game (ssh HOST kick)
}

// name is "game".
func (p *player) name() string { return "game" }

// kick ends the player's game, as an operator asked.
func (p *player) kick() {
	p.kicked.Store(true)
	p.prog.Quit()
}

// playersNow returns the games running now, the longest-playing first.
func (s *Server) playersNow() []*player {
	s.mu.Lock()
	ps := make([]*player, 0, len(s.players))
	for _, p := range s.players {
		ps = append(ps, p)
	}
	s.mu.Unlock()
	slices.SortFunc(ps, func(a, b *player) int { return a.start.Compare(b.start) })
	return ps
}

// claim takes the player's account.
func (p *player) claim() (func(), *refusal) {
	if l, ok := p.s.claim(p.account); !ok {
		if l == lineFull {
			return nil, refuse(l, p.s.o.MaxSessions)
		}
		return nil, refuse(l)
	}
	return func() { p.s.release(p.account) }, nil
}

// open opens the player's game on their account.
func (p *player) open() (tea.Model, *refusal) {
	sess, err := session.OpenOn(p.s.seller, p.account, session.Options{Balance: p.s.o.Balance, QA: p.s.o.QA,
		Guest: p.guest, Limit: ui.HistoryLimit})
	if err == nil {
		defer func() {
			if p.m == nil { // the game did not open (a panic): its session lets the account go
				sess.Close()
			}
		}()
	}
	var inUse *store.InUseError
	switch {
	case errors.As(err, &inUse): // another server's, or a game's or a simulate's
		r := refuse(lineElsewhere)
		r.attrs = []any{"held_by", fmt.Sprintf("pid %d on %s", inUse.PID, text.Printable(inUse.Host))}
		return nil, r
	case err != nil:
		p.logger.Error("account not opened", "err", text.Printable(err.Error()))
		return nil, refuse(lineUnavailable)
	}
	p.clock = ui.NewTimerClock()
	o := ui.Options{Lang: p.lang, Balance: p.s.o.Balance, Start: ui.MenuScreen, QA: p.s.o.QA,
		Profile: colorprofile.Env(p.env), RealityCheck: p.s.o.RealityCheck, Remote: true, Clock: p.clock,
		DrawsSeconds: true} // the screen moves the header's time on (secondHand)
	if p.guest {
		o.Guest = p.keepWith
	}
	m := ui.New(sess, o)
	p.m = m
	return m, nil
}

// watch tells the game when the server starts closing, and quits it when
// the server ends the games.
func (p *player) watch(prog *tea.Program, over <-chan struct{}) {
	p.quitByServer = p.s.end.watch(prog, over)
	p.prog = prog
	p.clock.Start(prog.Send)
	p.s.stand.follow(prog, over, playerStand)
	p.s.mu.Lock()
	p.s.players[p.account] = p
	p.s.mu.Unlock()
	go func() {
		<-over
		p.s.mu.Lock()
		if p.s.players[p.account] == p {
			delete(p.s.players, p.account)
		}
		p.s.mu.Unlock()
	}()
}

// end names how the game ended, and the player's farewell.
func (p *player) end(o outcome) (reason, farewell string) {
	p.outcome = p.m.Outcome()
	switch {
	case p.kicked.Load():
		return "kicked", goodbye(p.lang, lineKicked, p.outcome, p.guest)
	case o.idled:
		return "idle", lineIdle.say(p.lang, minutes(p.s.o.IdleTimeout))
	case (p.m.EndedByClosing() || p.quitByServer()) && p.s.end.tampered:
		return "sales stopped", goodbye(p.lang, lineStoppedBye, p.outcome, p.guest)
	case p.m.EndedByClosing() || p.quitByServer():
		return "server closing", goodbye(p.lang, lineClosed, p.outcome, p.guest)
	case o.disconnected:
		return "disconnected", ""
	case o.err != nil:
		p.logger.Error("the game stopped", "err", text.Printable(o.err.Error()))
		return "error", ""
	}
	return "quit", goodbye(p.lang, lineBye, p.outcome, p.guest)
}

// close closes the game's session: the units shown are recorded.
func (p *player) close() {
	if err := p.m.Close(); err != nil {
		p.logger.Error("closing the session", "err", text.Printable(err.Error()))
	}
}

// logEnd logs what the player played.
func (p *player) logEnd(reason string, d time.Duration) {
	// Closing waits for a purchase still under way: the session's totals
	// count it, bought and never shown, where the game ended before it.
	t, o := p.m.Session().Totals(), p.outcome
	p.logger.Info("played", "guest", p.guest, "lang", string(p.lang), "for", d,
		"units", t.Played, "staked", t.Staked.StringFixed(2), "won", o.Won.StringFixed(2),
		"pending", o.Pending+t.Played-o.Bought, "end", reason)
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

// withKey is the command line that plays on this server with a key of
// one's own, an account kept from one visit to the next.
func withKey(local net.Addr) string {
	return strings.Replace(howToPlay(local), "ssh ", "ssh -i KEY ", 1)
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
