package cli

import (
	"context"
	"flag"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"charm.land/log/v2"
	"github.com/shopspring/decimal"

	"tapis/board"
	"tapis/game"
	"tapis/ledger"
	"tapis/server"
	"tapis/store"
	"tapis/text"
)

// serveGCPercent is the garbage collector's target of tapis serve, unless
// GOGC is set: 200 sessions after a minute of play peak at 380 MB instead
// of 500 MB, for about the same CPU.
const serveGCPercent = 50

// DefaultTimerSlack is tapis serve's --timer-slack: its animations step
// every 60 ms or more and its frames every 40 ms, so a timer woken up to
// 5 ms late is not seen, and 200 players under load cost a fifth less CPU
// (README, Serving over SSH: speed).
const DefaultTimerSlack = 5 * time.Millisecond

// maxTimerSlack bounds --timer-slack: past it an animation's steps would
// be seen to stumble.
const maxTimerSlack = 100 * time.Millisecond

// maxSessions bounds --max-sessions.
const maxSessions = 100_000

// serveFlags are tapis serve's flags, as they are read.
type serveFlags struct {
	listen, store, hostKey string
	join                   string // --join-address, as typed: read once the listener's port is known
	houseKey               string // the house's signing key's file: beside the host key unless told
	balance                decimal.Decimal
	maxSessions            int
	maxBoards              int
	maxPerAddress          int             // connections of one address; 0: no bound
	startups               server.Startups // random early drop of connections logging in
	guests                 bool            // players without a key come in as guests
	openBlocks             int             // blocks on sale side by side in a new store
	idle                   time.Duration
	realityCheck           time.Duration   // how often the time played and net result are shown; 0: never
	lossLimit              decimal.Decimal // an account's net loss over 24 hours that refuses purchases; zero: none
	qa                     bool
	stateDir               string        // the store and the keys' folder, when given
	operatorKeys           string        // the stand's operators' authorized_keys file; "": none
	logFormat              string        // text or json
	metrics                string        // the operations' listener (/metrics, /healthz); "": none
	timerSlack             time.Duration // the threads' timer slack; 0: the system's
}

// maxLossLimit bounds --loss-limit, in euros.
const maxLossLimit = 1_000_000

