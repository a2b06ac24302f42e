package server

import (
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Bounds on what a session's requests may make the server hold: what a
// session draws follows the PTY's size (Bubble Tea's renderer held about
// 255 bytes a cell, 8.6 MB a session at 300×100, when these bounds were
// set; the server's screen now holds a line of text a row and the game its
// layers, far less, and the bounds are kept as they were), the library
// keeps every env request.
const (
	// maxCols and maxRows bound a PTY's size, the first and every change:
	// a larger terminal draws the game at this size (the game is laid out
	// up to 200×60).
	maxCols, maxRows = 300, 100
	// baseCols and baseRows are the size every terminal may draw at;
	// past it, up to maxCols×maxRows, a terminal draws at its size while
	// the server's budget of large screens lasts (largeScreens at the
	// bound, some 30 MB), at baseCols×baseRows beyond.
	baseCols, baseRows = 120, 40
	largeScreens       = 4
	// maxTerm bounds a PTY's terminal type.
	maxTerm = 64
	// maxEnvs bounds the env requests a session keeps, maxEnvValue each
	// value; only the names the game reads are kept (envRead).
	maxEnvs     = 16
	maxEnvValue = 256
	// maxCommand bounds an exec request's command.
	maxCommand = 256
	// windowEvery is how often, at most, a window change reaches the
	// game: a flood of them costs a frame each windowEvery.
	windowEvery = 50 * time.Millisecond
)

// envRead reports whether the game reads an environment variable of that
// name: the language (LANG, LC_*), the terminal type and colours.
func envRead(name string) bool {
	switch name {
	case "LANG", "TERM", "COLORTERM", "NO_COLOR":
		return true
	}
	rest, ok := strings.CutPrefix(name, "LC_")
	if !ok || rest == "" || len(rest) > 16 {
		return false
	}
	for _, c := range rest {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return true
}

// sessionChannel is the session channel handler: one session channel at
// a time on a connection (one game or one board), its requests guarded
// before the library sees them.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, ch gossh.NewChannel, ctx ssh.Context) {
	c := gatedOf(ctx)
	if c != nil && !c.openChannel() {
		ch.Reject(gossh.ResourceShortage, "one session at a time") //nolint:errcheck // the client is told, or gone
		return
	}
	if c != nil {
		defer c.closeChannel()
	}
	w := newWindows()
	ctx.SetValue(windowsKey{}, w) // one session channel a connection: the handler finds it there
	ssh.DefaultSessionHandler(srv, conn, guardedChannel{ch, w, s.screens}, ctx)
}

// guardedChannel is a session channel whose requests are guarded.
type guardedChannel struct {
	gossh.NewChannel
	w       *windows
	screens *screens
}

// Accept accepts the channel, and guards its requests.
func (c guardedChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		g := requestGuard{screens: c.screens}
		defer g.screens.release(&g.large)
		for r := range reqs {
			if g.pass(r, c.w) {
				out <- r
			} else if r.Type != "window-change" {
				r.Reply(false, nil) //nolint:errcheck // the client is told, or gone
			}
		}
	}()
	return ch, out, nil
}

// requestGuard is what a session's requests have asked so far.
type requestGuard struct {
	envs    int
	pty     bool     // a PTY was asked: the library refuses a second
	screens *screens // the server's budget of large screens; nil: none
	large   int      // the cells the session holds of it
}

// pass reports whether a session request goes on to the library, its
// payload bounded: a PTY's size clamped to maxCols×maxRows, env requests
// only for names the game reads, short commands; a window change is
// answered here and handed to the game through w, clamped. Everything
// else is refused: agent and X11 forwarding, subsystems, signals.
func (g *requestGuard) pass(r *gossh.Request, w *windows) bool {
	switch r.Type {
	case "pty-req":
		var p ptyRequest
		if g.pty || gossh.Unmarshal(r.Payload, &p) != nil || len(p.Term) > maxTerm || !keep(p.Term) {
			return false
		}
		g.pty = true
		win := g.size(p.Columns, p.Rows)
		w.first(win)
		p.Columns, p.Rows = uint32(win.Width), uint32(win.Height)
		p.Width, p.Height = min(p.Width, 1<<16), min(p.Height, 1<<16)
		r.Payload = gossh.Marshal(p)
		return true
	case "window-change":
		var win windowChange
		ok := gossh.Unmarshal(r.Payload, &win) == nil
		if ok {
			w.set(g.size(win.Columns, win.Rows))
		}
		r.Reply(ok, nil) //nolint:errcheck // the client is told, or gone
		return false
	case "env":
		var e struct{ Name, Value string }
		if g.envs >= maxEnvs || gossh.Unmarshal(r.Payload, &e) != nil || !envRead(e.Name) ||
			len(e.Value) > maxEnvValue || !keep(e.Value) {
			return false
		}
		g.envs++
		return true
	case "shell":
		return true
	case "exec":
		var e struct{ Command string }
		return gossh.Unmarshal(r.Payload, &e) == nil && len(e.Command) <= maxCommand
	}
	return false
}

