package server

import (
	"math/rand/v2"
	"net"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// request is a session request as a client sends it.
func request(kind string, payload any) *gossh.Request {
	var b []byte
	if payload != nil {
		b = gossh.Marshal(payload)
	}
	return &gossh.Request{Type: kind, Payload: b}
}

// TestRequestGuard: the PTY's size is clamped, first and on each change;
// env requests pass for the names the game reads, short and few; long
// commands, odd terminal types, agent and X11 forwarding, subsystems and
// signals are refused.
func TestRequestGuard(t *testing.T) {
	var g requestGuard
	w := newWindows()
	pty := request("pty-req", ptyRequest{Term: "xterm-256color", Columns: 100_000, Rows: 100_000, Width: 1 << 30})
	if !g.pass(pty, w) {
		t.Fatal("a PTY was refused")
	}
	var p ptyRequest
	if err := gossh.Unmarshal(pty.Payload, &p); err != nil || p.Columns != maxCols || p.Rows != maxRows || p.Term != "xterm-256color" {
		t.Errorf("a PTY of 100000×100000 passes as %+v (%v)", p, err)
	}
	g.pass(request("window-change", windowChange{Columns: 65535, Rows: 40}), w)
	if got := w.get(); got != (ssh.Window{Width: maxCols, Height: 40}) {
		t.Errorf("a window change to 65535×40 reaches the game as %+v", got)
	}
	for _, c := range []struct {
		req  *gossh.Request
		pass bool
	}{
		{request("pty-req", ptyRequest{Term: strings.Repeat("x", maxTerm+1)}), false},
		{request("pty-req", ptyRequest{Term: "xterm\x1b[31m"}), false},
		{request("pty-req", nil), false},
		{request("env", struct{ Name, Value string }{"LANG", "fr_FR.UTF-8"}), true},
		{request("env", struct{ Name, Value string }{"LC_ALL", "fr_FR.UTF-8"}), true},
		{request("env", struct{ Name, Value string }{"NO_COLOR", "1"}), true},
		{request("env", struct{ Name, Value string }{"PATH", "/bin"}), false},
		{request("env", struct{ Name, Value string }{"LC_", "x"}), false},
		{request("env", struct{ Name, Value string }{"LC_all", "x"}), false},
		{request("env", struct{ Name, Value string }{"LANG", strings.Repeat("v", maxEnvValue+1)}), false},
		{request("env", struct{ Name, Value string }{"TERM", "x\ny"}), false},
		{request("exec", struct{ Command string }{"board"}), true},
		{request("exec", struct{ Command string }{strings.Repeat("b", maxCommand+1)}), false},
		{request("shell", nil), true},
		{request("auth-agent-req@openssh.com", nil), false},
		{request("x11-req", nil), false},
		{request("subsystem", struct{ Name string }{"sftp"}), false},
		{request("signal", struct{ Signal string }{"INT"}), false},
	} {
		if got := g.pass(c.req, w); got != c.pass {
			t.Errorf("%s %q: passes %v, want %v", c.req.Type, c.req.Payload, got, c.pass)
		}
	}
	// Only maxEnvs env requests pass on a session.
	var many requestGuard
	passed := 0
	for range 3 * maxEnvs {
		if many.pass(request("env", struct{ Name, Value string }{"LANG", "C"}), w) {
			passed++
		}
	}
	if passed != maxEnvs {
		t.Errorf("%d env requests passed of %d, want %d", passed, 3*maxEnvs, maxEnvs)
	}
}

// FuzzSessionRequests: whatever a session's requests hold, the guard does
// not panic, passes a PTY only within the bounds, a window change only as
// a size within them, and env requests only of names the game reads, at
// most maxEnvs.
func FuzzSessionRequests(f *testing.F) {
	f.Add("pty-req", gossh.Marshal(ptyRequest{Term: "xterm", Columns: 1 << 31, Rows: 1 << 31}))
	f.Add("window-change", gossh.Marshal(windowChange{Columns: 1 << 20, Rows: 3}))
	f.Add("env", gossh.Marshal(struct{ Name, Value string }{"LC_CTYPE", "C.UTF-8"}))
	f.Add("exec", gossh.Marshal(struct{ Command string }{"board"}))
	f.Add("pty-req", []byte{0, 0, 0, 5, 'x'})
	f.Fuzz(func(t *testing.T, kind string, payload []byte) {
		var g requestGuard
		w := newWindows()
		envs := 0
		for range maxEnvs + 2 {
			r := &gossh.Request{Type: kind, Payload: append([]byte(nil), payload...)}
			if !g.pass(r, w) {
				continue
			}
			switch kind {
			case "pty-req":
				var p ptyRequest
				if err := gossh.Unmarshal(r.Payload, &p); err != nil || p.Columns > maxCols || p.Rows > maxRows || len(p.Term) > maxTerm {
					t.Fatalf("a PTY passed as %+v (%v)", p, err)
				}
			case "env":
				var e struct{ Name, Value string }
				if err := gossh.Unmarshal(r.Payload, &e); err != nil || !envRead(e.Name) || len(e.Value) > maxEnvValue {
					t.Fatalf("env %q passed (%v)", e.Name, err)
				}
				envs++
			case "window-change":
				t.Fatal("a window change passed to the library")
			case "shell", "exec":
			default:
				t.Fatalf("a %q request passed", kind)
			}
		}
		if envs > maxEnvs {
			t.Fatalf("%d env requests passed", envs)
		}
		if win := w.get(); win.Width > maxCols || win.Height > maxRows || win.Width < 0 || win.Height < 0 {
			t.Fatalf("a window of %+v", win)
		}
	})
}

// TestHugePtyDrawnAtTheBound: a PTY of 100000×100000, and a window
// change to 65535×65535, draw the game within maxCols×maxRows.
func TestHugePtyDrawnAtTheBound(t *testing.T) {
	ts := startServer(t, nil)
	term := open(t, ts.dial(t, nil), 100_000, 100_000, nil, "")
	term.waitFor(t, "Choose a game")
	term.resize(t, 65535, 65535)
	term.press(t, "1")
	term.waitFor(t, "enter play")
	// Cursor positions (CSI row;col H) and the rows and columns of the
	// renderer's moves never go past the bound.
	cup := regexp.MustCompile(`\x1b\[(\d+);(\d+)H`)
	rows, cols := 0, 0
	for _, m := range cup.FindAllStringSubmatch(term.out.String(), -1) {
		row, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		rows, cols = max(rows, row), max(cols, col)
	}
	t.Logf("drawn up to row %d, column %d", rows, cols)
	if rows > maxRows || cols > maxCols || rows < maxRows/2 {
		t.Errorf("drawn up to row %d, column %d: want within %d×%d, and at that size", rows, cols, maxCols, maxRows)
	}
}

// TestStartups: OpenSSH's MaxStartups read and drawn: none dropped below
// START, all at FULL, RATE % at START rising linearly to 100 % at FULL.
func TestStartups(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Startups
		err  bool
	}{
		{"10:30:100", Startups{10, 30, 100}, false},
		{"50", Startups{50, 100, 50}, false},
		{"10:30", Startups{}, true},
		{"100:30:10", Startups{}, true},
		{"10:0:100", Startups{}, true},
		{"10:101:100", Startups{}, true},
		{"-1:30:100", Startups{}, true},
		{"0", Startups{}, true},
	} {
		got, err := ParseStartups(c.in)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("ParseStartups(%q) = %v, %v; want %v, error %v", c.in, got, err, c.want, c.err)
		}
	}
	st := DefaultStartups
	r := rand.New(rand.NewPCG(1, 2))
	draw := func() int { return r.IntN(100) }
	for _, c := range []struct {
		n    int
		want float64
	}{{0, 0}, {9, 0}, {10, 0.30}, {55, 0.65}, {99, 0.99}, {100, 1}, {500, 1}} {
		dropped := 0
		for range 10_000 {
			if st.drops(c.n, draw) {
				dropped++
			}
		}
		if got := float64(dropped) / 10_000; got < c.want-0.02 || got > c.want+0.02 {
			t.Errorf("%d logging in: %.3f dropped, want %.2f", c.n, got, c.want)
		}
	}
}

