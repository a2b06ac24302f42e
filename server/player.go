package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"

	"tapis/text"
	"tapis/ui"
)

// guestKey keeps, in a connection's context, the account of a player who
// came without a key: a guest for as long as the connection lasts.
type guestKey struct{}

// guestIn lets a player in without a key, and names their guest account.
func guestIn(ctx ssh.Context, _ gossh.KeyboardInteractiveChallenge) bool {
	b := make([]byte, 6)
	rand.Read(b) // never fails (crypto/rand)
	ctx.SetValue(guestKey{}, "guest-"+hex.EncodeToString(b))
	return true
}

// accountOf names the account a session plays for: the SHA-256
// fingerprint of the public key it authenticated with, or the guest
// account of its connection; guest is true for the latter.
func accountOf(sess ssh.Session) (account string, guest bool) {
	if k := sess.PublicKey(); k != nil {
		return gossh.FingerprintSHA256(k), false
	}
	name, _ := sess.Context().Value(guestKey{}).(string)
	return name, true
}

// play is the handler of each SSH session: it lets the player in, or
// tells them in one line why not, then runs their game until they quit,
// the connection drops, they stay idle too long or the server closes.
func (s *Server) play(sess ssh.Session) {
	start := time.Now()
	env := sess.Environ()
	pty, _, terminal := sess.Pty()
	if terminal {
		env = append(env, "TERM="+pty.Term)
	}
	lang := ui.LangFromEnv(getenv(env))
	account, guest := accountOf(sess)
	logger := s.log.With("account", account, "from", addr(sess.RemoteAddr()))
	refuse := func(l line, args ...any) {
		fmt.Fprintf(sess.Stderr(), "%s\r\n", l.say(lang, args...))
		sess.Exit(1)
		logger.Info("refused", "why", l.reason())
	}
	switch {
	case len(sess.Command()) > 0:
		refuse(lineCommand, howToPlay(sess.LocalAddr()))
		return
	case !terminal:
		refuse(lineNoTerminal, howToPlay(sess.LocalAddr()))
		return
	case account == "": // no key and no keyboard-interactive: cannot happen
		refuse(lineUnavailable)
		return
	}
	if l, ok := s.claim(account); !ok {
		if l == lineFull {
			refuse(l, s.o.MaxSessions)
		} else {
			refuse(l)
		}
		return
	}
	defer s.release(account)
	m, err := ui.New(ui.Options{Lang: lang, Balance: s.o.Balance, Start: ui.MenuScreen, QA: s.o.QA,
		Seller: s.seller, Account: account, Profile: colorprofile.Env(env), RealityCheck: s.o.RealityCheck})
	if err != nil {
		logger.Error("account not opened", "err", text.Printable(err.Error()))
		refuse(lineUnavailable)
		return
	}
	in := &idleInput{r: sess, d: s.o.IdleTimeout}
	prog := tea.NewProgram(m, append(bubbletea.MakeOptions(sess), tea.WithInput(in))...)
	in.watch(prog)
	// The middleware runs the program on the session: its PTY's size, and
	// each window change, reach the game as tea.WindowSizeMsg.
	bubbletea.MiddlewareWithProgramHandler(func(ssh.Session) *tea.Program { return prog })(func(ssh.Session) {})(sess)
	idled := in.stop()
	end := "quit"
	switch {
	case idled:
		end = "idle"
		fmt.Fprintf(sess.Stderr(), "%s\r\n", lineIdle.say(lang, minutes(s.o.IdleTimeout)))
	case sess.Context().Err() != nil:
		end = "disconnected"
	}
	if err := m.Close(); err != nil {
		logger.Error("closing the session", "err", text.Printable(err.Error()))
	}
	t := m.Totals()
	logger.Info("played", "guest", guest, "lang", string(lang), "for", time.Since(start).Round(time.Second),
		"units", t.Played, "staked", t.Staked.StringFixed(2), "won", t.Won.StringFixed(2), "end", end)
}

// reason names a refusal in the log.
func (l line) reason() string {
	switch l {
	case lineCommand:
		return "command"
	case lineNoTerminal:
		return "no terminal"
	case lineFull:
		return "full"
	case lineElsewhere:
		return "playing elsewhere"
	case lineClosing:
		return "closing"
	}
	return "account not opened"
}

// getenv reads a session's environment as os.Getenv reads the process's.
func getenv(env []string) func(string) string {
	return func(key string) string {
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok && k == key {
				return v
			}
		}
		return ""
	}
}

// howToPlay is the command line that plays on this server.
func howToPlay(local net.Addr) string {
	host, port, err := net.SplitHostPort(local.String())
	if err != nil {
		return "ssh -t HOST"
	}
	return "ssh -t -p " + port + " " + host
}

// addr writes a network address for the log.
func addr(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}

// idleInput is a session's input, that quits its program once no input
// came for d (never when d is 0).
type idleInput struct {
	r     io.Reader
	d     time.Duration
	timer *time.Timer
	idled atomic.Bool
}

// watch starts the count, for prog.
func (in *idleInput) watch(prog *tea.Program) {
	if in.d > 0 {
		in.timer = time.AfterFunc(in.d, func() {
			in.idled.Store(true)
			prog.Quit()
		})
	}
}

// Read reads the session, and starts the count again on any input.
func (in *idleInput) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	if n > 0 && in.timer != nil && !in.idled.Load() {
		in.timer.Reset(in.d)
	}
	return n, err
}

// stop stops the count, and reports whether the input was idle too long.
func (in *idleInput) stop() bool {
	if in.timer != nil {
		in.timer.Stop()
	}
	return in.idled.Load()
}
