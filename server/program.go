package server

import (
	"context"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/bubbletea"
	uv "github.com/charmbracelet/ultraviolet"
)

// DefaultWriteStall is how long a write to a session may wait before its
// connection is closed: a client that stops reading (its SSH window full)
// would hold its game, its slot and its frames forever, whatever its idle
// timeout says.
const DefaultWriteStall = 30 * time.Second

// program returns the program of a session, a game's or a board's: its
// input is in (guarded and timed by the caller), read by feed, its output
// the session's (guarded against a stall), sized from the session's PTY.
// A dropped connection ends it at once; the server's signals are the
// server's: each program ends when the server's shutdown says so.
func (s *Server) program(sess ssh.Session, m tea.Model, in io.Reader) *tea.Program {
	out := newStallWriter(sess, s.o.WriteStall, func() { closeConnection(sess) })
	opts := append(bubbletea.MakeOptions(sess), tea.WithInput(nil), tea.WithOutput(out),
		tea.WithContext(sess.Context()), tea.WithoutSignalHandler())
	sized := closedChan
	if w := windowsOf(sess); w != nil {
		opts = append(opts, tea.WithFilter(w.filter))
		sized = w.sized
	}
	prog := tea.NewProgram(m, opts...)
	pty, _, _ := sess.Pty()
	go feed(sess.Context(), sized, in, pty.Term, prog)
	return prog
}

// closedChan is a channel closed already.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// feed reads a session's input with the terminal reader Bubble Tea would
// run, and hands each event to prog. Bubble Tea's own hands them over a
// channel no one reads once the program has quit: a quit key followed by
// more keys in one read left that reader, and with it the whole program
// and its screen buffers, waiting for ever. prog.Send gives up once the
// program is over; feed ends with the input. It reads once the program
// has its size (sized closed), as Bubble Tea's reader starts after it: a
// key sent first would reach a game of no size.
func feed(ctx context.Context, sized <-chan struct{}, in io.Reader, term string, prog *tea.Program) {
	select {
	case <-sized:
	case <-ctx.Done():
		return
	}
	events := make(chan uv.Event)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for ev := range events {
			prog.Send(ev)
		}
	}()
	uv.NewTerminalReader(in, term).StreamEvents(ctx, events) //nolint:errcheck // the input's end is the session's
	close(events)
	<-sent
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

// run runs a program on its session until it ends: the PTY's size is
// given at start by bubbletea.MakeOptions, and each window change reaches
// it as a tea.WindowSizeMsg, the latest one at most every windowEvery.
func run(sess ssh.Session, prog *tea.Program) error {
	w := windowsOf(sess)
	over := make(chan struct{})
	defer close(over)
	if w != nil {
		go func() {
			for {
				select {
				case <-over:
					return
				case <-w.ready:
				}
				win := w.get()
				prog.Send(tea.WindowSizeMsg{Width: win.Width, Height: win.Height})
				select { // the next at most windowEvery later
				case <-over:
					return
				case <-time.After(windowEvery):
				}
			}
		}()
	}
	_, err := prog.Run()
	return err
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