// TestGateByAddress: one address holds at most --max-per-address
// connections, of which perAddressLoggingIn logging in; an IPv6 /64 is
// one address; a connection gone frees its place.
func TestGateByAddress(t *testing.T) {
	g := newGate(Startups{Start: 1000, Rate: 30, Full: 1000}, 6, 100, time.Minute, rand.New(rand.NewPCG(1, 2)))
	a := netip.MustParseAddr("127.0.0.2")
	for i := range perAddressLoggingIn {
		if _, ok := g.admit(a); !ok {
			t.Fatalf("connection %d refused", i+1)
		}
	}
	if why, ok := g.admit(a); ok || why != "per address, logging in" {
		t.Errorf("a fifth connection logging in: %q, %v", why, ok)
	}
	if _, ok := g.admit(netip.MustParseAddr("127.0.0.3")); !ok {
		t.Error("another address was refused")
	}
	for range perAddressLoggingIn {
		g.loggedIn(a)
	}
	g.admit(a)
	g.loggedIn(a)
	g.admit(a)
	g.loggedIn(a)
	if why, ok := g.admit(a); ok || why != "per address" {
		t.Errorf("a seventh connection: %q, %v", why, ok)
	}
	g.release(a, false)
	if _, ok := g.admit(a); !ok {
		t.Error("a place freed was not taken")
	}
	one := addressOf(&net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 1})
	other := addressOf(&net.TCPAddr{IP: net.ParseIP("2001:db8::ffff:1"), Port: 2})
	far := addressOf(&net.TCPAddr{IP: net.ParseIP("2001:db8:0:1::1"), Port: 3})
	if one != other || one == far {
		t.Errorf("IPv6 addresses count as %v, %v and %v: want the first two alike, the third apart", one, other, far)
	}
	if v4 := addressOf(&net.TCPAddr{IP: net.ParseIP("::ffff:10.0.0.1"), Port: 4}); v4 != netip.MustParseAddr("10.0.0.1") {
		t.Errorf("an IPv4-mapped address counts as %v", v4)
	}
}

