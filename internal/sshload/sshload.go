// Package sshload plays many SSH sessions against tapis serve at once, as a
// room of visitors would: each session has a key of its own (an account of
// its own), a PTY, opens a game and presses its buy key at a steady pace
// (issue 13, item 10). The load test of package server, the sshload
// command and the serveload benchmark drive a server with it; the server
// measures its own store calls, the client its first frames and the
// answers to its keys (issue 22).
package sshload

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Config is a load: how many sessions, where, and what each does.
type Config struct {
	// Addrs are the servers' addresses (host:port); sessions are spread
	// over them in turn. Only loopback addresses are accepted unless
	// AnyHost is set.
	Addrs   []string
	AnyHost bool
	// Sessions is how many sessions play at once (at most 10 000).
	Sessions int
	// Open are the keys a session presses once its first frame is drawn
	// ("1" opens Yam's from the menu); Press is the key pressed every
	// Every after that ("a": buy and reveal), for For.
	Open, Press string
	Every, For  time.Duration
	// Idle makes the sessions sit on the screen Open leads to for For,
	// pressing nothing (Press and Every are not used): what a session
	// that only watches costs.
	Idle bool
	// AnswerMin is the least a write must hold, in bytes, to count as
	// the answer to a key (0: any bytes). A screen with a clock redraws
	// its second in a few bytes (6 to 32 on tapis's and wishfloor's),
	// which would otherwise answer a key that came just before it.
	AnswerMin int
	// Settle is how long a session waits after its last press before it
	// quits (5 s when zero): its last unit is answered and revealed.
	Settle time.Duration
	// Width and Height are each PTY's size (80×24 when zero).
	Width, Height int
	// Started, when not nil, is called once every session has drawn its
	// first frame (or failed), as they start pressing; Ended, when not
	// nil, For after that, as they stop (it is not called when ctx ends
	// first, or every session has ended before).
	Started, Ended func()
	// Keys, when not nil, are the sessions' keys, one a session (the
	// same keys come back to the same accounts); new keys otherwise.
	Keys []gossh.Signer
	// Dialing is how many sessions log in at once (4 when zero): a room
	// arrives over seconds, not in one instant, and tapis serve drops
	// connections early past ten logging in at once (--max-startups).
	Dialing int
}

// Result is what the sessions did.
type Result struct {
	Opened  int           // sessions that drew a first frame
	Presses int64         // buy keys sent
	Bytes   int64         // bytes the sessions received
	Connect time.Duration // the slowest session's time to its first frame, from Run's start
	// FirstFrame is each session's time from beginning to connect (its
	// place among those logging in taken) to its first frame: the first
	// bytes that draw text.
	FirstFrame Spread
	// Answer is each press's time from sending the key to the first
	// bytes received after it (at least Config.AnswerMin): the key's
	// answer as the client sees it.
	Answer Spread
	// PlayBytes are the bytes received from Started to For after it,
	// while the sessions pressed (or sat, when Idle).
	PlayBytes int64
	Keys      []gossh.Signer
	Errors    []error // one a session that failed, at most 10 kept
	Failed    int     // sessions that failed
}

// maxSessions bounds Config.Sessions.
const maxSessions = 10_000

