package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	neturl "net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"tapis/internal/pgtest"
)

// TestRenewalFailureKeptUntilRead: a renewal that failed is reported once,
// even when the next one was answered before anyone looked (a server looks
// every 10 s, on the beat the store renews on).
func TestRenewalFailureKeptUntilRead(t *testing.T) {
	var s SQL
	if _, err := s.RenewalFailed(); err != nil {
		t.Fatalf("before any renewal: %v", err)
	}
	before := time.Now()
	cut := errors.New("connection refused")
	s.leases.renewed(cut)
	s.leases.renewed(nil)
	if at, err := s.RenewalFailed(); !errors.Is(err, cut) || at.Before(before) || time.Since(at) > time.Minute {
		t.Fatalf("a failure followed by a renewal answered, read: %v at %v", err, at)
	}
	if _, err := s.RenewalFailed(); err != nil {
		t.Fatalf("read twice: %v", err)
	}
	if s.leases.steady() {
		t.Error("the sweep does not wait after a failed renewal")
	}
}

// TestPostgresRenewalFailedSaysSo: the store renews its leases on its
// own; while the database refuses it, RenewalFailed says why, and once
// the database answers again the lines in sellers are renewed and nothing
// more is said.
func TestPostgresRenewalFailedSaysSo(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Fresh(t)
	a := openLeasing(t, url)
	a.leases.every = 20 * time.Millisecond
	held, err := a.Hold(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for start := time.Now(); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("no %s within 10 s", what)
			}
		}
	}
	server, err := sql.Open("pgx", pgtest.URL(t)) // the server's own database: a database refuses only others
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	allow := func(yes bool) {
		t.Helper()
		q := fmt.Sprintf(`ALTER DATABASE %s ALLOW_CONNECTIONS %t`, pgx.Identifier{name}.Sanitize(), yes)
		if _, err := server.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	allow(false)
	defer allow(true)
	if _, err := server.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, name); err != nil {
		t.Fatal(err)
	}
	var failed error
	waitFor("renewal failed", func() bool { _, failed = a.RenewalFailed(); return failed != nil })
	if msg := failed.Error(); strings.Contains(msg, "\n") {
		t.Errorf("the renewal's error holds a newline: %q", msg)
	}
	allow(true)
	b := openLeasing(t, url)
	seen := func() int64 {
		t.Helper()
		var n int64
		if err := b.db.QueryRowContext(ctx, `SELECT seen FROM sellers WHERE account = 'alice'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := seen()
	waitFor("renewal answered again", func() bool { return seen() > before })
	a.RenewalFailed() // what failed while the database came back
	time.Sleep(5 * a.leases.every)
	if _, err := a.RenewalFailed(); err != nil {
		t.Errorf("renewals answered, still said to fail: %v", err)
	}
}