// serve runs tapis serve: the game over SSH, until SIGINT, SIGTERM or
// SIGHUP, which shut it down gracefully (shutDown), or until the store is
// found changed under it (stopSelling). Exit status 0 once shut down, 2
// for a bad flag or a store, host key, house key or address that cannot
// be used; 1 when the store was changed under it, or serving fails
// afterwards.
func serve(env Env, args []string) int {
	f, err := serveArgs(env, args)
	if err != nil {
		return fail(env, "serve", err)
	}
	logger := serveLogger(env, f.logFormat)
	var slackErr error // logged after the house key, the log's first line
	if f.timerSlack > 0 && env.TimerSlack != nil {
		// First, before anything is opened: it may execute the program
		// again.
		slackErr = env.TimerSlack(f.timerSlack)
	}
	var operators server.Operators
	if f.operatorKeys != "" {
		if operators, err = server.ReadOperators(f.operatorKeys); err != nil {
			return fail(env, "serve", usagef("%v", err))
		}
	}
	if env.Getenv("GOGC") == "" {
		// Many sessions, each holding its frames and buffers, and
		// redrawing often: the heap is let grow to 1.5 times what is
		// live, not twice (README, Serving over SSH: memory).
		debug.SetGCPercent(serveGCPercent)
	}
	// The address is taken first: a server that cannot listen leaves
	// nothing behind, no host key and no store.
	l, err := net.Listen("tcp", f.listen)
	if err != nil {
		return fail(env, "serve", usagef("--listen: %v", err))
	}
	defer l.Close()
	join, err := joinAddress(f.join, l.Addr())
	if err != nil {
		return fail(env, "serve", err)
	}
	var ops net.Listener
	if f.metrics != "" {
		if ops, err = net.Listen("tcp", f.metrics); err != nil {
			return fail(env, "serve", usagef("--metrics: %v", err))
		}
		defer ops.Close()
	}
	if f.stateDir != "" { // the store's folder, made as the host key's would be
		if err := os.MkdirAll(f.stateDir, 0o700); err != nil {
			return fail(env, "serve", usagef("--state-dir: %v", err))
		}
	}
	// The store tells of a change under it once (OnTamper), from its own
	// goroutine or in a sale: the server stops selling below.
	tampered := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	st, err := store.Open(ctx, f.store, store.Options{QA: f.qa, OpenBlocks: f.openBlocks, KeyFile: f.houseKey,
		// Each head on a line of its own, the token as it is (unquoted):
		// tapis verify --heads reads the log as it is.
		OnHead:   func(h ledger.HeadToken) { logHead(logger, f.logFormat, h) },
		OnTamper: func(err error) { noteTamper(tampered, err) }})
	if err != nil {
		cancel()
		return fail(env, "serve", usagef("%v", err))
	}
	closeStore := sync.OnceValue(st.Close)
	defer closeStore()
	// The host key after the store: a store refused (its house key
	// missing, another emission's) leaves no new host key behind.
	key, fingerprint, created, err := server.OpenHostKey(f.hostKey)
	if err != nil {
		cancel()
		return fail(env, "serve", usagef("%v", err))
	}
	// The log's first line is the house's key (README); then what was
	// found or created, once everything opened.
	house := st.Emission().Key()
	logger.Info("house key "+house.String(), "fingerprint", house.Fingerprint(), "file", text.Printable(f.houseKey))
	logStore(ctx, logger, st, f.store)
	logHostKey(logger, f.hostKey, fingerprint, created)
	if slackErr != nil {
		logger.Warn("the timer slack is left as it was", "err", text.Printable(slackErr.Error()))
	}
	// Every sequence's block on sale is opened now, its commitment
	// recorded: the board and the rules screen show it before its first
	// sale.
	for _, seq := range st.Emission().Sequences() {
		if _, err := st.Block(ctx, seq); err != nil {
			cancel()
			return fail(env, "serve", usagef("%v", err))
		}
	}
	// The store's connections opened before the first room of players
	// arrives (store.Warm). Those that do not open now are opened as
	// players need them, as they were before: serving goes on.
	if err := st.Warm(ctx); err != nil {
		logger.Error("the store's connections not all opened: more are opened as players need them, and players are refused while the database refuses them", "err", text.Printable(err.Error()))
	}
	cancel()
	arrivals := make(chan struct{}, 1) // for the processors (startProcs)
	srv, err := server.New(server.Options{Store: st, HostKey: key, Balance: f.balance, MaxSessions: f.maxSessions,
		MaxBoards: f.maxBoards, MaxPerAddress: f.maxPerAddress, Startups: f.startups, KeysOnly: !f.guests,
		IdleTimeout: f.idle, RealityCheck: f.realityCheck, LossLimit: f.lossLimit, QA: f.qa, Log: logger, Join: join,
		Operators: operators, Report: standReport(st), Arrived: func() {
			select {
			case arrivals <- struct{}{}:
			default: // one is waiting already
			}
		}})
	if err != nil {
		return fail(env, "serve", usagef("%v", err))
	}
	stopOps := serveOps(logger, srv, ops)
	defer stopOps()
	if env.Getenv("GOMAXPROCS") == "" {
		// As few processors as the load keeps busy (serve_procs.go), once
		// everything opened: a serve refused says its one line alone.
		defer startProcs(logger, arrivals)()
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(stop)
	logger.Info("settings", "balance", f.balance.StringFixed(2), "loss_limit", lossLimitText(f.lossLimit),
		"reality_check", f.realityCheck, "idle_timeout", f.idle, "max_sessions", f.maxSessions, "max_boards", f.maxBoards,
		"max_per_address", f.maxPerAddress, "max_startups", f.startups.String(), "guests", f.guests, "qa", f.qa,
		"operators", operators.Len(), "metrics", metricsText(ops))
	logger.Info("listening", "addr", l.Addr().String(), "store", text.Printable(store.Redact(f.store)),
		"hostkey", fingerprint, "max_sessions", f.maxSessions, "max_boards", f.maxBoards,
		"max_per_address", f.maxPerAddress, "max_startups", f.startups.String(), "guests", f.guests,
		"idle_timeout", f.idle, "reality_check", f.realityCheck, "loss_limit", lossLimitText(f.lossLimit), "qa", f.qa)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	code := ExitOK
	var begun time.Time // when the server began to stop
	select {
	case sig := <-stop:
		begun = time.Now()
		shutDown(logger, srv, sig, stop)
	case found := <-tampered:
		begun = time.Now()
		logTamper(logger, found)
		stopSelling(logger, srv, stop)
		code = ExitInvalid
	case err := <-served:
		srv.Close()
		logger.Error("stopped", "err", text.Printable(err.Error()))
		return ExitInvalid
	}
	<-served
	// The units sold, the retries, refusals and failures apart (each sold
	// nothing new).
	lat, n := srv.PurchaseLatency(), srv.Purchases()
	logger.Info("purchases", "sold", n.Sold, "p50", lat.P50.Round(10*time.Microsecond),
		"p99", lat.P99.Round(10*time.Microsecond), "max", lat.Max.Round(10*time.Microsecond),
		"again", n.Again, "refused", n.Refused, "failed", n.Failed)
	if err := closeStore(); err != nil {
		logger.Error("closing the store", "err", text.Printable(err.Error()))
	}
	if code == ExitOK {
		select {
		case found := <-tampered: // found as the server shut down: said all the same
			logTamper(logger, found)
			code = ExitInvalid
		default:
		}
	}
	logger.Info("stopped", "took", time.Since(begun).Round(time.Millisecond))
	return code
}

// noteTamper passes what the store found changed under the server on to
// serve, without waiting: the store tells it once, maybe in a sale's
// transaction.
func noteTamper(tampered chan<- error, err error) {
	select {
	case tampered <- err:
	default:
	}
}

// logTamper logs what the store found changed under the server.
func logTamper(logger *log.Logger, found error) {
	logger.Error("the store was changed under this server: sales are stopped", "found", text.Printable(found.Error()))
}

// lossLimitText writes --loss-limit for the log: none, or euros.
func lossLimitText(limit decimal.Decimal) string {
	if limit.IsZero() {
		return "none"
	}
	return limit.StringFixed(2)
}

// joinAddress is the address the boards show: --join-address (its port
// the listener's when it names none), or else the listener's own.
func joinAddress(flagValue string, addr net.Addr) (board.Join, error) {
	port := board.DefaultPort
	if tcp, ok := addr.(*net.TCPAddr); ok {
		port = tcp.Port
	}
	if flagValue == "" {
		return board.JoinOf(addr, os.Hostname), nil
	}
	j, err := board.ParseJoin(flagValue, port)
	if err != nil {
		return j, usagef("--join-address %q: %v", flagValue, err)
	}
	return j, nil
}

// serveArgs reads tapis serve's flags.
func serveArgs(env Env, args []string) (serveFlags, error) {
	var f serveFlags
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&f.stateDir, "state-dir", "", "the `DIR` holding the store (tapis.db), the host key and the house key together, unless --store or --host-key say otherwise")
	fs.StringVar(&f.operatorKeys, "operator-keys", "", "the stand's operators' public keys, an authorized_keys `FILE`: they may run ssh HOST pause, resume, announce, players, kick, topup, report")
	fs.StringVar(&f.logFormat, "log-format", "text", "the log's format: text, or json (one object a line)")
	fs.StringVar(&f.metrics, "metrics", "", "serve Prometheus metrics at http://`ADDR`/metrics and a health check at /healthz, on a listener of their own")
	fs.StringVar(&f.listen, "listen", server.DefaultListen, "the address `ADDR` to listen on (:23234 to be reached from the network)")
	fs.StringVar(&f.store, "store", server.DefaultStore, "the shared store `URL` every player buys from (sqlite:PATH, PATH.db, postgres://…)")
	fs.StringVar(&f.join, "join-address", "", "the address `HOST[:PORT]` players join at, shown on the boards with its QR code (default: the listener's, the machine's name when it listens on every address)")
	fs.StringVar(&f.hostKey, "host-key", server.DefaultHostKey, "the server's host key `FILE`, created (ed25519, mode 0600) if missing")
	fs.StringVar(&f.houseKey, "house-key", "", houseKeyUsage+" (default: "+houseKeyName+" beside --host-key)")
	balance := fs.String("balance", "100", "what a new account starts with, in euros")
	fs.IntVar(&f.maxSessions, "max-sessions", server.DefaultMaxSessions, "how many players at once")
	fs.IntVar(&f.maxBoards, "max-boards", server.DefaultMaxBoards, "how many boards watched at once, apart from the players")
	fs.IntVar(&f.maxPerAddress, "max-per-address", server.DefaultMaxPerAddress, "connections one address may hold (0: no bound)")
	startups := fs.String("max-startups", server.DefaultStartups.String(), "connections logging in: `START:RATE:FULL`, as OpenSSH's MaxStartups")
	fs.BoolVar(&f.guests, "guests", true, "let players without a key in, as guests (false: keys only)")
	fs.IntVar(&f.openBlocks, "open-blocks", store.DefaultOpenBlocks, "when the store is created: `K` blocks of each game and stake on sale side by side")
	fs.DurationVar(&f.idle, "idle-timeout", server.DefaultIdleTimeout, "close a game or a board with no input for that long (0: never); anything bought stays")
	fs.DurationVar(&f.realityCheck, "reality-check", server.DefaultRealityCheck, "every `D` of play, show the time played and the net result, to continue or quit (0: never)")
	lossLimit := fs.String("loss-limit", "", "refuse a purchase that, its stake lost, would take the account's net loss over the last 24 hours past `EUR` (default: no limit)")
	fs.DurationVar(&f.timerSlack, "timer-slack", DefaultTimerSlack, "how late the system may wake the server's timers, to wake it less often (0: the slack it was started with, 50µs unless told; Linux only)")
	fs.BoolVar(&f.qa, "qa", false, "a staging server: QA status line and forcing panel, on a QA store (created with --qa)")
	pos, err := parse(env, fs, args)
	if err != nil {
		return f, err
	}
	if len(pos) > 0 {
		return f, usagef("unexpected argument %q", pos[0])
	}
	if err := f.inStateDir(fs); err != nil {
		return f, err
	}
	if f.logFormat != "text" && f.logFormat != "json" {
		return f, usagef("--log-format %s: want text or json", text.Printable(f.logFormat))
	}
	if f.balance, err = parseBalance(*balance); err != nil {
		return f, usagef("%v", err)
	}
	if f.maxSessions < 1 || f.maxSessions > maxSessions {
		return f, usagef("--max-sessions %d: want 1 to %d", f.maxSessions, maxSessions)
	}
	if f.maxBoards < 1 || f.maxBoards > maxSessions {
		return f, usagef("--max-boards %d: want 1 to %d", f.maxBoards, maxSessions)
	}
	if f.maxPerAddress < 0 || f.maxPerAddress > maxSessions {
		return f, usagef("--max-per-address %d: want 0 (no bound) to %d", f.maxPerAddress, maxSessions)
	}
	if f.startups, err = server.ParseStartups(*startups); err != nil {
		return f, usagef("--max-startups %v", err)
	}
	if f.idle != 0 && (f.idle < time.Second || f.idle > 7*24*time.Hour) {
		return f, usagef("--idle-timeout %s: want 0 (never), or 1s to 168h", f.idle)
	}
	if f.timerSlack < 0 || f.timerSlack > maxTimerSlack {
		return f, usagef("--timer-slack %s: want 0 (the slack it was started with) to %s", f.timerSlack, maxTimerSlack)
	}
	if f.realityCheck != 0 && (f.realityCheck < time.Second || f.realityCheck > 7*24*time.Hour) {
		return f, usagef("--reality-check %s: want 0 (never), or 1s to 168h", f.realityCheck)
	}
	if *lossLimit != "" {
		if f.lossLimit, err = game.ParseAmount(*lossLimit); err != nil {
			return f, usagef("--loss-limit: %v", err)
		}
		if !f.lossLimit.IsPositive() || f.lossLimit.GreaterThan(decimal.NewFromInt(maxLossLimit)) {
			return f, usagef("--loss-limit %s: want more than 0, at most %d", text.Printable(*lossLimit), maxLossLimit)
		}
	}
	if f.join != "" {
		if _, err := board.ParseJoin(f.join, board.DefaultPort); err != nil {
			return f, usagef("--join-address %q: %v", f.join, err)
		}
	}
	if err := checkStoreURL(f.store); err != nil {
		return f, err
	}
	if f.openBlocks < 1 || f.openBlocks > maxOpenBlocks {
		return f, usagef("--open-blocks %d: want 1 to %d", f.openBlocks, maxOpenBlocks)
	}
	if f.hostKey == "" {
		return f, usagef("--host-key is empty: want a file")
	}
	if f.houseKey == "" && isSet(fs, "house-key") {
		return f, usagef("--house-key is empty: want a file")
	}
	if f.houseKey == "" {
		f.houseKey = filepath.Join(filepath.Dir(f.hostKey), houseKeyName)
	}
	if filepath.Clean(f.houseKey) == filepath.Clean(f.hostKey) {
		return f, usagef("--house-key and --host-key are the same file %s: the house's key signs its history, the host key only the connections", text.Printable(f.hostKey))
	}
	return f, nil
}

// houseKeyName is the house key's file beside serve's host key.
const houseKeyName = "house_ed25519"

// isSet reports whether the flag named name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
