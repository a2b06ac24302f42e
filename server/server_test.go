package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"tapis/store"
)

// TestPTYSizeAndResize: the game is drawn at the size of the session's
// PTY, and again at each window change.
func TestPTYSizeAndResize(t *testing.T) {
	ts := startServer(t, nil)
	term := open(t, ts.dial(t, newKey(t)), 70, 20, nil, "")
	term.waitFor(t, "(now 70×20)")
	term.resize(t, 22, 75)
	term.waitFor(t, "(now 75×22)")
	term.resize(t, 30, 100)
	term.waitFor(t, "Choose a game")
	term.press(t, "q")
	if status := term.exit(t); status != 0 {
		t.Errorf("quitting: exit status %d, want 0", status)
	}
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(ts.log.String(), "end=quit") })
}

// TestLanguageFromEnvironment: the session's LC_ALL, then LANG, choose the
// language, as the local game's do.
func TestLanguageFromEnvironment(t *testing.T) {
	ts := startServer(t, nil)
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"LANG": "fr_FR.UTF-8"}, "Choisissez un jeu"},
		{map[string]string{"LANG": "fr_FR.UTF-8", "LC_ALL": "en_GB.UTF-8"}, "Choose a game"},
		{nil, "Choose a game"},
	} {
		term := open(t, ts.dial(t, newKey(t)), 100, 30, c.env, "")
		term.waitFor(t, c.want)
		term.press(t, "q")
		term.exit(t)
	}
}

// TestColourProfileFromTerminal: the colours follow the player's
// terminal: 256 colours and more for xterm-256color with COLORTERM
// truecolor, none for a dumb terminal.
func TestColourProfileFromTerminal(t *testing.T) {
	ts := startServer(t, nil)
	colour := regexp.MustCompile(`\x1b\[[0-9;]*[34]8;[25];`)
	for _, c := range []struct {
		term   string
		env    map[string]string
		colour bool
	}{
		{"xterm-256color", map[string]string{"COLORTERM": "truecolor"}, true},
		{"dumb", nil, false},
	} {
		term := openTerm(t, ts.dial(t, newKey(t)), c.term, 100, 30, c.env, "")
		term.waitFor(t, "Choose a game")
		if got := colour.MatchString(term.out.String()); got != c.colour {
			t.Errorf("TERM=%s %v: colours %v, want %v", c.term, c.env, got, c.colour)
		}
		term.press(t, "q")
		term.exit(t)
	}
}

// TestSameKeyComesBack: a player is their key: a second session with it
// is refused while the first plays; once it is gone, the key finds its
// account again, its balance and the unit it bought and never saw,
// offered at once.
func TestSameKeyComesBack(t *testing.T) {
	ts := startServer(t, nil)
	key := newKey(t)
	account := gossh.FingerprintSHA256(key.PublicKey())
	c := ts.dial(t, key)
	term := open(t, c, 100, 30, nil, "")
	term.waitFor(t, "Choose a game")

	again := open(t, ts.dial(t, key), 100, 30, nil, "")
	if status := again.exit(t); status != 1 {
		t.Errorf("a second session with the same key: exit status %d, want 1", status)
	}
	if got := again.errOut.String(); !strings.Contains(got, "this account is playing elsewhere") {
		t.Errorf("a second session with the same key was told %q", got)
	}

	term.press(t, "1") // Yam's
	term.waitFor(t, "enter play")
	term.press(t, "\r") // buys a unit; its cups stay covered until rolled
	waitUntil(t, "the purchase", func() bool { return ts.account(t, account).Purchases == 1 })
	c.Close() // the connection drops, mid-reveal
	waitUntil(t, "the session's end", func() bool { return ts.Playing() == 0 })
	a := ts.account(t, account)
	if len(a.Pending) != 1 {
		t.Fatalf("after the drop, %d units pending, want 1", len(a.Pending))
	}

	c = ts.dial(t, key)
	back := open(t, c, 100, 30, nil, "")
	back.waitFor(t, "Your last session did not reveal this unit to the end")
	c.Close()
	waitUntil(t, "the session's end", func() bool { return ts.Playing() == 0 })
	a = ts.account(t, account)
	if !a.Deposited.Equal(ts.o.Balance) || a.Purchases != 1 {
		t.Errorf("back: deposited %s and %d purchases, want %s and 1", a.Deposited, a.Purchases, ts.o.Balance)
	}
}