// Run plays the load and returns once every session has played For and
// closed, or ctx is done; a session that fails is counted, not fatal.
func Run(ctx context.Context, c Config) (Result, error) {
	if err := c.check(); err != nil {
		return Result{}, err
	}
	if c.Width == 0 {
		c.Width, c.Height = 80, 24
	}
	keys := c.Keys
	for len(keys) < c.Sessions {
		k, err := NewKey()
		if err != nil {
			return Result{}, err
		}
		keys = append(keys, k)
	}
	res := Result{Keys: keys}
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		presses atomic.Int64
		bytes   atomic.Int64
		opened  = make(chan struct{}, c.Sessions)
		frames  = newSamples(maxSamples)
		answers = newSamples(maxSamples)
	)
	start := make(chan struct{}) // every session presses from the same moment
	if c.Dialing == 0 {
		c.Dialing = 4
	}
	dialing := make(chan struct{}, c.Dialing)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		res.Failed++
		if len(res.Errors) < 10 {
			res.Errors = append(res.Errors, err)
		}
	}
	t0 := time.Now()
	for i := range c.Sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := player{c: c, addr: c.Addrs[i%len(c.Addrs)], from: visitor(i), key: keys[i], presses: &presses, bytes: &bytes,
				dialing: dialing, frames: frames, answers: answers}
			if err := p.play(ctx, opened, start, &mu, &res.Connect, t0); err != nil {
				fail(fmt.Errorf("session %d: %w", i, err))
			}
		}()
	}
	// Everyone presses once every session is in (or has failed to be);
	// the bytes received are counted from then, for For.
	allEnded := make(chan struct{})
	window := make(chan int64, 1)
	go func() {
		defer close(window)
		for range c.Sessions {
			select {
			case <-opened:
			case <-ctx.Done():
				close(start)
				return
			}
		}
		if c.Started != nil {
			c.Started()
		}
		from := bytes.Load()
		close(start)
		played := time.NewTimer(c.For)
		defer played.Stop()
		select {
		case <-played.C:
			n := bytes.Load() - from
			if c.Ended != nil {
				c.Ended()
			}
			window <- n // Run returns once Ended has
		case <-allEnded:
		case <-ctx.Done():
		}
	}()
	wg.Wait()
	close(allEnded)
	res.PlayBytes = <-window
	res.Presses, res.Bytes = presses.Load(), bytes.Load()
	res.Opened = c.Sessions - res.Failed
	res.FirstFrame, res.Answer = frames.spread(), answers.spread()
	return res, ctx.Err()
}

// check refuses a load that is not bounded, or not on loopback.
func (c Config) check() error {
	switch {
	case len(c.Addrs) == 0:
		return errors.New("sshload: no server address")
	case c.Sessions < 1 || c.Sessions > maxSessions:
		return fmt.Errorf("sshload: %d sessions: want 1 to %d", c.Sessions, maxSessions)
	case c.Idle && (c.For <= 0 || c.For > 24*time.Hour):
		return fmt.Errorf("sshload: sit for %s: want it positive, at most 24h", c.For)
	case !c.Idle && (c.Every <= 0 || c.For <= 0 || c.For > 24*time.Hour):
		return fmt.Errorf("sshload: press every %s for %s: want both positive, at most 24h", c.Every, c.For)
	case !c.Idle && c.Press == "":
		return errors.New("sshload: no key to press")
	case c.AnswerMin < 0:
		return fmt.Errorf("sshload: answers of at least %d bytes: want 0 or more", c.AnswerMin)
	}
	for _, a := range c.Addrs {
		if err := CheckLoopback(a); err != nil && !c.AnyHost {
			return fmt.Errorf("sshload: %w", err)
		}
	}
	return nil
}

// CheckLoopback refuses an address (host:port) off loopback.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s is not a loopback address", addr)
	}
	return nil
}

