// Package sshattack attacks tapis serve as a hostile client in the room
// would (issue 19): with or without a key, it sends what makes a server
// hold memory, descriptors or player slots, and a probe checks that a real
// player still gets in and buys. Every attack is bounded in count and in
// time, and goes to loopback addresses only. The hostile tests of package
// server and the sshattack command run them.
package sshattack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"tapis/internal/sshload"
)

// Target is a server to attack, and the address the attack comes from.
type Target struct {
	Addr string // host:port, on loopback
	From net.IP // the attacker's loopback address (127.0.0.2…); nil for the system's choice
	// Hold is how long an attack holds what it opened (10 s when zero).
	Hold time.Duration
	// For bounds how long an attack sends (60 s when zero): a server that
	// reads slowly is not written to for ever.
	For time.Duration
}

// Attack is one way of attacking: N is its size (connections, sessions or
// bytes, as Unit says), Default the size issue 19 names.
type Attack struct {
	Name    string
	Unit    string
	Default int64
	Brief   string
	run     func(ctx context.Context, t Target, n int64) (Result, error)
}

// Result is what an attack did.
type Result struct {
	Sent   int64 // bytes, requests or connections sent
	Opened int   // connections or sessions the server took
	Held   int   // of them, still open when the attack let go
}

func (r Result) String() string {
	return fmt.Sprintf("sent %d, opened %d, still open at the end %d", r.Sent, r.Opened, r.Held)
}

// Attacks are the attacks issue 19 names, and the input the server's
// reader would keep.
var Attacks = []Attack{
	{"pty", "sessions", 8, "guests asking a PTY of 100000×100000, then a window change to 65535×65535", ptyAttack},
	{"paste", "bytes", 400 << 20, "a guest opening a bracketed paste and never closing it", pasteAttack},
	{"input", "bytes", 100 << 20, "a guest streaming what the input reader would keep or act on: an unterminated OSC, an invalid byte, alt+x, endless parameters, a window size report, Win32 keys repeated", inputAttack},
	{"env", "bytes", 640 << 20, "env requests of 32 KiB each, on one session", envAttack},
	{"logins", "connections", 1000, "connections that log in as guests and open nothing", loginsAttack},
	{"boards", "sessions", 20, "boards that never send a key", boardsAttack},
	{"channels", "channels", 5000, "session channels opened on one connection", channelsAttack},
	{"halfopen", "connections", 20_000, "TCP connections that never finish the SSH handshake", halfOpenAttack},
	{"windows", "requests", 1_000_000, "window changes flooding one session", windowsAttack},
	{"globals", "requests", 100_000, "global requests asking for a reply", globalsAttack},
	{"churn", "sessions", 3000, "guests that come, see the menu, quit with keys after the quit, and leave, four at a time", churnAttack},
	{"stalled", "sessions", 10, "guests that stop reading their output (their TCP connection full) while playing Auto", stalledAttack},
}

// Find returns the attack of that name.
func Find(name string) (Attack, bool) {
	for _, a := range Attacks {
		if a.Name == name {
			return a, true
		}
	}
	return Attack{}, false
}

// maxSize bounds an attack's size, whatever is asked.
const maxSize = 4 << 30

// Run runs the attack of size n (Default when 0) against t.
func (a Attack) Run(ctx context.Context, t Target, n int64) (Result, error) {
	if n == 0 {
		n = a.Default
	}
	if n < 1 || n > maxSize {
		return Result{}, fmt.Errorf("sshattack: %s of %d %s: want 1 to %d", a.Name, n, a.Unit, int64(maxSize))
	}
	if err := t.check(); err != nil {
		return Result{}, err
	}
	if t.Hold == 0 {
		t.Hold = 10 * time.Second
	}
	if t.For == 0 {
		t.For = time.Minute
	}
	// Sending stops after For; what is open is held for Hold after that.
	send, cancel := context.WithTimeout(ctx, t.For)
	defer cancel()
	return a.run(sending{send, ctx}, t, n)
}

// sending is the context of an attack: done once its sending time is
// over, and held, for hold, until the attack's own context is.
type sending struct {
	context.Context
	attack context.Context
}

// guest logs in as a guest on conn and opens a session of cols×rows
// running cmd (a shell when empty), its output read and dropped when read
// is set.
func (t Target) guest(conn net.Conn, cols, rows uint32, cmd string, read bool) (*gossh.Client, gossh.Channel, error) {
	c, err := t.login(conn, nil)
	if err != nil {
		return nil, nil, err
	}
	ch, err := session(c, cols, rows, cmd, read)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return c, ch, nil
}

