package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/log/v2"
	"charm.land/ssh"
	"github.com/shopspring/decimal"
	gossh "golang.org/x/crypto/ssh"

	"tapis/game"
	"tapis/store"
	"tapis/text"
)

// Reporter writes the stand's report (tapis report's figures: sales,
// prizes and the return so far, by game, stake and hour) for an
// operator's ssh HOST report ARGS, to w. tapis serve wires it to tapis
// report's code; a server without one says so.
type Reporter func(ctx context.Context, w io.Writer, args []string) error

// The stand's commands, for the operators' keys only (Options.Operators):
// ssh HOST COMMAND ARGS.
const (
	opPause    = "pause"
	opResume   = "resume"
	opAnnounce = "announce"
	opPlayers  = "players"
	opKick     = "kick"
	opTopup    = "topup"
	opReport   = "report"
)

// isOperatorCommand reports whether a session's command is one of the
// stand's.
func isOperatorCommand(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	switch cmd[0] {
	case opPause, opResume, opAnnounce, opPlayers, opKick, opTopup, opReport:
		return true
	}
	return false
}

// Bounds on the operators' commands.
const (
	maxAnnounce = 120 // an announcement's characters: one line of a narrow screen
	maxTopup    = 10_000
	reportWait  = time.Minute // the report's reading of the store
	storeWait   = 10 * time.Second
)

// Exit statuses of an operator's command.
const (
	opOK      = 0
	opFailed  = 1 // refused (not an operator), or it could not be done
	opBadArgs = 2 // the command's arguments are wrong
)

// opError is an operator's command that could not be done: its line, and
// its exit status.
type opError struct {
	code int
	line string
}

func (e *opError) Error() string { return e.line }

// ArgsError is what a Reporter returns for arguments it cannot read: the
// operator is told its line, exit status 2.
type ArgsError struct{ Err error }

func (e *ArgsError) Error() string { return e.Err.Error() }
func (e *ArgsError) Unwrap() error { return e.Err }

func badArgs(format string, args ...any) error {
	return &opError{opBadArgs, fmt.Sprintf(format, args...)}
}

func failed(format string, args ...any) error {
	return &opError{opFailed, fmt.Sprintf(format, args...)}
}

// operate runs a stand's command for an operator's key, or refuses it
// in one line for any other (logged, as every command is): its answer on
// the session's output, its exit status 0, 1 or 2.
func (s *Server) operate(sess ssh.Session) {
	s.metrics.sessions.WithLabelValues("operator").Inc()
	cmd := sess.Command()
	key := "none"
	if k := sess.PublicKey(); k != nil {
		key = gossh.FingerprintSHA256(k)
	}
	logger := s.log.With("from", addr(sess.RemoteAddr()), "key", key, "command", cmd[0])
	// A client that stops reading has its connection closed, as a
	// player's (WriteStall).
	_, _, terminal := sess.Pty()
	stalled := func() { closeConnection(sess) }
	out := lineWriter{w: newStallWriter(sess, s.o.WriteStall, stalled), crlf: terminal}
	errOut := lineWriter{w: newStallWriter(sess.Stderr(), s.o.WriteStall, stalled), crlf: terminal}
	if !s.o.Operators.has(key) {
		fmt.Fprintf(errOut, "tapis: %s is a command of the stand's operators, and this key is not one of theirs (--operator-keys)\n", cmd[0])
		logger.Warn("operator command refused", "why", "not an operator's key")
		sess.Exit(opFailed) //nolint:errcheck // a client gone hears nothing
		return
	}
	// A command holds the connection as a game does: the login grace does
	// not close it under a long report.
	if c := gatedOf(sess.Context()); c != nil {
		if !c.begin() {
			return
		}
		defer c.end()
	}
	err := s.command(sess.Context(), out, logger, cmd[0], cmd[1:], sess.RawCommand())
	var oe *opError
	var ae *ArgsError
	switch {
	case err == nil:
		sess.Exit(opOK) //nolint:errcheck // a client gone hears nothing
		return
	case errors.As(err, &oe):
	case errors.As(err, &ae):
		oe = &opError{opBadArgs, cmd[0] + ": " + text.Printable(ae.Error())}
	default: // the store's words are for the log
		logger.Error("operator command failed", "err", text.Printable(err.Error()))
		oe = &opError{opFailed, cmd[0] + ": the store did not answer (the server's log says why)"}
	}
	fmt.Fprintf(errOut, "tapis: %s\n", oe.line)
	logger.Info("operator command not done", "why", oe.line)
	sess.Exit(oe.code) //nolint:errcheck // a client gone hears nothing
}

