package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"runtime/debug"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"tapis/text"
)

// keyNeeded is what a player without a key is told by a server that takes
// keys only (--guests=false), before any language is known: both.
const keyNeeded = "tapis: this server plays with a key only: make one with ssh-keygen -t ed25519, then connect again\r\n" +
	"tapis : ce serveur se joue avec une clé : créez-en une avec ssh-keygen -t ed25519, puis reconnectez-vous\r\n"

// sshConfig is the SSH configuration of a connection: its login counted
// by its gate, and, with keys only, a player without a key refused with
// keyNeeded (shown by ssh before "Permission denied").
func (s *Server) sshConfig(c *gatedConn) *gossh.ServerConfig {
	conf := &gossh.ServerConfig{}
	if c != nil {
		conf.AuthLogCallback = func(_ gossh.ConnMetadata, _ string, err error) {
			if err == nil {
				c.loggedIn()
			}
		}
	}
	if s.o.KeysOnly {
		// No question asked: OpenSSH's ssh then tries keyboard-interactive
		// no more, so the banner shows once.
		conf.KeyboardInteractiveCallback = func(gossh.ConnMetadata, gossh.KeyboardInteractiveChallenge) (*gossh.Permissions, error) {
			s.gate.count("keys only")
			return nil, &gossh.BannerError{Err: ssh.ErrPermissionDenied, Message: keyNeeded}
		}
	}
	return conf
}

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

// housekeepingEvery is how often the log says which connections were
// refused or closed at the door, when any were (one line, not one a
// connection), and the memory of connections gone is given back.
const housekeepingEvery = 10 * time.Second

// housekeeping logs what the gate refused since its last report, and
// gives the system back the memory of the connections gone once the
// server holds half as many as it did: Go's runtime would keep it until
// its next collection, which an idle server may not run for minutes.
func (s *Server) housekeeping() {
	if kv := s.gate.report(); kv != nil {
		s.log.Info("connections refused", kv...)
	}
	if s.gate.shrunk() {
		debug.FreeOSMemory()
	}
	// The store renews its leases on its own (store.LeaseRenewEvery): this
	// says in the log when it could not, since the last look.
	if at, err := s.o.Store.RenewalFailed(); err != nil {
		s.metrics.storeError("leases")
		s.log.Error("renewing the accounts' leases", "at", at.Format(time.TimeOnly), "err", text.Printable(err.Error()))
	}
	// Units a killed seller's players left being revealed are no secret:
	// the boards count them.
	ctx, cancel := context.WithTimeout(context.Background(), housekeepingEvery)
	defer cancel()
	if n, err := s.o.Store.LeaveAbandoned(ctx); err != nil {
		s.metrics.storeError("sweep")
		s.log.Error("sweeping the units left being revealed", "err", text.Printable(err.Error()))
	} else if n > 0 {
		s.log.Info("units left being revealed by sellers gone", "units", n)
	}
}