// TestGuest: a player without a key plays as a guest of their own, for as
// long as their connection lasts.
func TestGuest(t *testing.T) {
	ts := startServer(t, nil)
	one := open(t, ts.dial(t, nil), 100, 30, nil, "")
	two := open(t, ts.dial(t, nil), 100, 30, nil, "")
	one.waitFor(t, "Choose a game")
	two.waitFor(t, "Choose a game")
	one.waitFor(t, "€100.00")
	ts.mu.Lock()
	var guests []string
	for a := range ts.playing {
		guests = append(guests, a)
	}
	ts.mu.Unlock()
	if len(guests) != 2 || guests[0] == guests[1] {
		t.Fatalf("two guests play as %q", guests)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for _, g := range guests {
		if !strings.HasPrefix(g, "guest-") {
			t.Errorf("a guest plays as %q", g)
		}
		// Nothing in the store while a guest has bought nothing.
		if _, err := ts.store.Account(ctx, g, 0); !errors.Is(err, store.ErrNoAccount) {
			t.Errorf("guest %s before buying: %v, want no account", g, err)
		}
	}
	// The first guest buys a unit: its account is kept, a guest's.
	one.press(t, "1")
	one.waitFor(t, "enter play")
	one.press(t, "a")
	waitUntil(t, "a guest's purchase", func() bool {
		for _, g := range guests {
			if a, err := ts.store.Account(ctx, g, 0); err == nil && a.Purchases == 1 {
				return true
			}
		}
		return false
	})
	for _, term := range []*terminal{one, two} {
		term.press(t, "\x03")
		term.exit(t)
	}
	waitUntil(t, "both sessions over", func() bool { return ts.Playing() == 0 })
	var kept []store.Account
	for _, g := range guests {
		if a, err := ts.store.Account(ctx, g, 0); err == nil {
			kept = append(kept, a)
		}
	}
	if len(kept) != 1 || !kept[0].Guest || kept[0].Purchases != 1 || !kept[0].Deposited.Equal(ts.o.Balance) {
		t.Errorf("after two guests, one of whom bought a unit, the store keeps %+v", kept)
	}
	r, err := ts.store.Verify(ctx)
	if err != nil || !r.OK() || r.Accounts != 1 {
		t.Errorf("verify: %d accounts, problems %v (%v)", r.Accounts, r.Problems, err)
	}
}

// TestKeysOnly: with --guests=false a player without a key is refused at
// login, told how to make a key; a player with one plays.
func TestKeysOnly(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.KeysOnly = true })
	var banner string
	_, err := gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{User: "visitor",
		Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return nil, nil
		})},
		BannerCallback:  func(m string) error { banner += m; return nil },
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLimit})
	if err == nil {
		t.Fatal("a player without a key logged in")
	}
	if !strings.Contains(banner, "make one with ssh-keygen -t ed25519") || !strings.Contains(banner, "créez-en une") {
		t.Errorf("a player without a key was told %q", banner)
	}
	term := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	term.waitFor(t, "Choose a game")
}

// TestNoTerminal: a session without a PTY is told, in one line, how to
// connect, and closed.
func TestNoTerminal(t *testing.T) {
	ts := startServer(t, nil)
	term := open(t, ts.dial(t, newKey(t)), 0, 0, map[string]string{"LANG": "fr_FR.UTF-8"}, "")
	if status := term.exit(t); status != 1 {
		t.Errorf("exit status %d, want 1", status)
	}
	_, port, _ := strings.Cut(ts.addr, ":")
	want := "tapis : le jeu demande un terminal : connectez-vous avec ssh -t -p " + port + " 127.0.0.1\r\n"
	if got := term.errOut.String(); got != want {
		t.Errorf("told %q, want %q", got, want)
	}
	if out := term.out.String(); out != "" {
		t.Errorf("and wrote %q on its output", out)
	}
}

// TestCommandRefused: no command runs, with or without a PTY, but board
// alone.
func TestCommandRefused(t *testing.T) {
	ts := startServer(t, nil)
	for _, cmd := range []string{"ls", "sh -c id", "board now", "boards", "Board"} {
		term := open(t, ts.dial(t, newKey(t)), 100, 30, nil, cmd)
		if status := term.exit(t); status != 1 {
			t.Errorf("%s: exit status %d, want 1", cmd, status)
		}
		if got := term.errOut.String(); !strings.Contains(got, "runs no command but board: connect with ssh -t -p") || strings.Count(got, "\n") != 1 {
			t.Errorf("%s: told %q", cmd, got)
		}
	}
	if n := ts.Playing(); n != 0 {
		t.Errorf("%d playing", n)
	}
}

// TestForwardingRefused: no port forwarding either way, no agent
// forwarding, no subsystem (sftp).
func TestForwardingRefused(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dial(t, newKey(t))
	if l, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		l.Close()
		t.Error("remote port forwarding was accepted")
	}
	if conn, err := c.Dial("tcp", ts.addr); err == nil {
		conn.Close()
		t.Error("local port forwarding was accepted")
	}
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := agent.RequestAgentForwarding(s); err == nil {
		t.Error("agent forwarding was accepted")
	}
	if err := s.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was accepted")
	}
	// One session at a time on a connection: a second is refused while
	// the first is open, and taken once it is closed.
	if second, err := c.NewSession(); err == nil {
		second.Close()
		t.Error("a second session on the connection was accepted")
	}
	s.Close()
	var next *gossh.Session
	waitUntil(t, "the first session closed", func() bool {
		next, err = c.NewSession()
		return err == nil
	})
	term := termOn(t, next, "xterm-256color", 100, 30, nil, "")
	term.waitFor(t, "Choose a game")
}

