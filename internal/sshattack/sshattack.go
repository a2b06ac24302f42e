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
	"strings"
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

func ptyAttack(ctx context.Context, t Target, n int64) (Result, error) {
	clients, tried := each(ctx, n, 4, func() (*gossh.Client, error) {
		c, ch, err := t.guestSession(ctx, 100_000, 100_000, "", true)
		if err != nil {
			return nil, err
		}
		ch.SendRequest("window-change", false, gossh.Marshal(struct{ Columns, Rows, Width, Height uint32 }{65535, 65535, 0, 0}))
		return c, nil
	})
	defer closeAll(clients)
	hold(ctx, t)
	return Result{Sent: tried, Opened: len(clients), Held: alive(clients)}, nil
}

// stream opens a guest's session and writes head, then fill repeated to
// n bytes in all, as fast as the server reads.
func stream(ctx context.Context, t Target, n int64, head string, fills ...string) (Result, error) {
	c, ch, err := t.guestSession(ctx, 80, 24, "", true)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	var sent int64
	w := func(s string) bool {
		k, err := io.WriteString(ch, s)
		sent += int64(k)
		return err == nil
	}
	// Each fill is 32 KiB of one pattern, written in turn.
	var blocks []string
	for _, f := range fills {
		blocks = append(blocks, strings.Repeat(f, (32<<10)/len(f)))
	}
	ok := w(head)
	for i := 0; ok && sent < n; i++ {
		b := blocks[i%len(blocks)]
		ok = w(b[:min(int64(len(b)), n-sent)])
	}
	hold(ctx, t)
	return Result{Sent: sent, Opened: 1, Held: alive([]*gossh.Client{c})}, nil
}

func pasteAttack(ctx context.Context, t Target, n int64) (Result, error) {
	return stream(ctx, t, n, "\x1b[200~", "pasted ")
}

func inputAttack(ctx context.Context, t Target, n int64) (Result, error) {
	return stream(ctx, t, n, "", "\x1b]0;"+strings.Repeat("a", 4000), "\xff"+strings.Repeat("b", 4000),
		"\x1bx"+strings.Repeat("c", 4000), "\x1b["+strings.Repeat(";", 4000), strings.Repeat("\x1b", 4000),
		"\x1b[8;1024;1024t", "\x1b[124;0;0;1;0;65535_", "\x1b\x80[200~"+strings.Repeat("d", 4000))
}

func envAttack(ctx context.Context, t Target, n int64) (Result, error) {
	c, err := t.dial(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })() // a write the server does not read ends with the sending
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		return Result{}, err
	}
	go gossh.DiscardRequests(reqs)
	value := strings.Repeat("v", 32<<10)
	var sent int64
	for i := 0; sent < n && ctx.Err() == nil; i++ {
		name := "LANG"
		if i%2 == 1 {
			name = fmt.Sprintf("X_%d", i)
		}
		if _, err := ch.SendRequest("env", false, gossh.Marshal(struct{ Name, Value string }{name, value})); err != nil {
			break
		}
		sent += int64(len(value))
	}
	ch.SendRequest("pty-req", true, ptyPayload(80, 24))
	ch.SendRequest("shell", true, nil)
	go io.Copy(io.Discard, ch)
	hold(ctx, t)
	return Result{Sent: sent, Opened: 1, Held: alive([]*gossh.Client{c})}, nil
}

func loginsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	clients, tried := each(ctx, n, 4, func() (*gossh.Client, error) { return t.dial(ctx, nil) })
	defer closeAll(clients)
	hold(ctx, t)
	return Result{Sent: tried, Opened: len(clients), Held: alive(clients)}, nil
}

func boardsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	clients, tried := each(ctx, n, 4, func() (*gossh.Client, error) {
		c, _, err := t.guestSession(ctx, 80, 24, "board", true)
		return c, err
	})
	defer closeAll(clients)
	hold(ctx, t)
	return Result{Sent: tried, Opened: len(clients), Held: alive(clients)}, nil
}

func channelsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	c, err := t.dial(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	opened := 0
	var sent int64
	for ; sent < n && ctx.Err() == nil; sent++ {
		ch, reqs, err := c.OpenChannel("session", nil)
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			opened++
			go gossh.DiscardRequests(reqs)
			defer ch.Close()
		}
	}
	hold(ctx, t)
	return Result{Sent: sent, Opened: opened, Held: alive([]*gossh.Client{c})}, nil
}

