package server

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"charm.land/ssh"
)

// Bounds on the connections themselves, before and after logging in.
const (
	// handshakeTimeout bounds a connection's SSH handshake: one that has
	// not logged in by then is dropped.
	handshakeTimeout = 10 * time.Second
	// DefaultLoginGrace is how long a connection logged in may hold no
	// game nor board (before its first, or after its last) before it is
	// closed.
	DefaultLoginGrace = 20 * time.Second
	// perAddressLoggingIn bounds the connections of one address still
	// logging in, under --max-per-address: below DefaultStartups.Start,
	// so one address alone never makes others' connections drop.
	perAddressLoggingIn = 4
	// shrunkFrom is how many connections the server must have held for
	// their going to give memory back at once (a forced collection).
	shrunkFrom = 4
	// DefaultMaxPerAddress is how many connections one address may hold
	// (--max-per-address): a room of visitors behind one NAT fits.
	DefaultMaxPerAddress = 100
)

// Startups is OpenSSH's MaxStartups for the connections still logging
// in: once Start of them are open, a new connection is refused with the
// probability Rate %, rising linearly to 100 % at Full ("random early
// drop"), so that a flood of connections that never log in cannot take
// every slot.
type Startups struct{ Start, Rate, Full int }

// DefaultStartups is OpenSSH's default, 10:30:100.
var DefaultStartups = Startups{Start: 10, Rate: 30, Full: 100}

// ParseStartups reads START:RATE:FULL, or FULL alone (every connection
// past FULL refused), as OpenSSH's MaxStartups does.
func ParseStartups(s string) (Startups, error) {
	parts := strings.Split(s, ":")
	var n []int
	for _, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 100_000 {
			return Startups{}, fmt.Errorf("%q: want START:RATE:FULL or FULL, whole numbers", s)
		}
		n = append(n, v)
	}
	var st Startups
	switch len(n) {
	case 1:
		st = Startups{Start: n[0], Rate: 100, Full: n[0]}
	case 3:
		st = Startups{Start: n[0], Rate: n[1], Full: n[2]}
	default:
		return Startups{}, fmt.Errorf("%q: want START:RATE:FULL or FULL", s)
	}
	if st.Full < 1 || st.Start > st.Full || st.Rate < 1 || st.Rate > 100 {
		return Startups{}, fmt.Errorf("%q: want 0 ≤ START ≤ FULL, FULL at least 1, RATE 1 to 100", s)
	}
	return st, nil
}

func (st Startups) String() string { return fmt.Sprintf("%d:%d:%d", st.Start, st.Rate, st.Full) }

// drops reports whether a new connection is refused, n connections being
// still logging in; draw returns a number in [0, 100).
func (st Startups) drops(n int, draw func() int) bool {
	switch {
	case n >= st.Full:
		return true
	case n < st.Start:
		return false
	}
	p := st.Rate + (100-st.Rate)*(n-st.Start)/(st.Full-st.Start)
	return draw() < p
}

// gate counts a server's connections, in all, by address and logging in,
// and admits new ones within the bounds; it counts what it refused, for
// the log.
type gate struct {
	startups   Startups
	perAddress int           // 0: no bound
	total      int           // connections at most
	grace      time.Duration // a login's without a game
	mu         sync.Mutex
	rand       *rand.Rand
	conns      int
	loggingIn  int
	addrs      map[netip.Addr]*tally
	refused    map[string]int // since the last report, by reason
	idle       int            // connections closed after their grace, since the last report
	high       int            // the most connections held since shrunk last said so
}

// tally is one address's connections.
type tally struct{ conns, loggingIn int }

func newGate(startups Startups, perAddress, total int, grace time.Duration, r *rand.Rand) *gate {
	return &gate{startups: startups, perAddress: perAddress, total: total, grace: grace, rand: r,
		addrs: map[netip.Addr]*tally{}, refused: map[string]int{}}
}

// addressOf is the address a connection counts under: its IP, or the
// /64 network of an IPv6 address (one host holds a whole /64).
func addressOf(a net.Addr) netip.Addr {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return netip.Addr{}
	}
	ip := t.AddrPort().Addr().Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.Addr()
	}
	return ip
}

// admit counts a new connection from addr, or says why it is refused.
func (g *gate) admit(addr netip.Addr) (refusal string, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t := g.addrs[addr]
	if t == nil {
		t = &tally{}
	}
	switch {
	case g.conns >= g.total:
		refusal = "server busy"
	case g.perAddress > 0 && t.conns >= g.perAddress:
		refusal = "per address"
	case g.perAddress > 0 && t.loggingIn >= min(perAddressLoggingIn, g.perAddress):
		refusal = "per address, logging in"
	case g.startups.drops(g.loggingIn, func() int { return g.rand.IntN(100) }):
		refusal = "startups"
	}
	if refusal != "" {
		g.refused[refusal]++
		return refusal, false
	}
	g.addrs[addr] = t
	g.conns, g.loggingIn = g.conns+1, g.loggingIn+1
	t.conns, t.loggingIn = t.conns+1, t.loggingIn+1
	g.high = max(g.high, g.conns)
	return "", true
}