// LoginOn logs in on conn, a connection to addr, with auth, within 30 s;
// conn is closed when it fails.
func LoginOn(conn net.Conn, addr string, auth gossh.AuthMethod) (*gossh.Client, error) {
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	cc, chans, reqs, err := gossh.NewClientConn(conn, addr, &gossh.ClientConfig{User: "visitor",
		Auth: []gossh.AuthMethod{auth}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		conn.Close()
		return nil, err
	}
	conn.SetDeadline(time.Time{})
	return gossh.NewClient(cc, chans, reqs), nil
}

// NewKey returns a new ed25519 key: a new account on the server.
func NewKey() (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("sshload: a key: %w", err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, fmt.Errorf("sshload: a key: %w", err)
	}
	return s, nil
}

// visitor is the loopback address session i comes from: each visitor of a
// room has an address of their own (127.0.0.2 to 127.0.250.255), as
// tapis serve counts connections by address (--max-per-address).
func visitor(i int) net.IP {
	return net.IPv4(127, 0, byte(i/254%250), byte(2+i%254))
}

// player is one session of a load.
type player struct {
	c       Config
	addr    string
	from    net.IP        // the address it comes from, on loopback
	dialing chan struct{} // a place among the sessions logging in
	key     gossh.Signer
	presses *atomic.Int64
	bytes   *atomic.Int64
	frames  *samples // each session's time to its first frame
	answers *samples // each press's time to its answer
}

// play connects, waits for the first frame, opens the game, and presses
// the buy key every c.Every for c.For from start (or sits for c.For when
// c.Idle); then quits.
func (p player) play(ctx context.Context, opened chan<- struct{}, start <-chan struct{}, mu *sync.Mutex, slowest *time.Duration, t0 time.Time) error {
	announced := false
	defer func() {
		if !announced {
			opened <- struct{}{}
		}
	}()
	client, dialed, err := p.dial(ctx)
	if err != nil {
		return err
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		return err
	}
	defer sess.Close()
	if err := sess.RequestPty("xterm-256color", p.c.Height, p.c.Width, gossh.TerminalModes{}); err != nil {
		return err
	}
	in, err := sess.StdinPipe()
	if err != nil {
		return err
	}
	first := make(chan struct{})
	out := &counter{n: p.bytes, first: first, dialed: dialed, frames: p.frames, answers: p.answers, answerMin: p.c.AnswerMin}
	sess.Stdout = out
	sess.Stderr = io.Discard
	if err := sess.Shell(); err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- sess.Wait() }()
	select {
	case <-first:
	case err := <-ended:
		return fmt.Errorf("ended before its first frame: %v", err)
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(30 * time.Second):
		return errors.New("no first frame in 30s")
	}
	mu.Lock()
	*slowest = max(*slowest, time.Since(t0))
	mu.Unlock()
	if p.c.Open != "" {
		if _, err := io.WriteString(in, p.c.Open); err != nil {
			return err
		}
	}
	opened <- struct{}{}
	announced = true
	select {
	case <-start:
	case <-ctx.Done():
		return ctx.Err()
	}
	end := time.After(p.c.For)
	if p.c.Idle {
		select {
		case <-end:
			return p.quit(in, ended)
		case err := <-ended:
			return fmt.Errorf("ended while sitting: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// Each session presses at its own moment within the period, as
	// visitors do, not all of them at once.
	tick := time.NewTimer(mrand.N(p.c.Every))
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			tick.Reset(p.c.Every)
			out.press()
			if _, err := io.WriteString(in, p.c.Press); err != nil {
				return err
			}
			p.presses.Add(1)
		case <-end:
			return p.quit(in, ended)
		case err := <-ended:
			return fmt.Errorf("ended while playing: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// quit gives the last purchase time to be answered and its unit revealed,
// then quits with ctrl+c: the session's totals count every unit it
// bought.
func (p player) quit(in io.Writer, ended <-chan error) error {
	select {
	case <-time.After(p.c.settle()):
	case err := <-ended:
		return fmt.Errorf("ended while settling: %v", err)
	}
	io.WriteString(in, "\x03")
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		return errors.New("did not end within 30s of ctrl+c")
	}
	return nil
}

// dial logs in, from the player's own address when the server is on
// loopback, once a place among those logging in is free; it returns when
// it began to connect, that place taken.
func (p player) dial(ctx context.Context) (*gossh.Client, time.Time, error) {
	select {
	case p.dialing <- struct{}{}:
	case <-ctx.Done():
		return nil, time.Time{}, ctx.Err()
	}
	defer func() { <-p.dialing }()
	began := time.Now()
	d := net.Dialer{Timeout: 30 * time.Second}
	if host, _, _ := net.SplitHostPort(p.addr); net.ParseIP(host).IsLoopback() && net.ParseIP(host).To4() != nil {
		d.LocalAddr = &net.TCPAddr{IP: p.from}
	}
	conn, err := d.DialContext(ctx, "tcp", p.addr)
	if err != nil {
		return nil, began, err
	}
	client, err := LoginOn(conn, p.addr, gossh.PublicKeys(p.key))
	return client, began, err
}

// settle is Config.Settle, 5 s when zero.
func (c Config) settle() time.Duration {
	if c.Settle > 0 {
		return c.Settle
	}
	return 5 * time.Second
}
