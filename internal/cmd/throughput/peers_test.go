package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"tapis/internal/pgtest"
)

// TestSQLitePeerClientCountsWhatItCommits runs one client in this process:
// the transactions it reports are the rows in the file, and it ran with
// tapis's settings.
func TestSQLitePeerClientCountsWhatItCommits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "peer.db")
	if err := createPeerSchema(t.Context(), path); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	code := sqlitePeerChild([]string{path, "200", "7"}, strings.NewReader("go\n"), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("client exited %d: %s", code, stderr.String())
	}
	ready, result, ok := strings.Cut(stdout.String(), "\n")
	if !ok || ready != "ready" {
		t.Fatalf("client printed %q, want ready then its count", stdout.String())
	}
	var r peerResult
	if err := json.Unmarshal([]byte(result), &r); err != nil {
		t.Fatalf("client's count %q: %v", result, err)
	}
	if r.Transactions < 1 || r.Seconds <= 0 {
		t.Fatalf("client reported %+v", r)
	}

	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows, other int64
	if err := db.QueryRow("SELECT count(*), count(*) FILTER (WHERE client != 7) FROM peer_history").Scan(&rows, &other); err != nil {
		t.Fatal(err)
	}
	if rows != r.Transactions || other != 0 {
		t.Errorf("the file holds %d rows (%d of another client), the client counted %d", rows, other, r.Transactions)
	}
	if err := checkSettings(t.Context(), db); err != nil {
		t.Errorf("a connection opened as the peer's: %v", err)
	}
}

func TestSQLitePeerChecksSettings(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "plain.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := checkSettings(t.Context(), db); err == nil {
		t.Error("checkSettings passed a database in rollback-journal mode with the default sync")
	}
}

func TestSQLitePeerClientBadArgs(t *testing.T) {
	for _, args := range [][]string{nil, {"x.db", "0", "1"}, {"x.db", "10", "one"}} {
		var stdout, stderr strings.Builder
		if code := sqlitePeerChild(args, strings.NewReader(""), &stdout, &stderr); code != 1 || !strings.HasPrefix(stderr.String(), "throughput: SQLite client: ") {
			t.Errorf("client %q exited %d with %q", args, code, stderr.String())
		}
	}
}

// TestSQLitePeerProcesses runs the peer as the program does, with its
// clients as processes (this test binary again, see TestMain), and checks
// that it leaves nothing behind.
func TestSQLitePeerProcesses(t *testing.T) {
	dir := t.TempDir()
	p, err := newSQLitePeer(filepath.Join(dir, "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{1, 3} {
		tps, err := p.measure(t.Context(), c, 300*time.Millisecond)
		if err != nil {
			t.Fatalf("%d clients: %v", c, err)
		}
		if tps <= 0 {
			t.Errorf("%d clients: %v transactions a second", c, tps)
		}
		if files, _ := filepath.Glob(filepath.Join(p.dir, "*")); len(files) != 0 {
			t.Errorf("%d clients: left %v", c, files)
		}
	}
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the peer left %v beside the store", entries)
	}
}

func TestPostgresPgbenchPeer(t *testing.T) {
	server := pgtest.URL(t)
	pgtest.Command(t, "pgbench")
	conn, err := pgx.Connect(t.Context(), server)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	countMade := func() int {
		t.Helper()
		var n int
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_database WHERE datname LIKE 'tapis\\_tp\\_%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := countMade()

	p, err := newPgbenchPeer("pgbench", server)
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	tps, err := p.measure(t.Context(), 2, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if tps <= 0 {
		t.Errorf("pgbench with 2 clients: %v tps", tps)
	}
	if after := countMade(); after != before {
		t.Errorf("%d tapis_tp_ databases on the server before the measure, %d after", before, after)
	}
}
