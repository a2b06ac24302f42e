package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// TestShutdown: a player mid-reveal and a player on the menu when the
// server shuts down. No one else gets in; the idle player's game ends at
// once, the other's once their ticket is scratched and recorded shown;
// both terminals are given back, both players are told, and the log says
// how each session ended.
func TestShutdown(t *testing.T) {
	ts := startServer(t, nil)
	idle := open(t, ts.dial(t, newKey(t)), 100, 30, map[string]string{"LANG": "fr_FR.UTF-8"}, "")
	key := newKey(t)
	account := gossh.FingerprintSHA256(key.PublicKey())
	player := open(t, ts.dial(t, key), 100, 30, nil, "")
	idle.waitFor(t, "Choisissez un jeu")
	player.waitFor(t, "Choose a game")
	player.press(t, "2") // Vegas
	player.waitFor(t, "Buy a ticket")
	player.press(t, "\r") // a ticket bought, still to scratch
	waitUntil(t, "the purchase", func() bool { return ts.account(t, account).Purchases == 1 })

	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- ts.Shutdown(ctx) }()

	if status := idle.exit(t); status != 0 {
		t.Errorf("the idle player: exit status %d, want 0", status)
	}
	if err := restored(idle.out.String()); err != nil {
		t.Errorf("the idle player's terminal: %v", err)
	}
	if got, want := idle.errOut.String(), "tapis : le serveur ferme : parties 0 · misé 0,00 € · gagné 0,00 € · net 0,00 €. Votre compte est votre clé"; !strings.HasPrefix(got, want) {
		t.Errorf("the idle player was told %q, want %q…", got, want)
	}

	player.waitFor(t, "Server closing in")
	if c, err := net.DialTimeout("tcp", ts.addr, waitLimit); err == nil {
		c.Close()
		t.Error("a connection was accepted once the shutdown began")
	}
	player.press(t, "a") // scratches what is left
	if status := player.exit(t); status != 0 {
		t.Errorf("the player mid-reveal: exit status %d, want 0", status)
	}
	if err := restored(player.out.String()); err != nil {
		t.Errorf("the player's terminal: %v", err)
	}
	if got := player.errOut.String(); !strings.HasPrefix(got, "tapis: the server is closing: played 1 · staked €3.00 · won ") {
		t.Errorf("the player was told %q", got)
	}
	select {
	case err := <-shut:
		if err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Shutdown did not return")
	}
	if a := ts.account(t, account); a.Purchases != 1 || len(a.Pending) != 0 {
		t.Errorf("after the shutdown: %d purchases, %d pending; want the ticket bought and shown", a.Purchases, len(a.Pending))
	}
	logs := ts.log.String()
	if n := strings.Count(logs, `end="server closing"`); n != 2 {
		t.Errorf("%d sessions logged as ended by the server closing, want 2:\n%s", n, logs)
	}
	if !regexp.MustCompile(`played account=` + regexp.QuoteMeta(account) + ` .* units=1 staked=3.00 won=\S+ pending=0 end="server closing"`).MatchString(logs) {
		t.Errorf("the player's log line:\n%s", logs)
	}
}

// TestClosedUnitOfferedAgain: a ticket bought and never scratched when
// the server ends (at once, or once the shutdown's time is up) is the
// player's still: their terminal is given back, the log counts it
// pending, and a server started again offers it at once.
func TestClosedUnitOfferedAgain(t *testing.T) {
	for _, how := range []string{"Close", "Shutdown cut short"} {
		t.Run(how, func(t *testing.T) {
			ts := startServer(t, nil)
			key := newKey(t)
			account := gossh.FingerprintSHA256(key.PublicKey())
			player := open(t, ts.dial(t, key), 100, 30, nil, "")
			player.waitFor(t, "Choose a game")
			player.press(t, "2")
			player.waitFor(t, "Buy a ticket")
			player.press(t, "\r")
			waitUntil(t, "the purchase", func() bool { return ts.account(t, account).Purchases == 1 })
			player.waitFor(t, "SCRATCH HERE")

			if how == "Close" {
				if err := ts.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			} else {
				ctx, cancel := context.WithCancel(context.Background())
				shut := make(chan error, 1)
				go func() { shut <- ts.Shutdown(ctx) }()
				player.waitFor(t, "The server is closing: finish your unit")
				cancel() // the time is up
				if err := <-shut; !errors.Is(err, context.Canceled) {
					t.Errorf("Shutdown cut short: %v, want the context's error", err)
				}
			}
			player.exit(t)
			if err := restored(player.out.String()); err != nil {
				t.Errorf("the player's terminal: %v", err)
			}
			if !strings.Contains(ts.log.String(), `units=1 staked=3.00 won=0.00 pending=1 end="server closing"`) {
				t.Errorf("the log:\n%s", ts.log.String())
			}
			if a := ts.account(t, account); len(a.Pending) != 1 {
				t.Fatalf("%d units pending, want the ticket", len(a.Pending))
			}

			again := restart(t, ts)
			back := open(t, again.dial(t, key), 100, 30, nil, "")
			back.waitFor(t, "Your last session did not reveal this unit to the end")
		})
	}
}