// guestSession is guest on a new connection.
func (t Target) guestSession(ctx context.Context, cols, rows uint32, cmd string, read bool) (*gossh.Client, gossh.Channel, error) {
	conn, err := t.tcp(ctx)
	if err != nil {
		return nil, nil, err
	}
	return t.guest(conn, cols, rows, cmd, read)
}

// hold waits for the target's hold, or the attack's end.
func hold(ctx context.Context, t Target) {
	if s, ok := ctx.(sending); ok {
		ctx = s.attack
	}
	select {
	case <-ctx.Done():
	case <-time.After(t.Hold):
	}
}

// check refuses a target off loopback.
func (t Target) check() error {
	if err := sshload.CheckLoopback(t.Addr); err != nil {
		return fmt.Errorf("sshattack: %w", err)
	}
	if t.From != nil && !t.From.IsLoopback() {
		return fmt.Errorf("sshattack: %s is not a loopback address", t.From)
	}
	return nil
}

// tcp opens a TCP connection to the target, from its address, with a
// small receive buffer (a client that stops reading fills it at once).
func (t Target) tcp(ctx context.Context) (net.Conn, error) {
	d := net.Dialer{Timeout: 10 * time.Second, Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 16<<10) })
		return errors.Join(err, serr)
	}}
	if t.From != nil {
		d.LocalAddr = &net.TCPAddr{IP: t.From}
	}
	return d.DialContext(ctx, "tcp", t.Addr)
}

// dial logs in: with key, or as a guest when key is nil.
func (t Target) dial(ctx context.Context, key gossh.Signer) (*gossh.Client, error) {
	conn, err := t.tcp(ctx)
	if err != nil {
		return nil, err
	}
	return t.login(conn, key)
}

// login logs in on conn: with key, or as a guest when key is nil.
func (t Target) login(conn net.Conn, key gossh.Signer) (*gossh.Client, error) {
	auth := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
	if key != nil {
		auth = gossh.PublicKeys(key)
	}
	return sshload.LoginOn(conn, t.Addr, auth)
}

// ptyPayload is a pty-req's payload.
func ptyPayload(cols, rows uint32) []byte {
	return gossh.Marshal(struct {
		Term                         string
		Columns, Rows, Width, Height uint32
		Modes                        string
	}{"xterm-256color", cols, rows, 0, 0, ""})
}

// session opens a session channel with a PTY of cols×rows and starts its
// shell (or cmd); its output is read and dropped when read is set.
func session(c *gossh.Client, cols, rows uint32, cmd string, read bool) (gossh.Channel, error) {
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		return nil, err
	}
	go gossh.DiscardRequests(reqs)
	if ok, err := ch.SendRequest("pty-req", true, ptyPayload(cols, rows)); err != nil || !ok {
		ch.Close()
		return nil, fmt.Errorf("pty-req refused: %v", err)
	}
	if cmd == "" {
		_, err = ch.SendRequest("shell", true, nil)
	} else {
		_, err = ch.SendRequest("exec", true, gossh.Marshal(struct{ Command string }{cmd}))
	}
	if err != nil {
		ch.Close()
		return nil, err
	}
	if read {
		go io.Copy(io.Discard, ch)
		go io.Copy(io.Discard, ch.Stderr())
	}
	return ch, nil
}

// alive counts the clients whose connection is still open.
func alive(clients []*gossh.Client) int {
	n := 0
	for _, c := range clients {
		if _, _, err := c.SendRequest("keepalive@tapis", true, nil); err == nil {
			n++
		}
	}
	return n
}

// each runs f n times, at most par at once, and returns the clients f
// opened. Four at once is what tapis serve lets one address log in.
func each(ctx context.Context, n int64, par int, f func() (*gossh.Client, error)) ([]*gossh.Client, int64) {
	var (
		mu      sync.Mutex
		clients []*gossh.Client
		tried   atomic.Int64
		wg      sync.WaitGroup
		next    atomic.Int64
	)
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= n && ctx.Err() == nil {
				tried.Add(1)
				if c, err := f(); err == nil && c != nil {
					mu.Lock()
					clients = append(clients, c)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return clients, tried.Load()
}

// closeAll closes the clients.
func closeAll(clients []*gossh.Client) {
	for _, c := range clients {
		c.Close()
	}
}
