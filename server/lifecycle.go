package server

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/bubbletea"

	"tapis/ui"
)

// sessionKind is what one kind of session, a player's game (player) or a
// board (viewer), gives the lifecycle every session goes through: its
// place, its model, how it ends and its line in the log. The rest, from
// the gate to the exit status, is the lifecycle's.
type sessionKind interface {
	// claim takes the session's place, an account or a board's, and
	// returns what gives it back; or the refusal when there is none.
	claim() (release func(), refused *refusal)
	// open builds the session's model, or says why it cannot.
	open() (tea.Model, *refusal)
	// watch ends prog as the server's shutdown says, until over is closed.
	watch(prog *tea.Program, over <-chan struct{})
	// end names how the session ended, for the log, and what its client
	// is told ("" nothing), once its program is over.
	end(o outcome) (reason, farewell string)
	// close closes the model, before the client is told anything.
	close()
	// logEnd writes the session's line in the log, d after it began.
	logEnd(reason string, d time.Duration)
	// name is the kind's, in the log and the metrics: game or board.
	name() string
}

// refusal is why a session is let in to no program: one line on its
// standard error, its exit status 1, and the log says why (with attrs).
type refusal struct {
	line  line
	args  []any // the line's
	attrs []any // the log line's, past the session's own
}

// refuse returns a refusal telling l with args.
func refuse(l line, args ...any) *refusal { return &refusal{line: l, args: args} }

// outcome is how a session's program ended, as the lifecycle sees it.
type outcome struct {
	idled        bool  // no input came for the idle timeout
	disconnected bool  // the input ended (the client closed the session), or the connection
	err          error // the program stopped by itself: errStopped
}

// errStopped is Run's error for a program that ended neither asked to
// quit (by its model, its idle timeout, its input's end or the server)
// nor by its connection: Bubble Tea killed it on a panic it caught, in
// the model or one of its commands (its stack on the server's standard
// error). Wish's middleware runs the program and logs Run's error only on
// the process's default logger; a program started by (*Server).program
// has no other way to end (no context, no signals, no terminal of its
// own), so a quit its filter never saw is this error, as Run words it
// (but for a panic in the last frame, drawn after a quit: a quit then).
var errStopped = fmt.Errorf("%w: %w", tea.ErrProgramKilled, tea.ErrProgramPanic)

// kindPicker picks a session's kind, or refuses it; it sets the
// lifecycle's logger, which names what the session claims.
type kindPicker func(l *lifecycle, sess ssh.Session) (sessionKind, *refusal)

// lifecycle is one SSH session's way through the server, a game's or a
// board's: its place claimed, the gate's count taken, its model and
// program built (begin, wish's ProgramHandler), the program run by wish's
// middleware, then how it ended told and logged, its exit status sent
// (finish, the handler after it) and its place given back (leave).
type lifecycle struct {
	s      *Server
	start  time.Time
	lang   ui.Lang
	env    []string // the session's environment, TERM the PTY's
	logger *log.Logger
	kind   sessionKind

	refused *refusal     // begin refused the session: finish tells it
	prog    *tea.Program // begin's program, run by wish's middleware
	frames  *paced       // prog's model, drawing its frames
	over    chan struct{}
	stopped bool // over closed, the idle count stopped
	in      *idleInput
	quit    atomic.Bool     // prog was asked to quit (its filter saw it)
	changes chan ssh.Window // the window changes wish's middleware hands prog
	leaving []func()        // what leave gives back, last first
	closed  sync.Once       // the kind's model closed, by finish or, after a panic, by leave
}

// handle is every SSH session's handler (under wish's panic recovery).
func (s *Server) handle(sess ssh.Session) {
	if isOperatorCommand(sess.Command()) { // the stand's: no program, an answer and an exit status
		s.operate(sess)
		return
	}
	s.serve(sess, s.kindOf)
}

// serve takes sess through its lifecycle, of the kind kindOf picks. The
// program runs in wish's bubbletea middleware, on a session whose window
// changes are ours (windowed): at most one every windowEvery, the latest,
// clamped. Whatever was claimed is given back on every way out, a
// panic's too (recovered around serve, in the session's goroutine as
// begin, the program's Run and finish are).
func (s *Server) serve(sess ssh.Session, kindOf kindPicker) {
	l := &lifecycle{s: s, changes: make(chan ssh.Window)}
	defer l.leave()
	begin := func(sess ssh.Session) *tea.Program { return l.begin(sess, kindOf) }
	bubbletea.MiddlewareWithProgramHandler(begin)(l.finish)(windowed{sess, l.changes})
}

