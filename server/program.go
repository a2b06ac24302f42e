package server

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// DefaultWriteStall is how long a write to a session may wait before its
// connection is closed: a client that stops reading (its SSH window full)
// would hold its game, its slot and its frames forever, whatever its idle
// timeout says.
const DefaultWriteStall = 30 * time.Second

// program returns the program of a session, a game's or a board's: its
// input is in (guarded and timed by the caller), read by feed, its output
// the session's (guarded against a stall), sized from the session's PTY;
// quit is set once it is asked to quit. The server's signals are the
// server's: each program ends when the server's shutdown says so. It is
// run by wish's bubbletea middleware, which quits it as soon as the
// connection drops (a program given the session's context would be
// killed then, and wish would log Run's error on the process's default
// logger at every connection lost).
func (s *Server) program(sess ssh.Session, m tea.Model, in io.Reader, quit *atomic.Bool) (*tea.Program, *paced) {
	out := newStallWriter(sess, s.o.WriteStall, func() { closeConnection(sess) })
	w := windowsOf(sess)
	sized := closedChan
	if w != nil {
		sized = w.sized
	}
	// The filter replaces MakeOptions' (a suspend resumed at once), as
	// windows' does.
	filter := func(m tea.Model, msg tea.Msg) tea.Msg {
		if w != nil {
			msg = w.filter(m, msg)
		} else if _, ok := msg.(tea.SuspendMsg); ok {
			msg = tea.ResumeMsg{}
		}
		if _, ok := msg.(tea.QuitMsg); ok {
			quit.Store(true)
		}
		return msg
	}
	pty, _, _ := sess.Pty()
	env := append(sess.Environ(), "TERM="+pty.Term)
	profile := colorprofile.Env(env)
	width, height := pty.Window.Width, pty.Window.Height
	if width <= 0 || height <= 0 {
		width, height = noSizeWidth, noSizeHeight
	}
	scr := newScreen(out, width, height, profile, s.styles, s.metrics.frames.Inc, s.hand)
	// Bubble Tea's renderer is replaced by the screen (its ticker, which
	// would wake every session 60 times a second for nothing, slowed to
	// once a second: it flushes only the queries the program asks for,
	// and a session has no input of Bubble Tea's to read their answers).
	opts := append(bubbletea.MakeOptions(sess), tea.WithInput(nil), tea.WithOutput(out),
		tea.WithoutSignalHandler(), tea.WithFilter(filter), tea.WithoutRenderer(), tea.WithFPS(1),
		tea.WithColorProfile(profile))
	frames := newPaced(m, scr)
	prog := tea.NewProgram(frames, opts...)
	frames.prog = prog
	go feed(sess.Context(), sized, in, prog)
	return prog, frames
}

// The size a session is drawn at when its PTY has none (0×0: OpenSSH's
// -tt with no terminal of its own), Bubble Tea's own for such a PTY; the
// model is given it too (paced), or it would draw nothing.
const noSizeWidth, noSizeHeight = 80, 24

// closedChan is a channel closed already.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// feed reads a session's input (readEvents) and hands each event to prog.
// Bubble Tea's own reader hands them over a channel no one reads once the
// program has quit: a quit key followed by more keys in one read left
// that reader, and with it the whole program and its screen buffers,
// waiting for ever. prog.Send gives up once the program is over; feed
// ends with the input. It reads once the program has its size (sized
// closed), as Bubble Tea's reader starts after it: a key sent first would
// reach a game of no size.
func feed(ctx context.Context, sized <-chan struct{}, in io.Reader, prog *tea.Program) {
	select {
	case <-sized:
	case <-ctx.Done():
		return
	}
	readEvents(ctx, in, func(ev uv.Event) { prog.Send(ev) })
}

// tell writes a line on a session's standard error, guarded as its
// program's output is: a client that reads no more is closed.
func (s *Server) tell(sess ssh.Session, line string) {
	w := newStallWriter(sess.Stderr(), s.o.WriteStall, func() { closeConnection(sess) })
	io.WriteString(w, line+"\r\n") //nolint:errcheck // a player gone hears nothing
}

// closeConnection closes a session's connection: every write and read
// under way on it fails.
func closeConnection(sess ssh.Session) {
	if c := gatedOf(sess.Context()); c != nil {
		c.Close()
		return
	}
	sess.Close()
}

// windowed is a session whose PTY's window changes are the server's:
// wish's bubbletea middleware hands the program each one that comes on
// changes as a tea.WindowSizeMsg. The library's own channel has only the
// PTY's first size (the window-change requests stop at requestGuard),
// which Bubble Tea gives the program at its start already, and once the
// channel's requests end it is closed: the middleware would hand the
// program its zero value again and again.
type windowed struct {
	ssh.Session
	changes chan ssh.Window // fed by windows.forward; nothing without windows
}

// Pty returns the session's PTY, and the server's window changes.
func (w windowed) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	pty, _, ok := w.Session.Pty()
	return pty, w.changes, ok
}

// forward hands out on changes each window change of the session, the
// latest one at most every windowEvery, until over is closed.
func (w *windows) forward(over <-chan struct{}, changes chan<- ssh.Window) {
	for {
		select {
		case <-over:
			return
		case <-w.ready:
		}
		select {
		case <-over:
			return
		case changes <- w.get():
		}
		select { // the next at most windowEvery later
		case <-over:
			return
		case <-time.After(windowEvery):
		}
	}
}

// stallWriter is a writer that calls stalled once a write has waited d.
// Writes may come from several goroutines (Bubble Tea's renderer and its
// own): one at a time, so that their bytes never interleave.
type stallWriter struct {
	w     io.Writer
	d     time.Duration
	timer *time.Timer
	mu    sync.Mutex // held through a write
}

func newStallWriter(w io.Writer, d time.Duration, stalled func()) *stallWriter {
	t := time.AfterFunc(time.Hour, stalled)
	t.Stop()
	return &stallWriter{w: w, timer: t, d: d}
}

func (s *stallWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.timer.Reset(s.d)
	defer s.timer.Stop()
	return s.w.Write(p)
}
