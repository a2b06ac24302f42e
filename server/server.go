// Package server serves the game over SSH (tapis serve): each SSH session
// is one player with a game of their own, sized from the session's PTY,
// speaking its LANG, and every player buys from one shared store, as the
// account their public key names.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/recover"
	"github.com/shopspring/decimal"
	gossh "golang.org/x/crypto/ssh"

	"tapis/board"
	"tapis/store"
	"tapis/text"
	"tapis/ui"
)

// Defaults of tapis serve.
const (
	DefaultListen      = "127.0.0.1:23234"
	DefaultStore       = "sqlite:tapis.db"
	DefaultHostKey     = ".tapis/host_ed25519"
	DefaultMaxSessions = 200
	// DefaultMaxBoards is how many boards may be watched at once, apart
	// from the players.
	DefaultMaxBoards   = 10
	DefaultIdleTimeout = 30 * time.Minute
	// DefaultRealityCheck is how often a player is shown the time played
	// and their net result.
	DefaultRealityCheck = 30 * time.Minute
)

// Options configures a server.
type Options struct {
	// Store is the emission every player buys from, opened once for the
	// server. The server never closes it: its owner does, after Close.
	Store *store.SQL
	// HostKey is the server's private host key, in PEM (HostKey reads or
	// creates one).
	HostKey []byte
	// Balance is what a new account starts with.
	Balance decimal.Decimal
	// MaxSessions is how many players may play at once; more are told the
	// server is full. DefaultMaxSessions when 0.
	MaxSessions int
	// MaxBoards is how many boards may be watched at once, apart from the
	// players; more are told the boards are full. DefaultMaxBoards when 0.
	MaxBoards int
	// MaxPerAddress bounds the connections of one address (an IPv6 /64),
	// of which perAddressLoggingIn at most still logging in; 0: no bound.
	MaxPerAddress int
	// Startups is the random early drop of connections still logging in;
	// DefaultStartups when zero.
	Startups Startups
	// KeysOnly refuses players without a key (no guests), telling them
	// how to make one.
	KeysOnly bool
	// IdleTimeout closes a session, a game's or a board's, that sends no
	// input for that long (anything bought is kept); 0 never does.
	IdleTimeout time.Duration
	// LoginGrace closes a connection logged in that holds no game nor
	// board for that long; DefaultLoginGrace when 0.
	LoginGrace time.Duration
	// WriteStall closes a connection whose client has not read its
	// output for that long; DefaultWriteStall when 0.
	WriteStall time.Duration
	// RealityCheck shows each player, every so long of play, the time
	// played and their net result, to continue or quit; 0 never does.
	RealityCheck time.Duration
	// LossLimit refuses an account's purchases while its net loss over the
	// last 24 hours (store.LossWindow) is at least this; zero: no limit.
	LossLimit decimal.Decimal
	// QA gives every player the QA status line and forcing panel: only on
	// a QA store.
	QA bool
	// Log receives one line per connection, per purchase error and at
	// shutdown; nil logs nothing.
	Log *log.Logger
	// Join is the address players join at, which every board shows with
	// its QR code (tapis serve's --join-address, or derived from its
	// listener: board.JoinOf); zero: the boards show none.
	Join board.Join
	// Operators are the keys that may run the stand's commands over SSH
	// (pause, resume, announce, players, kick, topup, report); none when
	// zero: every such command is refused.
	Operators Operators
	// Report writes the stand's report for ssh HOST report; nil: the
	// server has none to give.
	Report Reporter
	// Arrived is called at each connection admitted, before its
	// handshake (tapis serve's processors look closer then), on the
	// goroutine that accepts connections: it must return at once. Nil:
	// none.
	Arrived func()
}

// Server is tapis serve: an SSH server whose sessions play the game.
type Server struct {
	o      Options
	styles *styleMemo // the changes between the frames' styles, in each colour profile
	ssh    *ssh.Server
	seller seller
	log    *log.Logger
	wg     sync.WaitGroup // the players' sessions, until their game is closed
	// latency is how long the store took to sell, for PurchaseLatency.
	latency latencies

	feed    *board.Feed // the boards' one reading of the store, started by the first
	gate    *gate       // the connections, counted and bounded
	screens *screens    // the budget of large screens
	// housekeeper logs the connections the gate refused, and gives back
	// the memory of those gone, every housekeepingEvery.
	housekeeper *ticker
	hand        *secondHand // the sessions' header time, moved on each second

	stand   *stand   // what the operators set: sales paused, an announcement
	metrics *metrics // the server's own registry

	mu        sync.Mutex
	playing   map[string]chan struct{} // the accounts playing now, one session each: closed once it is over
	players   map[string]*player       // the games running now, by account, for the operators
	boards    int                      // the boards watched now
	presence  *presence                // the players' count in the store, for the boards, once serving
	listeners []net.Listener           // what Serve was given, for Close
	closed    bool                     // Shutdown or Close was called: no one else is let in

	end ending // how the sessions are ended: Shutdown and Close
}