// command runs one of the stand's commands, writing its answer to out;
// raw is the command as the client sent it, for announce's text.
func (s *Server) command(ctx context.Context, out io.Writer, logger *log.Logger, name string, args []string, raw string) error {
	n, usage := argsOf(name)
	if name != opReport && len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		// Asked, not done: an announcement of "--help" went to every
		// screen of the stand. report's flags are tapis report's.
		fmt.Fprintf(out, "usage: ssh HOST %s\n", usage)
		logger.Info("usage asked")
		return nil
	}
	if n >= 0 && len(args) != n {
		return badArgs("usage: ssh HOST %s", usage)
	}
	switch name {
	case opPause, opResume:
		paused := name == opPause
		changed := s.stand.pause(paused) // this server at once, whatever the store says
		everywhere := s.shareStand(ctx, logger, func(ctx context.Context) (store.Stand, error) { return s.o.Store.SetPaused(ctx, paused) })
		if paused {
			logger.Info("sales paused", "changed", changed, "every_server", everywhere)
			fmt.Fprintf(out, "sales paused %s: no new purchase, the reveals under way finish; ssh HOST resume to sell again\n", where(everywhere))
		} else {
			logger.Info("sales resumed", "changed", changed, "every_server", everywhere)
			fmt.Fprintf(out, "sales resumed %s\n", where(everywhere))
		}
		return nil
	case opAnnounce:
		return s.announce(ctx, out, logger, raw)
	case opPlayers:
		n := s.listPlayers(out)
		logger.Info("players listed", "players", n)
		return nil
	case opKick:
		return s.kickPlayer(out, logger, args[0])
	case opTopup:
		return s.topup(ctx, out, logger, args[0], args[1])
	}
	if s.o.Report == nil {
		return failed("report: this server has no report to give")
	}
	ctx, cancel := context.WithTimeout(ctx, reportWait)
	defer cancel()
	logger.Info("report asked")
	return s.o.Report(ctx, out, args)
}

// argsOf returns how many arguments a command takes, -1 for any (announce:
// its words; report: tapis report's flags), and its usage.
func argsOf(name string) (n int, usage string) {
	switch name {
	case opKick:
		return 1, "kick ACCOUNT"
	case opTopup:
		return 2, "topup ACCOUNT EUR"
	case opAnnounce:
		return -1, "announce TEXT"
	case opReport:
		return -1, "report [FLAGS]"
	}
	return 0, name // pause, resume, players
}

// announce shows one line on every screen, players' and boards', for
// announceFor: the text of the command as sent (raw), past its first
// word, so that an apostrophe is kept (ssh HOST announce "L'heure du
// café" sends it unquoted); quotes around the whole text are taken off.
func (s *Server) announce(ctx context.Context, out io.Writer, logger *log.Logger, raw string) error {
	_, said, _ := strings.Cut(strings.TrimSpace(raw), opAnnounce)
	said = strings.TrimSpace(said)
	for _, q := range []string{`"`, `'`} {
		if len(said) >= 2 && strings.HasPrefix(said, q) && strings.HasSuffix(said, q) {
			said = said[1 : len(said)-1]
		}
	}
	msg := text.Printable(strings.Join(strings.Fields(said), " "))
	if msg == "" {
		_, usage := argsOf(opAnnounce)
		return badArgs("usage: ssh HOST %s", usage)
	}
	if utf8.RuneCountInString(msg) > maxAnnounce {
		return badArgs("announce: %d characters at most (one line of a narrow screen)", maxAnnounce)
	}
	until := time.Now().Add(announceFor)
	s.stand.announce(msg, until)
	everywhere := s.shareStand(ctx, logger, func(ctx context.Context) (store.Stand, error) { return s.o.Store.SetAnnounce(ctx, msg, until) })
	players, boards := s.Playing(), s.Watching()
	logger.Info("announced", "text", msg, "players", players, "boards", boards, "every_server", everywhere)
	fmt.Fprintf(out, "announced for %s %s: players %d, boards %d here\n", minutes(announceFor), where(everywhere), players, boards)
	return nil
}

// shareStand writes a change of the stand in the store, for every server
// of it to follow within store.PresenceEvery; it reports whether the store
// took it (when not, the change holds on this server only, and the log
// says why).
func (s *Server) shareStand(ctx context.Context, logger *log.Logger, set func(context.Context) (store.Stand, error)) bool {
	st, err := set(ctx)
	if err != nil {
		s.metrics.storeError("stand")
		logger.Error("the stand's change not recorded in the store: this server only", "err", text.Printable(err.Error()))
		return false
	}
	s.stand.followed(st.Changed)
	return true
}

