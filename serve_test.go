package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"tapis/store"
)

// TestServeCommand runs tapis serve as a process: it says where it
// listens, a player's SSH session plays, and SIGTERM stops it with exit
// status 0, the shutdown and the player's session in its log.
func TestServeCommand(t *testing.T) {
	srv := startServe(t)
	signer, out, _ := srv.player(t)

	srv.signal(t)
	srv.exit(t)
	checkLog(t, srv.logs.String(), "shutting down signal=terminated players=1 grace=10s",
		"played account="+gossh.FingerprintSHA256(signer.PublicKey()), `end="server closing"`, "stopped took=")
	if got := out.String(); !strings.HasSuffix(got, "\x1b[?1049l\x1b[?25h\x1b[?2004l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b]2;\a") {
		t.Errorf("the player's terminal was not given back: the output ends %q", got[max(0, len(got)-120):])
	}
}

// TestServeSecondSignal: a player mid-reveal holds the shutdown up; a
// second SIGTERM ends it at once, the player's terminal still given back,
// and the ticket they bought waits for them in the store.
func TestServeSecondSignal(t *testing.T) {
	srv := startServe(t)
	signer, out, keys := srv.player(t)
	io.WriteString(keys, "2") // Vegas
	waitScreen(t, out, "Buy a ticket")
	io.WriteString(keys, "\r") // a ticket bought, left to scratch
	waitScreen(t, out, "SCRATCH HERE")

	srv.signal(t)
	waitScreen(t, out, "Server closing in")
	srv.signal(t)
	srv.exit(t)
	checkLog(t, srv.logs.String(), "shutting down signal=terminated players=1", "closing now signal=terminated",
		"units=1 staked=3.00 won=0.00 pending=1", `end="server closing"`, `reveals cut short by="the second signal"`, "stopped took=")
	if got := out.String(); !strings.HasSuffix(got, "\x1b[?1049l\x1b[?25h\x1b[?2004l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b]2;\a") {
		t.Errorf("the player's terminal was not given back: the output ends %q", got[max(0, len(got)-120):])
	}
	st, err := store.Open(context.Background(), srv.store, store.Options{KeyFile: srv.houseKey})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.Account(context.Background(), gossh.FingerprintSHA256(signer.PublicKey()), 10)
	if err != nil || len(a.Pending) != 1 {
		t.Errorf("the ticket bought: %d pending (%v), want 1", len(a.Pending), err)
	}
}