// New returns a server for o; Serve starts it.
func New(o Options) (*Server, error) {
	if o.Store == nil {
		return nil, errors.New("server: no store")
	}
	if o.QA && !o.Store.Emission().QA {
		return nil, errors.New("server: --qa needs a QA store (one created with --qa)")
	}
	if o.LossLimit.IsNegative() || o.RealityCheck < 0 {
		return nil, errors.New("server: a negative loss limit or reality check")
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxBoards <= 0 {
		o.MaxBoards = DefaultMaxBoards
	}
	if o.LoginGrace <= 0 {
		o.LoginGrace = DefaultLoginGrace
	}
	if o.WriteStall <= 0 {
		o.WriteStall = DefaultWriteStall
	}
	if o.Startups == (Startups{}) {
		o.Startups = DefaultStartups
	}
	if o.MaxPerAddress < 0 {
		return nil, errors.New("server: a negative bound of connections per address")
	}
	if o.Log == nil {
		o.Log = log.NewWithOptions(io.Discard, log.Options{})
	}
	s := &Server{o: o, log: o.Log, playing: map[string]chan struct{}{}, players: map[string]*player{}, end: newEnding(),
		styles: &styleMemo{}, stand: newStand(), hand: newSecondHand()}
	s.metrics = newMetrics(s)
	s.seller = seller{SQL: o.Store, log: o.Log, latency: &s.latency, failed: newFailures(o.Log, time.Now), limit: o.LossLimit,
		stand: s.stand, metrics: s.metrics}
	// Every connection the server may hold at once: each player and board
	// and as many again arriving or leaving, and those logging in.
	total := 2*(o.MaxSessions+o.MaxBoards) + o.Startups.Full
	s.screens = newScreens()
	s.gate = newGate(o.Startups, o.MaxPerAddress, total, o.LoginGrace, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	opts := []ssh.Option{
		wish.WithHostKeyPEM(o.HostKey),
		wish.WithPublicKeyAuth(func(ssh.Context, ssh.PublicKey) bool { return true }),
	}
	if !o.KeysOnly {
		// A player without a key is a guest: keyboard-interactive with no
		// question lets them in.
		opts = append(opts, wish.WithKeyboardInteractiveAuth(guestIn))
	}
	srv, err := wish.NewServer(opts...)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	// A panic in a session's handler ends that session, logged with its
	// stack, never the server and every other player (wish's recovery):
	// it covers the whole lifecycle (serve), the program handler, the
	// program's run and what comes after it; Bubble Tea recovers the
	// panics of the model and its commands itself, and the session ends
	// as an error.
	srv.Handler = recover.MiddlewareWithLogger(panicLog{s.log})(s.handle)
	srv.HandshakeTimeout = handshakeTimeout
	srv.ConnCallback = func(ctx ssh.Context, c net.Conn) net.Conn {
		if g, ok := c.(*gatedConn); ok {
			ctx.SetValue(gatedKey{}, g)
		}
		return c
	}
	srv.ServerConfigCallback = func(ctx ssh.Context) *gossh.ServerConfig { return s.sshConfig(gatedOf(ctx)) }
	// Sessions only, guarded (requests.go). No forwarding handler is
	// installed: port forwarding is refused; global requests are all
	// answered no.
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
	s.ssh = srv
	s.feed = board.NewFeed(o.Store, func(err error) {
		s.metrics.storeError("board")
		s.log.Error("the boards' store does not answer: they say they are paused", "err", text.Printable(err.Error()))
	})
	return s, nil
}

// Serve accepts players on l until Close; it returns nil once closed.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		l.Close()
		return nil
	}
	s.listeners = append(s.listeners, l)
	s.startPresence()
	if s.housekeeper == nil {
		s.housekeeper = every(housekeepingEvery, s.housekeeping)
	}
	s.hand.start()
	s.mu.Unlock()
	// A pointer: the library keeps its listeners in a map.
	if err := s.ssh.Serve(&gatedListener{l, s.gate, s.o.Arrived}); err != nil && !errors.Is(err, ssh.ErrServerClosed) {
		return fmt.Errorf("serving on %s: %w", l.Addr(), err)
	}
	return nil
}