// TestDisconnectIsNotQuit: a player whose client closes the session,
// the connection staying open (a multiplexed ssh), is logged as
// disconnected, and their account is free again.
func TestDisconnectIsNotQuit(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.dial(t, newKey(t))
	term := open(t, c, 100, 30, nil, "")
	term.waitFor(t, "Choose a game")
	term.in.Close() // the client's input ends: the player is gone
	term.exit(t)
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(ts.log.String(), "end=") })
	if logs := ts.log.String(); !strings.Contains(logs, "end=disconnected") {
		t.Errorf("the log:\n%s", logs)
	}
	if got := term.errOut.String(); got != "" {
		t.Errorf("a player gone was told %q", got)
	}
	waitUntil(t, "the account freed", func() bool { return ts.Playing() == 0 })
}

// TestGoodbye: a player who quits reads their session's outcome, and
// what becomes of their account: their key's, or a guest's that ends.
func TestGoodbye(t *testing.T) {
	ts := startServer(t, nil)
	for _, c := range []struct {
		guest          bool
		env            map[string]string
		onYams, rolled string    // what the screen shows on Yam's, and once a cup is rolled
		done           [2]string // and once the unit is shown to its end, lost or won (Auto rolls one cup after another)
		want           string
	}{
		{false, nil, "enter play", "Total: ", [2]string{"No win this time", "You win"}, "tapis: thanks for playing! played 1 · staked €1.00 · won €"},
		{true, map[string]string{"LANG": "fr_FR.UTF-8"}, "entrée jouer", "Total : ", [2]string{"Pas de gain cette fois", "Vous gagnez"}, "tapis : merci d'avoir joué ! parties 1 · misé 1,00 € · gagné "},
	} {
		key := newKey(t)
		if c.guest {
			key = nil
		}
		term := open(t, ts.dial(t, key), 100, 30, c.env, "")
		term.press(t, "1") // Yam's
		term.waitFor(t, c.onYams)
		term.press(t, "a") // a unit bought, rolled at once
		term.waitFor(t, c.rolled)
		waitUntil(t, "the unit's result", func() bool {
			return strings.Contains(term.screen(), c.done[0]) || strings.Contains(term.screen(), c.done[1])
		})
		term.press(t, "q")
		if status := term.exit(t); status != 0 {
			t.Errorf("exit status %d", status)
		}
		got := term.errOut.String()
		tail := ". Your account is your key: come back with the same one to find your balance, history and unrevealed units\r\n"
		if c.guest {
			tail = ". Vous jouiez en invité : ce compte se termine avec la connexion\r\n"
		}
		if !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, tail) || strings.Count(got, "\n") != 1 {
			t.Errorf("told %q, want %q…%q", got, c.want, tail)
		}
	}
	if n := strings.Count(ts.log.String(), "end=quit"); n != 2 {
		t.Errorf("%d sessions logged as quit, want 2:\n%s", n, ts.log.String())
	}
}

// restart starts another server on ts's store, with its options, as tapis
// serve started again would.
func restart(t *testing.T, ts *testServer) *testServer {
	t.Helper()
	srv, addr := serve(t, ts.o)
	return &testServer{Server: srv, addr: addr, store: ts.store, log: ts.log}
}

// restored checks that a game's output gave the terminal back: each mode
// the game set (alternate screen, hidden cursor, bracketed paste, mouse
// reporting) is reset after it was last set, and nothing is drawn after
// the alternate screen is left.
func restored(out string) error {
	for _, m := range []struct{ name, set, reset string }{
		{"alternate screen", "\x1b[?1049h", "\x1b[?1049l"},
		{"hidden cursor", "\x1b[?25l", "\x1b[?25h"},
		{"bracketed paste", "\x1b[?2004h", "\x1b[?2004l"},
		{"mouse reporting", "\x1b[?1002h", "\x1b[?1002l"},
		{"mouse SGR", "\x1b[?1006h", "\x1b[?1006l"},
	} {
		set, reset := strings.LastIndex(out, m.set), strings.LastIndex(out, m.reset)
		if set < 0 {
			return fmt.Errorf("%s never set: not the game's output? %q", m.name, tail(out))
		}
		if reset < set {
			return fmt.Errorf("%s left on: the output ends %q", m.name, tail(out))
		}
	}
	_, after, _ := strings.Cut(out[strings.LastIndex(out, "\x1b[?1049l"):], "\x1b[?1049l")
	if s := ansi.Strip(after); s != "" {
		return fmt.Errorf("%q drawn after the alternate screen was left", s)
	}
	return nil
}

// tail is the end of an output, for a message.
func tail(out string) string { return out[max(0, len(out)-200):] }