// TestServeKilled: SIGKILL of tapis serve loses nothing. A player's
// ticket, bought and left to scratch when the server is killed, is in the
// store; a server started again on it offers the ticket to the same key,
// and verify finds the store clean.
func TestServeKilled(t *testing.T) {
	dir := t.TempDir()
	srv := startServeIn(t, dir)
	signer, out, keys := srv.player(t)
	io.WriteString(keys, "2") // Vegas
	waitScreen(t, out, "Buy a ticket")
	io.WriteString(keys, "\r")
	waitScreen(t, out, "SCRATCH HERE")
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-srv.done
	srv.done <- nil // for the cleanup

	again := startServeIn(t, dir)
	again.playerWith(t, signer, "Your last session did not reveal this unit to the end")
	st, err := store.Open(context.Background(), again.store, store.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.Account(context.Background(), gossh.FingerprintSHA256(signer.PublicKey()), 10)
	if err != nil || a.Purchases != 1 || len(a.Pending) != 1 {
		t.Fatalf("after SIGKILL: %d purchases, %d pending (%v); want 1 and 1", a.Purchases, len(a.Pending), err)
	}
	rep, err := st.Verify(context.Background())
	if err != nil || !rep.OK() {
		t.Errorf("verify after SIGKILL: %v %q", err, rep.Problems)
	}
}

// checkLog checks that the log has each of want, in that order.
func checkLog(t *testing.T, logs string, want ...string) {
	t.Helper()
	lines := strings.Split(logs, "\n")
	i := 0
	for _, l := range lines {
		for i < len(want) && strings.Contains(l, want[i]) {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("no %q (in that order) in the log:\n%s", want[i:], logs)
	}
}

// serveProcess is tapis serve running as a process, on a store of its
// own.
type serveProcess struct {
	cmd      *exec.Cmd
	logs     *lockedBuffer
	where    string // the address it listens on
	store    string // its store's URL
	houseKey string // the house key's file it signs with
	done     chan error
}

// startServe starts tapis serve on 127.0.0.1 and waits until it says
// where it listens.
func startServe(t *testing.T) *serveProcess {
	t.Helper()
	return startServeIn(t, t.TempDir())
}

// startServeIn starts tapis serve with its store and host key in dir.
func startServeIn(t *testing.T, dir string) *serveProcess {
	t.Helper()
	bin := buildTapis(t)
	store := "sqlite:" + filepath.Join(dir, "tapis.db")
	p := startServeArgs(t, bin, "--store", store, "--host-key", filepath.Join(dir, ".tapis", "host_ed25519"))
	p.store, p.houseKey = store, filepath.Join(dir, ".tapis", "house_ed25519")
	return p
}

// startServeArgs starts bin serve on a port of its own with args, and
// waits for its "listening" line.
func startServeArgs(t *testing.T, bin string, args ...string) *serveProcess {
	t.Helper()
	return startServeEnv(t, bin, nil, args...)
}

// startServeEnv is startServeArgs with env as the process's environment
// (nil: the test's).
func startServeEnv(t *testing.T, bin string, env []string, args ...string) *serveProcess {
	t.Helper()
	p := &serveProcess{logs: &lockedBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	p.cmd.Env = env
	p.cmd.Stderr = p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() { p.cmd.Process.Kill(); <-p.done })
	listening := regexp.MustCompile(`listening addr=(\S+)`)
	for deadline := time.Now().Add(30 * time.Second); p.where == ""; time.Sleep(20 * time.Millisecond) {
		if m := listening.FindStringSubmatch(p.logs.String()); m != nil {
			p.where = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("tapis serve never said where it listens:\n%s", p.logs.String())
		}
	}
	return p
}

// player connects a player with a key of their own, whose game shows its
// menu: it returns the key, what the session writes, and its keyboard.
func (p *serveProcess) player(t *testing.T) (gossh.Signer, *lockedBuffer, io.Writer) {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := gossh.NewSignerFromKey(priv)
	out, in := p.playerWith(t, signer, "Choose a game")
	return signer, out, in
}

// playerWith connects a player with a key, and waits for their screen to
// show want.
func (p *serveProcess) playerWith(t *testing.T, signer gossh.Signer, want string) (*lockedBuffer, io.Writer) {
	out, _, in := p.session(t, signer, want)
	return out, in
}

// session connects a player with a key, waits for their screen to show
// want, and returns what the session writes on its standard output and on
// its standard error (what the player is told as it ends), and its
// keyboard.
func (p *serveProcess) session(t *testing.T, signer gossh.Signer, want string) (*lockedBuffer, *lockedBuffer, io.Writer) {
	t.Helper()
	c, err := gossh.Dial("tcp", p.where, &gossh.ClientConfig{User: "visitor", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, errOut := &lockedBuffer{}, &lockedBuffer{}
	s.Stdout, s.Stderr = out, errOut
	// The player's keyboard: a session whose input ends is a player gone.
	in, err := s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	waitScreen(t, out, want)
	return out, errOut, in
}

// waitScreen waits until a session's output, ANSI stripped, shows want.
func waitScreen(t *testing.T, out *lockedBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(ansi.Strip(out.String()), want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q:\n%s", want, ansi.Strip(out.String()))
		}
	}
}

// signal sends tapis serve SIGTERM.
func (p *serveProcess) signal(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
}

// exit waits for tapis serve's end, which must be exit status 0.
func (p *serveProcess) exit(t *testing.T) {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err // for the cleanup
		if err != nil {
			t.Errorf("tapis serve: %v\n%s", err, p.logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("tapis serve did not stop:\n%s", p.logs.String())
	}
}

// lockedBuffer is a buffer written and read from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