// TestMaxSessions: beyond --max-sessions players, one more is told the
// server is full; a place freed lets the next one in.
func TestMaxSessions(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.MaxSessions = 2 })
	one := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	two := open(t, ts.dial(t, nil), 100, 30, nil, "")
	one.waitFor(t, "Choose a game")
	two.waitFor(t, "Choose a game")
	three := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	if status := three.exit(t); status != 1 {
		t.Errorf("a third player: exit status %d, want 1", status)
	}
	if got, want := three.errOut.String(), "tapis: the server is full (players at most: 2); try again in a moment\r\n"; got != want {
		t.Errorf("a third player was told %q, want %q", got, want)
	}
	one.press(t, "q")
	one.exit(t)
	waitUntil(t, "the place freed", func() bool { return ts.Playing() == 1 })
	four := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	four.waitFor(t, "Choose a game")
}

// TestIdleTimeout: a session without input for the idle timeout is
// closed, and told why.
func TestIdleTimeout(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.IdleTimeout = time.Second })
	term := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	term.waitFor(t, "Choose a game")
	term.exit(t)
	if got, want := term.errOut.String(), "tapis: closed after 1s without a key; anything bought waits for your next visit\r\n"; got != want {
		t.Errorf("told %q, want %q", got, want)
	}
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(ts.log.String(), "end=idle") })
}

// TestQANeedsQAStore: the forcing panel is for a staging server, on a QA
// store only.
func TestQANeedsQAStore(t *testing.T) {
	ts := startServer(t, nil)
	if _, err := New(Options{Store: ts.store, HostKey: nil, QA: true}); err == nil || !strings.Contains(err.Error(), "QA store") {
		t.Errorf("--qa on the house's store: %v", err)
	}
}

// TestHostKey: created once, ed25519, mode 0600 in a directory of mode
// 0700; read again the same; refused when others may read it.
func TestHostKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".tapis", "host_ed25519")
	key, fp, err := HostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(fp, "SHA256:") {
		t.Errorf("fingerprint %q", fp)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %04o, want %04o", p, info.Mode().Perm(), want)
		}
	}
	signer, err := gossh.ParsePrivateKey(key)
	if err != nil || signer.PublicKey().Type() != gossh.KeyAlgoED25519 {
		t.Fatalf("host key: %v, %v", signer, err)
	}
	again, fp2, err := HostKey(path)
	if err != nil || string(again) != string(key) || fp2 != fp {
		t.Errorf("read again: another key (%s, %v)", fp2, err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := HostKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a key others may read: %v", err)
	}
}

// TestGraceNotRenewedByRefusals: a connection logged in is closed once it
// has held no game nor board for its grace, whatever sessions it opens
// and has refused meanwhile.
func TestGraceNotRenewedByRefusals(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.LoginGrace = time.Second })
	c := ts.dial(t, nil)
	start := time.Now()
	for time.Since(start) < 5*time.Second {
		s, err := c.NewSession()
		if err != nil {
			break // the connection is closed
		}
		s.Run("nope") // refused: a command
		s.Close()
		time.Sleep(200 * time.Millisecond)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("a connection opening refused sessions lived %s past a grace of 1s", took.Round(100*time.Millisecond))
	}
}

// TestEndedSessionsLetGo: a session over holds nothing: no goroutine of
// its game or board is left waiting (the reality check's 30 minutes, or
// keys read after the quit, held every program a server had, its screen
// buffers and its model).
func TestEndedSessionsLetGo(t *testing.T) {
	ts := startServer(t, func(o *Options) { o.RealityCheck = 30 * time.Minute })
	warm := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	warm.waitFor(t, "Choose a game")
	warm.press(t, "\x03")
	warm.exit(t)
	waitUntil(t, "the first session over", func() bool { return ts.Playing() == 0 })
	time.Sleep(200 * time.Millisecond)
	before := runtime.NumGoroutine()
	for i := range 20 {
		// Games and boards, each quit with keys after the quit in the
		// same read (Bubble Tea's reader waited for ever to hand them to
		// a program gone).
		c := ts.dial(t, newKey(t))
		cmd, shown := "", "Choose a game"
		if i%2 == 1 {
			cmd, shown = "board", "live board"
		}
		term := open(t, c, 300, 100, nil, cmd)
		term.waitFor(t, shown)
		term.press(t, "q"+strings.Repeat("j", 4000))
		term.exit(t)
		c.Close()
	}
	waitUntil(t, "the games' goroutines gone", func() bool { return runtime.NumGoroutine() <= before+5 })
}

// panicky is a session whose every method panics (a nil one inside).
type panicky struct{ ssh.Session }

// TestSessionPanicRecovered: a session whose handler panics is ended and
// logged with its stack; the server goes on serving.
func TestSessionPanicRecovered(t *testing.T) {
	ts := startServer(t, nil)
	ts.ssh.Handler(panicky{})
	if !strings.Contains(ts.log.String(), "a session panicked and was ended") || !strings.Contains(ts.log.String(), "goroutine") {
		t.Errorf("log:\n%s", ts.log.String())
	}
	term := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	term.waitFor(t, "Choose a game")
}