// TestLargeScreens: largeScreens sessions draw at the bound; the next
// draws at baseCols×baseRows, until one of them shrinks or ends; a
// terminal within baseCols×baseRows always draws at its size.
func TestLargeScreens(t *testing.T) {
	s := newScreens()
	huge := ssh.Window{Width: maxCols, Height: maxRows}
	held := make([]int, largeScreens+1)
	for i := range largeScreens {
		if got := s.fit(huge, &held[i]); got != huge {
			t.Fatalf("large screen %d draws at %+v", i+1, got)
		}
	}
	base := ssh.Window{Width: baseCols, Height: baseRows}
	if got := s.fit(huge, &held[largeScreens]); got != base {
		t.Errorf("one large screen too many draws at %+v, want %+v", got, base)
	}
	var small int
	if got := s.fit(ssh.Window{Width: 100, Height: 30}, &small); got != (ssh.Window{Width: 100, Height: 30}) || small != 0 {
		t.Errorf("a small screen draws at %+v, holding %d", got, small)
	}
	s.fit(ssh.Window{Width: 80, Height: 24}, &held[0]) // one shrinks
	if got := s.fit(huge, &held[largeScreens]); got != huge {
		t.Errorf("once a large screen shrank, the next draws at %+v", got)
	}
	s.release(&held[1]) // one ends
	var next int
	if got := s.fit(huge, &next); got != huge {
		t.Errorf("once a large screen ended, the next draws at %+v", got)
	}
}

// TestWindowFilter: a window size reaches the game only as the session's
// own; a suspend resumes at once.
func TestWindowFilter(t *testing.T) {
	w := newWindows()
	w.first(ssh.Window{Width: 80, Height: 24})
	if got := w.filter(nil, tea.WindowSizeMsg{Width: 80, Height: 24}); got == nil {
		t.Error("the program's first size did not reach the game")
	}
	select {
	case <-w.sized:
	default:
		t.Error("the first size did not let the input be read")
	}
	if got := w.filter(nil, tea.WindowSizeMsg{Width: 1024, Height: 1024}); got != nil {
		t.Errorf("a size from the input reached the game: %v", got)
	}
	if got := w.filter(nil, tea.WindowSizeMsg{Width: 80, Height: 24}); got != (tea.WindowSizeMsg{Width: 80, Height: 24}) {
		t.Errorf("the PTY's size reached the game as %v", got)
	}
	w.set(ssh.Window{Width: 120, Height: 40})
	if got := w.filter(nil, tea.WindowSizeMsg{Width: 120, Height: 40}); got == nil {
		t.Error("a window change did not reach the game")
	}
	if _, ok := w.filter(nil, tea.SuspendMsg{}).(tea.ResumeMsg); !ok {
		t.Error("a suspend was not resumed")
	}
}
