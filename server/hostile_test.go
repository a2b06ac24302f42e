package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/shopspring/decimal"
	gossh "golang.org/x/crypto/ssh"

	"tapis/internal/sshattack"
	"tapis/ledger"
	"tapis/store"
)

// childEnv carries, to a test binary run as a server of its own, that
// server's options (childOptions as JSON).
const childEnv = "TAPIS_HOSTILE_CHILD"

// childOptions are the options of a server in a process of its own.
type childOptions struct {
	Dir                                 string
	Store                               string // the store's URL; empty: a SQLite file in Dir
	IdleTimeout, LoginGrace, WriteStall time.Duration
	MaxPerAddress                       int
}

// TestHostileChild is no test: run by the hostile tests as a process of
// its own (childEnv set), it serves on 127.0.0.1:0, writes its address on
// its standard output, and serves until its standard input is closed.
func TestHostileChild(t *testing.T) {
	v := os.Getenv(childEnv)
	if v == "" {
		t.Skip("the hostile tests' server, run in a process of its own")
	}
	var o childOptions
	if err := json.Unmarshal([]byte(v), &o); err != nil {
		t.Fatal(err)
	}
	if o.Store == "" {
		o.Store = "sqlite:" + filepath.Join(o.Dir, "tapis.db")
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	st, err := store.Open(ctx, o.Store, store.Options{Key: ledger.PublicTestKey()})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key, _, err := HostKey(filepath.Join(o.Dir, "host_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = DefaultIdleTimeout // as tapis serve has them
	}
	srv, err := New(Options{Store: st, HostKey: key, Balance: decimal.NewFromInt(100), MaxPerAddress: o.MaxPerAddress,
		IdleTimeout: o.IdleTimeout, RealityCheck: DefaultRealityCheck, LoginGrace: o.LoginGrace, WriteStall: o.WriteStall,
		Log: log.New(os.Stderr)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(l.Addr())
	go srv.Serve(l)
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
}

// child is a server in a process of its own: its memory is its own,
// read from /proc.
type child struct {
	cmd  *exec.Cmd
	addr string
	dir  string
	log  *syncBuffer
}

// startChild starts a server in a process of its own.
func startChild(t *testing.T, o childOptions) *child {
	t.Helper()
	o.Dir = t.TempDir()
	env, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	c := &child{dir: o.Dir, log: &syncBuffer{}}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestHostileChild$", "-test.count=1")
	c.cmd.Env = append(os.Environ(), childEnv+"="+string(env), "GOGC=50")
	c.cmd.Stderr = c.log
	in, err := c.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { c.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(waitLimit):
			c.cmd.Process.Kill()
			<-done
			t.Errorf("the server did not stop; its log:\n%s", c.log.String())
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the server's address: %v; its log:\n%s", err, c.log.String())
	}
	c.addr = strings.TrimSpace(line)
	go io.Copy(io.Discard, out)
	return c
}

// memory returns the server's resident set and its peak, in bytes; reset
// sets the peak back to the resident set first.
func (c *child) memory(t *testing.T, reset bool) (rss, peak int64) {
	t.Helper()
	pid := c.cmd.Process.Pid
	if reset {
		if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
			t.Fatalf("resetting the server's peak memory: %v", err)
		}
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("the server's memory: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		name, value, _ := strings.Cut(l, ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		switch name {
		case "VmRSS":
			rss = kb << 10
		case "VmHWM":
			peak = kb << 10
		}
	}
	return rss, peak
}

// hostileBound is how much more memory an attack may make the server
// hold, at its peak and after, than before it (issue 19).
const hostileBound = 100 << 20

// playerLimit is how long a player may wait for the menu while the
// server is attacked (issue 19: a first frame within 5 s).
const playerLimit = 5 * time.Second

// TestHostileClients attacks a server, each attack on a server of its own
// in a process of its own: whatever a client sends, with a key or not,
// the server stays alive, holds at most hostileBound more memory at its
// peak and after, and a player with a key, from another address, sees the
// menu within playerLimit and buys a unit, during the attack and after
// it. The attacks are issue 19's, at sizes that keep the test short (the
// sshattack command runs them at the issue's: README, Serving over SSH);
// a client bound by an idle timeout, a grace or a stall is closed by it.
func TestHostileClients(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the hostile clients take a minute")
	}
	if raceEnabled {
		t.Skip("the race detector multiplies the memory and time these tests bound")
	}
	grace := 2 * time.Second
	for _, c := range []struct {
		attack string
		size   int64
		o      childOptions
		hold   time.Duration
		check  func(sshattack.Result) error
		send   time.Duration // how long the attack sends at most; 15 s when 0
	}{
		{"pty", 8, childOptions{}, 3 * time.Second, opened(8, 8), 0},
		{"paste", 128 << 20, childOptions{}, time.Second, sentAll(128 << 20), 0},
		// Read at inputRate: the attacker gives up after sending for 5 s.
		{"input", 16 << 20, childOptions{}, time.Second, nil, 5 * time.Second},
		{"env", 128 << 20, childOptions{}, time.Second, sentAll(128 << 20), 0},
		{"logins", 1000, childOptions{LoginGrace: grace}, 2 * grace, all(opened(1, DefaultMaxPerAddress), held(0)), 0},
		// The idle timeout past a unit's reveal (about 2 s), which the
		// player before the attack watches without a key.
		{"boards", 20, childOptions{IdleTimeout: 2 * grace, LoginGrace: grace}, 4 * grace, held(0), 0},
		{"channels", 5000, childOptions{}, time.Second, opened(1, 1), 0},
		{"halfopen", 20_000, childOptions{}, time.Second, held(perAddressLoggingIn), 0},
		{"windows", 200_000, childOptions{}, time.Second, nil, 0},
		// All read, however slowly: the login grace, which closes a
		// connection holding no game after 20 s, is put past the attack,
		// and the attack may send for 60 s (100 000 take some 14 s here,
		// and missed 15 s under a CI run beside other tests).
		{"globals", 100_000, childOptions{LoginGrace: 90 * time.Second}, time.Second, sentAll(100_000), time.Minute},
		{"churn", 150, childOptions{}, time.Second, opened(150, 150), 30 * time.Second},
		{"stalled", 10, childOptions{}, time.Second, nil, 0},
	} {
		t.Run(c.attack, func(t *testing.T) {
			// Each attack has a server process of its own, whose memory
			// alone is measured: two run at once (go test's -parallel).
			t.Parallel()
			o := c.o
			if o.MaxPerAddress == 0 {
				o.MaxPerAddress = DefaultMaxPerAddress
			}
			srv := startChild(t, o)
			a, ok := sshattack.Find(c.attack)
			if !ok {
				t.Fatalf("no attack %q", c.attack)
			}
			key := newKey(t)
			player := sshattack.Target{Addr: srv.addr, From: net.IPv4(127, 0, 0, 1)}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			// A player first, so that what the game holds once played is
			// in the memory before.
			if _, err := sshattack.Play(ctx, player, key, waitLimit); err != nil {
				t.Fatalf("a player before the attack: %v", err)
			}
			before, _ := srv.memory(t, true)
			type outcome struct {
				r   sshattack.Result
				err error
			}
			done := make(chan outcome, 1)
			send := c.send
			if send == 0 {
				send = 15 * time.Second
			}
			go func() {
				r, err := a.Run(ctx, sshattack.Target{Addr: srv.addr, From: net.IPv4(127, 0, 0, 2), Hold: c.hold, For: send}, c.size)
				done <- outcome{r, err}
			}()
			time.Sleep(500 * time.Millisecond)
			during, err := sshattack.Play(ctx, player, key, waitLimit)
			if err != nil || during.FirstFrame > playerLimit {
				t.Errorf("a player during the attack: menu in %s (%v)", during.FirstFrame, err)
			}
			res := <-done
			if res.err != nil {
				t.Fatalf("the attack: %v", res.err)
			}
			if c.check != nil {
				if err := c.check(res.r); err != nil {
					t.Errorf("the attack %v: %v", res.r, err)
				}
			}
			after, peak := srv.memory(t, false)
			later, err := sshattack.Play(ctx, player, key, waitLimit)
			if err != nil || later.FirstFrame > playerLimit {
				t.Errorf("a player after the attack: menu in %s (%v)", later.FirstFrame, err)
			}
			t.Logf("%s %d %s: %v; memory %d MB before, %d MB at its peak, %d MB after; a player during it: menu in %s, bought in %s",
				c.attack, c.size, a.Unit, res.r, before>>20, peak>>20, after>>20,
				during.FirstFrame.Round(time.Millisecond), during.Bought.Round(time.Millisecond))
			if peak-before > hostileBound || after-before > hostileBound {
				t.Errorf("memory %d MB before, %d MB at its peak, %d MB after: more than %d MB more", before>>20, peak>>20, after>>20, hostileBound>>20)
			}
		})
	}
}

// opened checks that an attack opened between lo and hi connections or
// sessions.
func opened(lo, hi int) func(sshattack.Result) error {
	return func(r sshattack.Result) error {
		if r.Opened < lo || r.Opened > hi {
			return fmt.Errorf("%d opened, want %d to %d", r.Opened, lo, hi)
		}
		return nil
	}
}

// held checks that at most n of what an attack opened were still open
// when it let go.
func held(n int) func(sshattack.Result) error {
	return func(r sshattack.Result) error {
		if r.Held > n {
			return fmt.Errorf("%d still open, want %d at most", r.Held, n)
		}
		return nil
	}
}

// sentAll checks that the server read all an attack sent.
func sentAll(n int64) func(sshattack.Result) error {
	return func(r sshattack.Result) error {
		if r.Sent < n {
			return fmt.Errorf("%d sent of %d: the server stopped reading", r.Sent, n)
		}
		return nil
	}
}

// all checks each of checks.
func all(checks ...func(sshattack.Result) error) func(sshattack.Result) error {
	return func(r sshattack.Result) error {
		for _, c := range checks {
			if err := c(r); err != nil {
				return err
			}
		}
		return nil
	}
}

// smallBuffers is a listener whose connections' send buffers are small:
// a client that reads no more blocks the server's writes at once, not
// after megabytes.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		c.(*net.TCPConn).SetWriteBuffer(4 << 10)
	}
	return c, err
}

