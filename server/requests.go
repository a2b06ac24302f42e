package server

import (
	"strings"
	"sync"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Bounds on what a session's requests may make the server hold: the
// renderer's buffers follow the PTY's size (a 1000×1000 terminal cost
// 350 MB), the library keeps every env request.
const (
	// maxCols and maxRows bound a PTY's size, the first and every change:
	// a larger terminal draws the game at this size.
	maxCols, maxRows = 400, 150
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

// agentRequest is the request a client sends to forward its agent.
const agentRequest = "auth-agent-req@openssh.com"

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
	w := &windows{ready: make(chan struct{}, 1)}
	ctx.SetValue(windowsKey{}, w) // one session channel a connection: the handler finds it there
	ssh.DefaultSessionHandler(srv, conn, guardedChannel{ch, w}, ctx)
}

// guardedChannel is a session channel whose requests are guarded.
type guardedChannel struct {
	gossh.NewChannel
	w *windows
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
		var g requestGuard
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
type requestGuard struct{ envs int }

// pass reports whether a session request goes on to the library, its
// payload bounded: a PTY's size clamped to maxCols×maxRows, env requests
// only for names the game reads, short commands; a window change is
// answered here and handed to the game through w, clamped. Everything
// else is refused: agent and X11 forwarding, subsystems, signals.
func (g *requestGuard) pass(r *gossh.Request, w *windows) bool {
	switch r.Type {
	case "pty-req":
		var p ptyRequest
		if gossh.Unmarshal(r.Payload, &p) != nil || len(p.Term) > maxTerm || !printable(p.Term) {
			return false
		}
		p.Columns, p.Rows = min(p.Columns, maxCols), min(p.Rows, maxRows)
		p.Width, p.Height = min(p.Width, 1<<16), min(p.Height, 1<<16)
		r.Payload = gossh.Marshal(p)
		return true
	case "window-change":
		var win windowChange
		ok := gossh.Unmarshal(r.Payload, &win) == nil
		if ok {
			w.set(ssh.Window{Width: int(min(win.Columns, maxCols)), Height: int(min(win.Rows, maxRows))})
		}
		r.Reply(ok, nil) //nolint:errcheck // the client is told, or gone
		return false
	case "env":
		var e struct{ Name, Value string }
		if g.envs >= maxEnvs || gossh.Unmarshal(r.Payload, &e) != nil || !envRead(e.Name) ||
			len(e.Value) > maxEnvValue || !printable(e.Value) {
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

// ptyRequest is a pty-req's payload (RFC 4254, 6.2).
type ptyRequest struct {
	Term                         string
	Columns, Rows, Width, Height uint32
	Modes                        string
}

// windowChange is a window-change's payload (RFC 4254, 6.7).
type windowChange struct{ Columns, Rows, Width, Height uint32 }

// printable reports whether s holds no control character.
func printable(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] == 0x7f {
			return false
		}
	}
	return true
}

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

// get returns the latest size.
func (w *windows) get() ssh.Window {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.latest
}