// Close ends the server at once: it stops accepting, quits every
// player's game (their terminal restored, within quitGrace), closes every
// connection, and returns once each game has been closed (the units shown
// recorded in the store); anything bought and not shown is offered at the
// player's next visit. Shutdown is the graceful way.
func (s *Server) Close() error {
	s.stopAccepting(time.Time{}, false)
	s.end.quitAll()
	s.waitSessions(quitGrace)
	err := s.ssh.Close()
	s.finish()
	return err
}

// Playing returns how many players are playing now.
func (s *Server) Playing() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.playing)
}

// PurchaseLatency sums up how long the store took to sell, measured
// around each purchase's store call.
func (s *Server) PurchaseLatency() Latency { return s.latency.summary() }

// claim takes an account for a session; it says why not when the account
// is playing elsewhere, the server is full or closing. A player back the
// moment their connection dropped finds their last session still
// closing (its purchase under way, its units recorded): the claim waits
// for it, claimWait at most.
func (s *Server) claim(account string) (refusal line, ok bool) {
	s.mu.Lock()
	if over, ok := s.playing[account]; ok {
		s.mu.Unlock()
		t := time.NewTimer(claimWait)
		defer t.Stop()
		select {
		case <-over:
		case <-t.C:
		}
		s.mu.Lock()
	}
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return lineClosing, false
	case s.playing[account] != nil:
		return lineElsewhere, false
	case len(s.playing) >= s.o.MaxSessions:
		return lineFull, false
	}
	s.playing[account] = make(chan struct{})
	s.wg.Add(1)
	return 0, true
}

// claimWait is how long a session waits for the last one of its account
// on this server to end.
const claimWait = 3 * time.Second

// release gives an account back, once its session is over.
func (s *Server) release(account string) {
	s.mu.Lock()
	close(s.playing[account])
	delete(s.playing, account)
	s.mu.Unlock()
	s.wg.Done()
}

// seller is the shared store as each player's session holds it: closing a
// player's session leaves it open, a purchase past the loss limit or while
// sales are paused is refused, and a purchase that fails is logged (the
// failures that follow it closely as a count, failures.go).
type seller struct {
	*store.SQL
	log     *log.Logger
	latency *latencies
	failed  *failures
	limit   decimal.Decimal // the loss limit over store.LossWindow; zero: none
	stand   *stand
	metrics *metrics
}

// Sell sells a unit, unless the stand's host paused sales
// (ui.ErrSalesPaused) or the account's loss limit refuses it (a
// *store.LossLimitError, logged as information: the store checks it in
// the purchase's transaction, against every server's sales); it measures
// how long the sale took, counts its outcome, and logs the purchase's
// failure. A retry answered with the unit sold before is no new sale.
func (s seller) Sell(ctx context.Context, p store.Purchase) (store.Receipt, error) {
	if s.stand.isPaused() {
		s.metrics.purchase(p.Game.Name, outcomePaused, 0)
		return store.Receipt{}, ui.ErrSalesPaused
	}
	start := time.Now()
	p.LossLimit = s.limit
	r, err := s.SQL.Sell(ctx, p)
	took := time.Since(start)
	if e, ok := store.IsLossLimit(err); ok {
		s.metrics.purchase(p.Game.Name, outcomeLossLimit, took)
		s.log.Info("purchase refused", "purchase", p.ID(), "why", "loss limit", "limit", e.Limit.StringFixed(2),
			"loss", e.Loss.StringFixed(2), "until", e.Until.Local().Format(time.DateTime))
		return store.Receipt{}, err
	}
	if err != nil { // a purchase that failed sold nothing: it is not timed among the sales
		s.metrics.purchase(p.Game.Name, outcomeFailed, took)
		s.failed.failed("purchase", p.ID(), "game", p.Game.Name, "stake", p.Stake.String(),
			"err", text.Printable(err.Error()))
		return r, err
	}
	if r.Again {
		s.metrics.purchase(p.Game.Name, outcomeAgain, took)
		return r, nil
	}
	s.metrics.purchase(p.Game.Name, outcomeSold, took)
	s.latency.record(took)
	s.failed.sold()
	return r, nil
}

// Close leaves the shared store open: the server's owner closes it.
func (seller) Close() error { return nil }

// panicLog writes a session's panic, recovered, as one error of the log.
type panicLog struct{ log *log.Logger }

func (p panicLog) Printf(format string, args ...any) {
	p.log.Error("a session panicked and was ended; the server goes on", "panic", fmt.Sprintf(format, args...))
}