// stoppable is a client's connection whose reads stop once stopped is
// closed… until the server closes the connection: a client that reads no
// more.
type stoppable struct {
	net.Conn
	reading atomic.Bool
	stopped chan struct{}
}

func (s *stoppable) Read(p []byte) (int, error) {
	if !s.reading.Load() {
		<-s.stopped
	}
	return s.Conn.Read(p)
}

// TestStalledClientClosed: a client that reads no more of its output
// holds its game and its place only until a write has waited WriteStall:
// then its connection is closed, and its place freed.
func TestStalledClientClosed(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(dir, "tapis.db"), store.Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key, _, err := HostKey(filepath.Join(dir, "host_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	srv, err := New(Options{Store: st, HostKey: key, Balance: decimal.NewFromInt(100), WriteStall: time.Second, Log: log.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(smallBuffers{l})
	defer srv.Close()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10) })
	}}
	raw, err := d.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	conn := &stoppable{Conn: raw, stopped: make(chan struct{})}
	conn.reading.Store(true)
	cc, chans, reqs, err := gossh.NewClientConn(conn, l.Addr().String(), &gossh.ClientConfig{User: "visitor",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	term := open(t, gossh.NewClient(cc, chans, reqs), 100, 30, nil, "")
	term.waitFor(t, "Choose a game")
	conn.reading.Store(false)
	// Screens of help to write, that no one reads, until the server's
	// writes wait and it closes the connection. The help is opened or
	// closed every third look (60 ms), once a frame's turn at most: two
	// toggles within one turn draw nothing new, and a write that small
	// took up to 20 s to fill the buffers.
	looks := 0
	waitUntil(t, "the stalled player's place freed", func() bool {
		if looks++; looks%3 == 0 {
			io.WriteString(term.in, "?")
		}
		return srv.Playing() == 0
	})
	close(conn.stopped)
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(logs.String(), "end=disconnected") })
}
