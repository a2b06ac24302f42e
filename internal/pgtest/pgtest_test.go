package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// skipRecorder is a testing.TB whose Skip records its message and stops the
// goroutine, as testing.T's does, without skipping the real test.
type skipRecorder struct {
	testing.TB
	msg     string
	skipped bool
	failed  bool
}

func (r *skipRecorder) Skip(args ...any) {
	r.msg = fmt.Sprint(args...)
	r.skipped = true
	runtime.Goexit()
}

// Fatal records its message and stops the goroutine, as testing.T's does,
// without failing the real test.
func (r *skipRecorder) Fatal(args ...any) {
	r.msg = fmt.Sprint(args...)
	r.failed = true
	runtime.Goexit()
}

// urlOn calls URL with rec and waits for it to return or stop.
func urlOn(rec *skipRecorder) (returned string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		returned = URL(rec)
	}()
	<-done
	return returned
}

// TestURLFailsWithoutVariableWhenRequired: with RequireVar set, as CI
// sets it, a test needing PostgreSQL without a server fails instead of
// skipping, in one line naming both variables.
func TestURLFailsWithoutVariableWhenRequired(t *testing.T) {
	t.Setenv(EnvVar, "")
	t.Setenv(RequireVar, "1")
	rec := &skipRecorder{TB: t}
	got := urlOn(rec)
	if !rec.failed || rec.skipped {
		t.Fatalf("URL returned %q (skipped %v) without %s and with %s, instead of failing", got, rec.skipped, EnvVar, RequireVar)
	}
	if !strings.Contains(rec.msg, EnvVar) || !strings.Contains(rec.msg, RequireVar) || strings.Contains(rec.msg, "\n") {
		t.Errorf("failure %q: want one line naming %s and %s", rec.msg, EnvVar, RequireVar)
	}
}

func TestURLSkipsWithoutVariable(t *testing.T) {
	t.Setenv(EnvVar, "")
	t.Setenv(RequireVar, "")
	rec := &skipRecorder{TB: t}
	if got := urlOn(rec); !rec.skipped {
		t.Fatalf("URL returned %q without %s instead of skipping", got, EnvVar)
	}
	if rec.msg != SkipMessage {
		t.Errorf("skip message %q, want %q", rec.msg, SkipMessage)
	}
	if !strings.Contains(rec.msg, "TAPIS_TEST_POSTGRES") || strings.Contains(rec.msg, "\n") {
		t.Errorf("skip message %q: want one line naming TAPIS_TEST_POSTGRES", rec.msg)
	}
}

func TestURLReadsVariable(t *testing.T) {
	const want = "postgres://someone@127.0.0.1:1/db?sslmode=disable"
	t.Setenv(EnvVar, want)
	if got := URL(t); got != want {
		t.Errorf("URL = %q, want %q", got, want)
	}
}

func TestCreateDatabaseRejectsNonURL(t *testing.T) {
	for _, server := range []string{"host=db user=secret password=hunter2", "mysql://u:hunter2@h/db", "%zz"} {
		_, _, err := CreateDatabase(t.Context(), server, "tapis_t_")
		if err == nil {
			t.Errorf("CreateDatabase(%q) made a database", server)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("CreateDatabase(%q): the error %q shows the password", server, err)
		}
	}
}

// dbExists tells whether the server at serverURL has a database named name.
func dbExists(t *testing.T, serverURL, name string) bool {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), serverURL)
	if err != nil {
		t.Fatalf("connecting to the test server: %v", err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil {
		t.Fatalf("reading pg_database: %v", err)
	}
	return n == 1
}

// dbName is the database a connection URL names.
func dbName(t *testing.T, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("Fresh returned %q, not a URL: %v", dbURL, err)
	}
	return strings.TrimPrefix(u.Path, "/")
}

