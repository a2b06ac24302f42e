package server

import (
	"context"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestStopSelling: the server stops selling (its store found changed under
// it): every player is told why in one line, in their language, on the
// game's header and as their game ends; a player mid-reveal finishes it
// first, a board is told too, and the log names how each session ended.
func TestStopSelling(t *testing.T) {
	ts := startServer(t, nil)
	idle := open(t, ts.dial(t, newKey(t)), 100, 30, map[string]string{"LANG": "fr_FR.UTF-8"}, "")
	watcher := open(t, ts.dial(t, nil), 80, 24, nil, "board")
	key := newKey(t)
	account := gossh.FingerprintSHA256(key.PublicKey())
	player := open(t, ts.dial(t, key), 100, 30, nil, "")
	idle.waitFor(t, "Choisissez un jeu")
	watcher.waitFor(t, "live board")
	player.waitFor(t, "Choose a game")
	player.press(t, "2") // Vegas
	player.waitFor(t, "Buy a ticket")
	player.press(t, "\r") // a ticket bought, still to scratch
	waitUntil(t, "the purchase", func() bool { return ts.account(t, account).Purchases == 1 })
	player.waitFor(t, "SCRATCH HERE")

	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- ts.StopSelling(ctx) }()

	idle.exit(t)
	if got, want := idle.errOut.String(), "tapis : les ventes sont arrêtées, la réserve a été modifiée à l'insu de ce serveur : parties 0"; !strings.HasPrefix(got, want) {
		t.Errorf("the idle player was told %q, want %q…", got, want)
	}
	watcher.exit(t)
	if got, want := watcher.errOut.String(), "tapis: sales are stopped: the store was changed under this server\r\n"; got != want {
		t.Errorf("the board was told %q, want %q", got, want)
	}
	player.waitFor(t, "Sales are stopped: the store was changed under this server.")
	player.press(t, "\r") // the buy key, on the ticket being scratched: nothing more is bought
	player.press(t, "a")  // scratches what is left
	if status := player.exit(t); status != 0 {
		t.Errorf("the player mid-reveal: exit status %d, want 0", status)
	}
	if err := restored(player.out.String()); err != nil {
		t.Errorf("the player's terminal: %v", err)
	}
	if got := player.errOut.String(); !strings.HasPrefix(got, "tapis: sales are stopped, the store was changed under this server: played 1 · staked €3.00") ||
		strings.Count(got, "\n") != 1 {
		t.Errorf("the player was told %q", got)
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("StopSelling: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("StopSelling did not return")
	}
	if a := ts.account(t, account); a.Purchases != 1 || len(a.Pending) != 0 {
		t.Errorf("after the stop: %d purchases, %d pending; want the ticket bought and shown", a.Purchases, len(a.Pending))
	}
	logs := ts.log.String()
	if n := strings.Count(logs, `end="sales stopped"`); n != 3 {
		t.Errorf("%d sessions logged as ended by the sales stopped, want 3:\n%s", n, logs)
	}
}