// size is the size a terminal of cols×rows draws at: within
// maxCols×maxRows, and within the budget of large screens.
func (g *requestGuard) size(cols, rows uint32) ssh.Window {
	win := ssh.Window{Width: int(min(cols, maxCols)), Height: int(min(rows, maxRows))}
	return g.screens.fit(win, &g.large)
}

// screens is the server's budget of large screens, in cells past
// baseCols×baseRows (see the bounds above).
type screens struct {
	mu   sync.Mutex
	free int // cells past baseCols×baseRows still to give
}

func newScreens() *screens {
	return &screens{free: largeScreens * (maxCols*maxRows - baseCols*baseRows)}
}

// fit returns the size a window draws at, its session holding held cells
// of the budget: past baseCols×baseRows it takes what it needs, or draws
// at baseCols×baseRows at most when the budget cannot give it. A nil
// budget fits every window.
func (s *screens) fit(win ssh.Window, held *int) ssh.Window {
	if s == nil {
		return win
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	need := max(win.Width*win.Height-baseCols*baseRows, 0)
	s.free += *held
	*held = 0
	if need > s.free {
		win.Width, win.Height = min(win.Width, baseCols), min(win.Height, baseRows)
		need = 0
	}
	s.free -= need
	*held = need
	return win
}

// release gives back what a session held of the budget.
func (s *screens) release(held *int) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free += *held
	*held = 0
}

// ptyRequest is a pty-req's payload (RFC 4254, 6.2).
type ptyRequest struct {
	Term                         string
	Columns, Rows, Width, Height uint32
	Modes                        string
}

// windowChange is a window-change's payload (RFC 4254, 6.7).
type windowChange struct{ Columns, Rows, Width, Height uint32 }

// windowsKey keeps, in a connection's context, its session's windows.
type windowsKey struct{}

// windowsOf returns the windows of a session.
func windowsOf(sess ssh.Session) *windows {
	w, _ := sess.Context().Value(windowsKey{}).(*windows)
	return w
}

// windows carries a session's window changes to its game: the latest
// size alone, so a flood of changes holds nothing.
type windows struct {
	mu     sync.Mutex
	latest ssh.Window
	ready  chan struct{} // holds one when latest is new
	sized  chan struct{} // closed once the program had its first size
	once   sync.Once
}

func newWindows() *windows {
	return &windows{ready: make(chan struct{}, 1), sized: make(chan struct{})}
}

// set makes win the latest size.
func (w *windows) set(win ssh.Window) {
	w.mu.Lock()
	w.latest = win
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

// first makes win the first size, the PTY's, which the program is given
// at its start.
func (w *windows) first(win ssh.Window) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.latest = win
}

// filter is the session's program's filter: a window size reaches the
// game only as the session's own (the PTY's, bounded, or its changes),
// never from a report in its input; a suspend (ctrl+z) resumes at once, as wish's
// filter has it (a remote program cannot stop).
func (w *windows) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		// The first comes before any input is read (feed waits for it):
		// Bubble Tea's, from the PTY (80×24 for a PTY of no size).
		first := false
		w.once.Do(func() { first = true; close(w.sized) })
		if win := w.get(); !first && (msg.Width != win.Width || msg.Height != win.Height) {
			return nil
		}
	case tea.SuspendMsg:
		return tea.ResumeMsg{}
	}
	return msg
}

// get returns the latest size.
func (w *windows) get() ssh.Window {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.latest
}