func halfOpenAttack(ctx context.Context, t Target, n int64) (Result, error) {
	var (
		mu     sync.Mutex
		conns  []net.Conn
		next   atomic.Int64
		opened atomic.Int64
		open   atomic.Int64 // held now: not closed by the server yet
		wg     sync.WaitGroup
	)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= n && ctx.Err() == nil {
				c, err := t.tcp(ctx)
				if err != nil {
					continue
				}
				opened.Add(1)
				open.Add(1)
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
				// Read until the server closes it, then let it go: the
				// attacker's own descriptors stay bounded.
				go func() {
					io.Copy(io.Discard, c)
					open.Add(-1)
					c.Close()
				}()
			}
		}()
	}
	wg.Wait()
	hold(ctx, t)
	held := int(open.Load())
	mu.Lock()
	for _, c := range conns {
		c.Close()
	}
	mu.Unlock()
	return Result{Sent: n, Opened: int(opened.Load()), Held: held}, nil
}

func windowsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	c, ch, err := t.guestSession(ctx, 80, 24, "", true)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	var sent int64
	for ; sent < n && ctx.Err() == nil; sent++ {
		size := uint32(20 + sent%300)
		if _, err := ch.SendRequest("window-change", false, gossh.Marshal(struct{ Columns, Rows, Width, Height uint32 }{size, size / 3, 0, 0})); err != nil {
			break
		}
	}
	hold(ctx, t)
	return Result{Sent: sent, Opened: 1, Held: alive([]*gossh.Client{c})}, nil
}

func globalsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	c, err := t.dial(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	var sent atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sent.Add(1) <= n && ctx.Err() == nil {
				if _, _, err := c.SendRequest("tcpip-forward", true, gossh.Marshal(struct {
					Addr string
					Port uint32
				}{"0.0.0.0", 0})); err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	hold(ctx, t)
	return Result{Sent: min(sent.Load(), n), Opened: 1, Held: alive([]*gossh.Client{c})}, nil
}

func stalledAttack(ctx context.Context, t Target, n int64) (Result, error) {
	var frozen []*freezer
	var mu sync.Mutex
	clients, tried := each(ctx, n, 4, func() (*gossh.Client, error) {
		conn, err := t.tcp(ctx)
		if err != nil {
			return nil, err
		}
		f := &freezer{Conn: conn, thaw: make(chan struct{})}
		c, ch, err := t.guest(f, 300, 100, "", true)
		if err != nil {
			return nil, err
		}
		// The client reads no more: the server's writes fill the TCP
		// buffers; Yam's, Auto after Auto, keeps it writing.
		f.freeze()
		mu.Lock()
		frozen = append(frozen, f)
		mu.Unlock()
		go func() {
			io.WriteString(ch, "1")
			for ctx.Err() == nil {
				if _, err := io.WriteString(ch, "a"); err != nil {
					return
				}
				time.Sleep(200 * time.Millisecond)
			}
		}()
		return c, nil
	})
	defer closeAll(clients)
	hold(ctx, t)
	for _, f := range frozen {
		f.unfreeze()
	}
	return Result{Sent: tried, Opened: len(clients), Held: alive(clients)}, nil
}

// freezer is a connection whose reads stop once frozen, until thawed: a
// client that stops reading what the server sends.
type freezer struct {
	net.Conn
	frozen atomic.Bool
	thaw   chan struct{}
	once   sync.Once
}

func (f *freezer) Read(p []byte) (int, error) {
	if f.frozen.Load() {
		<-f.thaw
	}
	return f.Conn.Read(p)
}

func (f *freezer) freeze()   { f.frozen.Store(true) }
func (f *freezer) unfreeze() { f.once.Do(func() { close(f.thaw) }) }

func churnAttack(ctx context.Context, t Target, n int64) (Result, error) {
	var opened atomic.Int64
	_, tried := each(ctx, n, 4, func() (*gossh.Client, error) {
		c, ch, err := t.guestSession(ctx, 80, 24, "", false)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		// The first frame, then q and keys after it in one write (Bubble
		// Tea's reader held the whole program of such a session), then
		// gone; or gone after 10 s without a frame.
		stop := time.AfterFunc(10*time.Second, func() { c.Close() })
		defer stop.Stop()
		if _, err := ch.Read(make([]byte, 1024)); err == nil {
			opened.Add(1)
			io.WriteString(ch, "q"+strings.Repeat("j", 4000))
			time.Sleep(200 * time.Millisecond)
		}
		return nil, nil
	})
	hold(ctx, t)
	return Result{Sent: tried, Opened: int(opened.Load())}, nil
}