func TestPostgresFreshCreatesUsesAndDrops(t *testing.T) {
	server := URL(t)
	var name string
	var leftOpen *pgx.Conn
	t.Run("use", func(t *testing.T) {
		dbURL := Fresh(t)
		name = dbName(t, dbURL)
		if !strings.HasPrefix(name, "tapis_t_") || len(name) != len("tapis_t_")+16 {
			t.Fatalf("database %q: want tapis_t_ and 16 hex digits", name)
		}
		su, err := url.Parse(server)
		if err != nil {
			t.Fatalf("%s is not a URL: %v", EnvVar, err)
		}
		du, _ := url.Parse(dbURL)
		if du.Scheme != su.Scheme || du.User.String() != su.User.String() || du.Host != su.Host || du.RawQuery != su.RawQuery {
			t.Errorf("Fresh's URL %s does not keep all but the database of the server's, %s", du.Redacted(), su.Redacted())
		}
		if !dbExists(t, server, name) {
			t.Fatalf("database %s is not on the server", name)
		}

		conn, err := pgx.Connect(t.Context(), dbURL)
		if err != nil {
			t.Fatalf("connecting to the fresh database: %v", err)
		}
		defer conn.Close(context.Background())
		var current string
		var tables int
		if err := conn.QueryRow(t.Context(),
			"SELECT current_database(), (SELECT count(*) FROM pg_tables WHERE schemaname = 'public')").Scan(&current, &tables); err != nil {
			t.Fatalf("reading the fresh database: %v", err)
		}
		if current != name || tables != 0 {
			t.Fatalf("connected to %s with %d tables, want %s with none", current, tables, name)
		}
		if _, err := conn.Exec(t.Context(), "CREATE TABLE t (n int PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3)"); err != nil {
			t.Fatalf("writing the fresh database: %v", err)
		}
		var sum int
		if err := conn.QueryRow(t.Context(), "SELECT sum(n) FROM t").Scan(&sum); err != nil || sum != 6 {
			t.Fatalf("sum of 1, 2, 3 read back as %d (%v)", sum, err)
		}

		// A connection still open when the test ends does not keep its
		// database alive.
		leftOpen, err = pgx.Connect(t.Context(), dbURL)
		if err != nil {
			t.Fatalf("connecting a second time: %v", err)
		}
		if _, err := leftOpen.Exec(t.Context(), "SELECT 1"); err != nil {
			t.Fatalf("using the second connection: %v", err)
		}
	})
	if name == "" {
		t.Fatal("the subtest made no database")
	}
	if dbExists(t, server, name) {
		t.Errorf("database %s is still on the server after its test", name)
	}
	if leftOpen != nil {
		if _, err := leftOpen.Exec(t.Context(), "SELECT 1"); err == nil {
			t.Errorf("the connection left open still works after its database %s was dropped", name)
		}
		leftOpen.Close(context.Background())
	}
}

func TestPostgresFreshIsolates(t *testing.T) {
	a, b := Fresh(t), Fresh(t)
	if dbName(t, a) == dbName(t, b) {
		t.Fatalf("two Fresh calls gave the same database %s", dbName(t, a))
	}
	ca, err := pgx.Connect(t.Context(), a)
	if err != nil {
		t.Fatalf("connecting to %s: %v", dbName(t, a), err)
	}
	defer ca.Close(context.Background())
	if _, err := ca.Exec(t.Context(), "CREATE TABLE only_in_a (n int)"); err != nil {
		t.Fatalf("creating a table: %v", err)
	}
	cb, err := pgx.Connect(t.Context(), b)
	if err != nil {
		t.Fatalf("connecting to %s: %v", dbName(t, b), err)
	}
	defer cb.Close(context.Background())
	var n int
	if err := cb.QueryRow(t.Context(), "SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'").Scan(&n); err != nil {
		t.Fatalf("reading pg_tables: %v", err)
	}
	if n != 0 {
		t.Errorf("a table made in %s shows in %s", dbName(t, a), dbName(t, b))
	}
}
