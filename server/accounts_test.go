package server

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"tapis/internal/pgtest"
)

func TestOneAccountAcrossServers(t *testing.T) {
	accountAcrossServers(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
}

func TestPostgresOneAccountAcrossServers(t *testing.T) {
	accountAcrossServers(t, pgtest.Fresh(t))
}

// accountAcrossServers: two servers on one store, one in a process of its
// own: a key playing on the first is refused on the second, as playing
// elsewhere, before anything is sold; the first killed (SIGKILL), the
// second takes the account at once, and does not offer again the unit
// seen on the first a moment before the kill.
func accountAcrossServers(t *testing.T, url string) {
	first := startChild(t, childOptions{Store: url})
	second := startServerOn(t, url, nil)
	key := newKey(t)
	playing := open(t, (&testServer{addr: first.addr}).dial(t, key), 100, 30, nil, "")
	playing.waitFor(t, "Choose a game")

	refused := open(t, second.dial(t, key), 100, 30, nil, "")
	refused.exit(t)
	if got := refused.errOut.String(); !strings.Contains(got, "playing elsewhere") {
		t.Fatalf("the same key on the second server was told %q", got)
	}
	waitUntil(t, "the refusal logged", func() bool { return strings.Contains(second.log.String(), `why="playing elsewhere"`) })

	// A unit rolled to the end (Auto rolls the cups one after another),
	// its shown mark in the store, then the first server killed: the unit
	// is not offered again.
	account := gossh.FingerprintSHA256(key.PublicKey())
	playing.press(t, "1")
	playing.waitFor(t, "enter play")
	playing.press(t, "\r")
	waitUntil(t, "the purchase", func() bool { return second.account(t, account).Purchases == 1 })
	playing.press(t, "a")
	waitUntil(t, "the unit shown", func() bool { return len(second.account(t, account).Pending) == 0 })
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.cmd.Wait() //nolint:errcheck // killed: its status says so
	start := time.Now()
	again := open(t, second.dial(t, key), 100, 30, nil, "")
	again.waitFor(t, "Choose a game")
	t.Logf("the account taken %v after its server's SIGKILL", time.Since(start).Round(time.Millisecond))
	a := second.account(t, account)
	if a.Purchases != 1 || len(a.Pending) != 0 || strings.Contains(again.screen(), "did not reveal") {
		t.Errorf("a unit seen before the kill: %d purchases, %d pending:\n%s", a.Purchases, len(a.Pending), again.screen())
	}
}