// where says where a change of the stand holds.
func where(everywhere bool) string {
	if everywhere {
		return "on every server of the store"
	}
	return "on this server only (the store did not answer)"
}

// listPlayers writes who plays now on this server: account, guest or
// key, since when, the units bought this session, and the account's net
// result as its header shows it (since its first deposit, prizes not
// shown yet left out: the operators see no more than the player).
func (s *Server) listPlayers(out io.Writer) int {
	now := s.playersNow()
	fmt.Fprintf(out, "%-52s  %-5s  %-8s  %6s  %10s\n", "ACCOUNT", "KIND", "SINCE", "UNITS", "NET")
	for _, p := range now {
		kind := "key"
		if p.guest {
			kind = "guest"
		}
		sess := p.m.Session()
		net := sess.Spendable().Sub(sess.Origin())
		fmt.Fprintf(out, "%-52s  %-5s  %-8s  %6d  %10s\n", p.account, kind, p.start.Local().Format(time.TimeOnly), sess.Totals().Played, net.StringFixed(2))
	}
	fmt.Fprintf(out, "%d playing\n", len(now))
	return len(now)
}

// kickPlayer ends the game of the player playing as account (or the one
// account it is the start of): what is being revealed is kept for their
// next visit.
func (s *Server) kickPlayer(out io.Writer, logger *log.Logger, account string) error {
	p, err := s.playerNamed(account)
	if err != nil {
		return err
	}
	p.kick()
	logger.Info("kicked", "account", p.account)
	fmt.Fprintf(out, "kicked %s\n", p.account)
	return nil
}

// playerNamed returns the player playing as account now, or the one whose
// account starts with it.
func (s *Server) playerNamed(account string) (*player, error) {
	account = text.Printable(account)
	var found []*player
	for _, p := range s.playersNow() {
		if p.account == account {
			return p, nil
		}
		if strings.HasPrefix(p.account, account) {
			found = append(found, p)
		}
	}
	switch {
	case len(found) == 1 && len(account) >= 8:
		return found[0], nil
	case len(found) > 1:
		return nil, failed("%s: %d players' accounts start so: give more of it", account, len(found))
	}
	return nil, failed("%s: no one plays as this account on this server now (ssh HOST players)", account)
}

// topup credits an account that exists and is not playing (held by no
// seller: its lease is taken for the deposit), as one deposit record.
func (s *Server) topup(ctx context.Context, out io.Writer, logger *log.Logger, account, eur string) error {
	account = text.Printable(account)
	amount, err := game.ParseAmount(eur)
	if err != nil || !amount.IsPositive() || amount.GreaterThan(decimal.NewFromInt(maxTopup)) {
		return badArgs("topup %s: want an amount in euros, more than 0 and at most %d (10 or 2.50)", text.Printable(eur), maxTopup)
	}
	ctx, cancel := context.WithTimeout(ctx, storeWait)
	defer cancel()
	if _, err := s.o.Store.Account(ctx, account, 0); errors.Is(err, store.ErrNoAccount) {
		return failed("topup: no account %s in the store (ssh HOST players names those playing)", account)
	} else if err != nil {
		return err
	}
	lease, err := s.o.Store.Hold(ctx, account)
	var inUse *store.InUseError
	if errors.As(err, &inUse) {
		return failed("topup: %s is playing now (here or on another server): ssh HOST kick it first, or wait", account)
	} else if err != nil {
		return err
	}
	defer lease.Release() //nolint:errcheck // the lease lapses anyway
	if err := s.o.Store.Deposit(ctx, account, amount); err != nil {
		return err
	}
	a, err := s.o.Store.Account(ctx, account, 0)
	if err != nil {
		return err
	}
	logger.Info("topped up", "account", account, "eur", amount.StringFixed(2), "balance", a.Balance.StringFixed(2))
	fmt.Fprintf(out, "deposited %s € to %s: balance %s €\n", amount.StringFixed(2), account, a.Balance.StringFixed(2))
	return nil
}

// lineWriter writes lines to a session: with a terminal, each "\n" as
// "\r\n".
type lineWriter struct {
	w    io.Writer
	crlf bool
}

func (l lineWriter) Write(p []byte) (int, error) {
	if !l.crlf {
		return l.w.Write(p)
	}
	if _, err := l.w.Write([]byte(strings.ReplaceAll(string(p), "\n", "\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}
