package server

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"github.com/charmbracelet/x/vt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	gossh "golang.org/x/crypto/ssh"

	"tapis/ledger"
	"tapis/store"
)

// waitLimit bounds every wait of these tests for something the server
// does: it is never what a test measures.
const waitLimit = 20 * time.Second

// testServer is a server on loopback, on a SQLite store of its own.
type testServer struct {
	*Server
	addr  string
	store *store.SQL
	log   *syncBuffer
}

// startServer starts a server on 127.0.0.1:0; change adjusts its options.
func startServer(t *testing.T, change func(*Options)) *testServer {
	t.Helper()
	return startServerOn(t, "", change)
}

// startServerOn starts a server on 127.0.0.1:0 on the store at url, one
// of its own when url is empty; change adjusts its options.
func startServerOn(t *testing.T, url string, change func(*Options)) *testServer {
	t.Helper()
	dir := t.TempDir()
	if url == "" {
		url = "sqlite:" + filepath.Join(dir, "tapis.db")
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	st, err := store.Open(ctx, url, store.Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := HostKey(filepath.Join(dir, ".tapis", "host_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	o := Options{Store: st, HostKey: key, Balance: decimal.NewFromInt(100), Log: log.New(logs)}
	if change != nil {
		change(&o)
	}
	t.Cleanup(func() { st.Close() }) // after the server's, registered after it: cleanups run last first
	srv, addr := serve(t, o)
	return &testServer{Server: srv, addr: addr, store: st, log: logs}
}

// serve starts a server with o on 127.0.0.1:0, closed when the test ends,
// and returns it with its address.
func serve(t *testing.T, o Options) (*Server, string) {
	t.Helper()
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return srv, l.Addr().String()
}

// newKey returns a new player's key.
func newKey(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dial connects to the server with a key, or as a guest (keyboard-
// interactive, no question) when key is nil.
func (ts *testServer) dial(t *testing.T, key gossh.Signer) *gossh.Client {
	t.Helper()
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	})}
	if key != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(key)}
	}
	c, err := gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{User: "visitor", Auth: auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// terminal is an SSH session with a PTY, whose output is kept.
type terminal struct {
	*gossh.Session
	in          io.WriteCloser
	out, errOut *syncBuffer
	drawn       *drawn     // what its terminal shows, with a PTY
	done        chan error // the session's end
}

// open opens a session on c: with an xterm-256color PTY of w×h when
// w > 0, with env set, running cmd (a shell when empty).
func open(t *testing.T, c *gossh.Client, w, h int, env map[string]string, cmd string) *terminal {
	t.Helper()
	return openTerm(t, c, "xterm-256color", w, h, env, cmd)
}

// openTerm is open with the PTY's terminal type.
func openTerm(t *testing.T, c *gossh.Client, termType string, w, h int, env map[string]string, cmd string) *terminal {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	return termOn(t, s, termType, w, h, env, cmd)
}

// termOn is openTerm on a session opened already.
func termOn(t *testing.T, s *gossh.Session, termType string, w, h int, env map[string]string, cmd string) *terminal {
	t.Helper()
	var err error
	for k, v := range env {
		if err := s.Setenv(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if w > 0 {
		if err := s.RequestPty(termType, h, w, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
	}
	term := &terminal{Session: s, out: &syncBuffer{}, errOut: &syncBuffer{}, done: make(chan error, 1)}
	s.Stdout, s.Stderr = term.out, term.errOut
	if w > 0 {
		term.drawn = newDrawn(min(w, maxCols), min(h, maxRows))
		s.Stdout = io.MultiWriter(term.out, term.drawn)
	}
	if term.in, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if cmd == "" {
		err = s.Shell()
	} else {
		err = s.Start(cmd)
	}
	if err != nil {
		t.Fatal(err)
	}
	go func() { term.done <- s.Wait() }()
	t.Cleanup(func() { s.Close() })
	return term
}

// waitFor waits until the screen, its ANSI sequences stripped, shows want.
func (term *terminal) waitFor(t *testing.T, want string) {
	t.Helper()
	waitUntil(t, "the screen to show "+want, func() bool { return strings.Contains(term.screen(), want) })
}

// screen is every screen a terminal showed as the session wrote to it, one
// after the other (what was drawn, not the bytes that drew it); without a
// PTY, everything the session wrote, ANSI sequences stripped.
func (term *terminal) screen() string {
	if term.drawn != nil {
		return term.drawn.String()
	}
	return ansi.Strip(term.out.String())
}

// resize changes the session's window, and its terminal's.
func (term *terminal) resize(t *testing.T, h, w int) {
	t.Helper()
	term.drawn.resize(min(w, maxCols), min(h, maxRows))
	if err := term.WindowChange(h, w); err != nil {
		t.Fatal(err)
	}
}

// drawn is a terminal emulator fed a session's output: the text of each
// screen it shows, kept in turn.
type drawn struct {
	mu   sync.Mutex
	emu  *vt.Emulator
	log  strings.Builder
	last string
}

// newDrawn returns the emulator of a terminal of w×h. Nothing reads its
// answers to queries (the emulator's Read races with its Close): a
// session sends none, having no input of Bubble Tea's to read them, and
// one sent would hold the session's output, which a test's wait shows.
func newDrawn(w, h int) *drawn { return &drawn{emu: vt.NewEmulator(w, h)} }

func (d *drawn) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.emu.Write(p) //nolint:errcheck // an emulator takes everything
	if s := d.emu.String(); s != d.last {
		d.log.WriteString(s)
		d.log.WriteByte('\n')
		d.last = s
	}
	return len(p), nil
}

func (d *drawn) resize(w, h int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.emu.Resize(w, h)
}

func (d *drawn) String() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.log.String()
}

// press sends keys.
func (term *terminal) press(t *testing.T, keys string) {
	t.Helper()
	if _, err := io.WriteString(term.in, keys); err != nil {
		t.Fatal(err)
	}
}

// exit waits for the session's end and returns its exit status.
func (term *terminal) exit(t *testing.T) int {
	t.Helper()
	select {
	case err := <-term.done:
		var e *gossh.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &e):
			return e.ExitStatus()
		}
		t.Fatalf("session: %v", err)
	case <-time.After(waitLimit):
		t.Fatalf("the session did not end within %s; stderr %q", waitLimit, term.errOut.String())
	}
	return -1
}

// waitUntil polls cond until it holds, failing the test after waitLimit.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", waitLimit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// account returns an account as the store holds it.
func (ts *testServer) account(t *testing.T, name string) store.Account {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	a, err := ts.store.Account(ctx, name, 10)
	if err != nil {
		t.Fatalf("account %s: %v", name, err)
	}
	return a
}

// syncBuffer is a buffer written and read from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