// shrunk reports whether the connections held now are at most half the
// most held since it last said so, that many being a few: what they held
// is garbage, worth giving back to the system at once.
func (g *gate) shrunk() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.conns*2 > g.high || g.high < shrunkFrom {
		return false
	}
	g.high = g.conns
	return true
}

// closedIdle counts a connection closed after its grace, for the next
// report.
func (g *gate) closedIdle() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.idle++
}

// count counts a refusal made past the door (keys only: a login without
// a key), for the next report.
func (g *gate) count(refusal string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refused[refusal]++
}

// loggedIn counts a connection of addr as logged in.
func (g *gate) loggedIn(addr netip.Addr) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.loggingIn--
	g.addrs[addr].loggingIn--
}

// release counts a connection of addr gone; loggingIn, if it had not
// logged in.
func (g *gate) release(addr netip.Addr, loggingIn bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	t := g.addrs[addr]
	g.conns, t.conns = g.conns-1, t.conns-1
	if loggingIn {
		g.loggingIn, t.loggingIn = g.loggingIn-1, t.loggingIn-1
	}
	if t.conns == 0 {
		delete(g.addrs, addr)
	}
}

// report returns, and forgets, what was refused and closed since the last
// report: nil when nothing was.
func (g *gate) report() []any {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.refused) == 0 && g.idle == 0 {
		return nil
	}
	var kv []any
	for _, why := range []string{"server busy", "per address", "per address, logging in", "startups", "keys only"} {
		if n := g.refused[why]; n > 0 {
			kv = append(kv, strings.ReplaceAll(strings.ReplaceAll(why, ", ", "_"), " ", "_"), n)
		}
	}
	if g.idle > 0 {
		kv = append(kv, "idle_logins_closed", g.idle)
	}
	clear(g.refused)
	g.idle = 0
	return append(kv, "connections", g.conns, "logging_in", g.loggingIn)
}

// gatedListener admits connections through a gate: those refused are
// closed at once, before any byte is read.
type gatedListener struct {
	net.Listener
	g       *gate
	arrived func() // Options.Arrived
}

func (l gatedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := addressOf(c.RemoteAddr())
		if _, ok := l.g.admit(addr); !ok {
			c.Close()
			continue
		}
		if l.arrived != nil {
			l.arrived()
		}
		return &gatedConn{Conn: c, g: l.g, addr: addr}, nil
	}
}

// gatedConn is a connection the gate admitted: it counts its session
// channels and its games, and closes itself once logged in without a game
// nor a board for the gate's grace.
type gatedConn struct {
	net.Conn
	g    *gate
	addr netip.Addr

	mu       sync.Mutex
	in       bool        // logged in
	closed   bool        // closed, or closing: no game begins on it
	channels int         // session channels open
	games    int         // games and boards running
	grace    *time.Timer // running while logged in with no game
}

// gatedKey keeps, in a connection's context, its gatedConn.
type gatedKey struct{}

// gatedOf returns a connection's gatedConn, nil for one no gate admitted.
func gatedOf(ctx ssh.Context) *gatedConn {
	c, _ := ctx.Value(gatedKey{}).(*gatedConn)
	return c
}

// loggedIn counts the connection as logged in, and starts its grace.
func (c *gatedConn) loggedIn() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.in || c.closed {
		return
	}
	c.in = true
	c.g.loggedIn(c.addr)
	c.grace = time.AfterFunc(c.g.grace, c.expire)
}

// expire closes the connection, if it still holds no game: decided
// under the lock that begin takes, so no game begins on it meanwhile.
func (c *gatedConn) expire() {
	if c.close(func() bool { return c.games == 0 }) {
		c.g.closedIdle()
	}
}

// openChannel counts a session channel opened: false past one.
func (c *gatedConn) openChannel() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.channels > 0 {
		return false
	}
	c.channels++
	return true
}

func (c *gatedConn) closeChannel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.channels--
}

// begin counts a game or a board started on the connection: false when
// the connection is closing.
func (c *gatedConn) begin() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	c.games++
	if c.grace != nil {
		c.grace.Stop()
	}
	return true
}

// end counts a game or a board over: with none left, the grace starts
// again.
func (c *gatedConn) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.games--; c.games == 0 && c.grace != nil && !c.closed {
		c.grace.Reset(c.g.grace)
	}
}

// Close closes the connection, and counts it gone.
func (c *gatedConn) Close() error {
	c.close(nil)
	return nil
}

// close closes the connection once, if still (when not nil, under the
// lock begin takes) holds, and reports whether this call closed it.
func (c *gatedConn) close(still func() bool) bool {
	c.mu.Lock()
	if c.closed || (still != nil && !still()) {
		c.mu.Unlock()
		return false
	}
	c.closed = true
	if c.grace != nil {
		c.grace.Stop()
	}
	loggingIn := !c.in
	c.mu.Unlock()
	c.Conn.Close()
	c.g.release(c.addr, loggingIn)
	return true
}
