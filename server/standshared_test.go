package server

import (
	"path/filepath"
	"strings"
	"testing"

	"tapis/internal/pgtest"
)

func TestSQLitePauseEveryServer(t *testing.T) {
	pauseEveryServer(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
}

func TestPostgresPauseEveryServer(t *testing.T) { pauseEveryServer(t, pgtest.Fresh(t)) }

// pauseEveryServer: ssh A pause stops the sales of every server of the
// store, B's within its presence's beat, its players told; an
// announcement on A shows on B's players' screens; ssh B resume sells
// again on A; a server started on a paused store starts paused.
func pauseEveryServer(t *testing.T, url string) {
	op := newKey(t)
	ops := func(o *Options) { o.Operators = operatorsOf(t, op) }
	a, b := startServerOn(t, url, ops), startServerOn(t, url, ops)
	player := open(t, b.dial(t, newKey(t)), 100, 30, map[string]string{"LANG": "en_US.UTF-8"}, "")
	player.waitFor(t, "Choose a game")

	out, _, code := a.command(t, op, "pause")
	if code != 0 || !strings.Contains(out, "on every server of the store") {
		t.Fatalf("pause on A: %d %q", code, out)
	}
	waitUntil(t, "B paused by A's host", b.stand.isPaused)
	player.waitFor(t, "Sales are paused by the stand")
	if _, _, code := a.command(t, op, "announce le tirage à 18 h"); code != 0 {
		t.Fatalf("announce on A: %d", code)
	}
	player.waitFor(t, "le tirage à 18 h")

	c := startServerOn(t, url, ops)
	waitUntil(t, "a server started on a paused store, paused", c.stand.isPaused)

	if out, _, code := b.command(t, op, "resume"); code != 0 || !strings.Contains(out, "on every server") {
		t.Fatalf("resume on B: %d %q", code, out)
	}
	waitUntil(t, "A resumed by B's host", func() bool { return !a.stand.isPaused() && !c.stand.isPaused() })
	if !strings.Contains(a.log.String(), "every_server=true") || !strings.Contains(a.log.String(), "the stand as the store has it") {
		t.Errorf("A's log:\n%s", a.log)
	}
}
