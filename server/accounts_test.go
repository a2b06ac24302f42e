package server

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

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
// second takes the account at once.
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

	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.cmd.Wait() //nolint:errcheck // killed: its status says so
	start := time.Now()
	again := open(t, second.dial(t, key), 100, 30, nil, "")
	again.waitFor(t, "Choose a game")
	t.Logf("the account taken %v after its server's SIGKILL", time.Since(start).Round(time.Millisecond))
}