// begin is the session's ProgramHandler: it lets the session in and
// returns its program, or returns nil for finish to tell why not (or
// nothing, the connection closing already).
func (l *lifecycle) begin(sess ssh.Session, kindOf kindPicker) *tea.Program {
	l.start = time.Now()
	l.env = sess.Environ()
	if pty, _, terminal := sess.Pty(); terminal {
		l.env = append(l.env, "TERM="+pty.Term)
	}
	l.lang = ui.LangFromEnv(getenv(l.env))
	l.logger = l.s.log
	kind, r := kindOf(l, sess)
	if r != nil {
		l.refused = r
		return nil
	}
	l.kind = kind
	l.logger.Info("connected", "kind", kind.name(), "lang", string(l.lang))
	l.s.metrics.sessions.WithLabelValues(kind.name()).Inc()
	release, r := kind.claim()
	if r != nil {
		l.refused = r
		return nil
	}
	l.leaving = append(l.leaving, release)
	if c := gatedOf(sess.Context()); c != nil {
		if !c.begin() { // closing already: the grace ran out
			return nil
		}
		l.leaving = append(l.leaving, c.end)
	}
	m, r := kind.open()
	if r != nil {
		l.refused = r
		return nil
	}
	// Closed on every way out, a panic's too, before the place is given
	// back: a player's session holds its account until it is closed.
	l.leaving = append(l.leaving, l.close)
	over := make(chan struct{}) // closed once the program is over
	guard := newInputGuard(sess, over)
	guard.onDrop = l.s.metrics.dropped.Inc
	l.in = &idleInput{r: guard, d: l.s.o.IdleTimeout}
	l.over = over // with in: stop stops both
	l.prog, l.frames = l.s.program(sess, m, l.in, &l.quit)
	l.leaving = append(l.leaving, l.frames.scr.close) // a panic's way out too
	l.in.watch(l.prog)
	kind.watch(l.prog, l.over)
	if w := windowsOf(sess); w != nil {
		go w.forward(l.over, l.changes)
	}
	return l.prog
}

// finish is the handler after wish's middleware: it tells a session
// refused why, or ends one whose program is over: how it ended, its
// model closed, its client told, its line logged, its exit status sent.
func (l *lifecycle) finish(sess ssh.Session) {
	switch {
	case l.refused != nil:
		r := l.refused
		l.s.tell(sess, r.line.say(l.lang, r.args...))
		sess.Exit(1) //nolint:errcheck // a client gone hears nothing
		l.logger.With(r.attrs...).Info("refused", "why", r.line.reason())
		return
	case l.prog == nil: // closing already: nothing to say
		return
	}
	// The terminal is given back first, as Bubble Tea's renderer gave it
	// back as its program ended: the last frame drawn after a quit.
	l.frames.end(l.quit.Load())
	o := outcome{idled: l.stop()}
	o.disconnected = l.in.lost.Load() || sess.Context().Err() != nil
	if !l.quit.Load() {
		o.err = errStopped
	}
	reason, farewell := l.kind.end(o)
	// The session is closed (a player's units shown recorded) before the
	// client is told anything: a client that reads no more holds nothing
	// then.
	l.close()
	if farewell != "" {
		l.s.tell(sess, farewell)
	}
	l.kind.logEnd(reason, time.Since(l.start).Round(time.Second))
	// The exit status goes out before the place is released (leave): a
	// server closing closes the connections once every session is over,
	// and the client would see none.
	sess.Exit(0) //nolint:errcheck // a client gone hears nothing
}

// close closes the kind's model, once.
func (l *lifecycle) close() { l.closed.Do(l.kind.close) }

// stop closes over, once, and stops the idle count: it reports whether
// the input was idle too long.
func (l *lifecycle) stop() (idled bool) {
	if l.over == nil || l.stopped {
		return false
	}
	l.stopped = true
	close(l.over)
	return l.in.stop()
}

// leave gives back what the session claimed, last first; the program's
// watchers end, if finish did not get to it (a panic).
func (l *lifecycle) leave() {
	l.stop()
	for i := len(l.leaving) - 1; i >= 0; i-- {
		l.leaving[i]()
	}
}
