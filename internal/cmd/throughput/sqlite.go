package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, as tapis uses
)

// sqliteDSN opens path with the settings tapis's SQLite store uses: WAL,
// every commit synced (synchronous=FULL), a 10 s wait for the write lock,
// and transactions that take it at BEGIN (BEGIN IMMEDIATE). The driver sets
// busy_timeout before the other pragmas.
func sqliteDSN(path string) string {
	return "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)&_txlock=immediate"
}

const sqliteSchema = `CREATE TABLE IF NOT EXISTS peer_history (
	id     INTEGER PRIMARY KEY,
	client INTEGER NOT NULL,
	delta  INTEGER NOT NULL,
	mtime  TEXT NOT NULL
)`

// sqlitePeer makes a new database file for each measure in a temporary
// directory, and runs its clients as child processes of this program.
type sqlitePeer struct {
	dir  string
	self string // this program, run again as a client
	n    int    // measures so far, naming their files
}

func newSQLitePeer(storePath string) (*sqlitePeer, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to run the SQLite clients: %w", err)
	}
	dir, err := os.MkdirTemp(filepath.Dir(storePath), "tapis-throughput-")
	if err != nil {
		return nil, fmt.Errorf("making a directory for the SQLite files beside %s: %w", storePath, err)
	}
	return &sqlitePeer{dir: dir, self: self}, nil
}

func (p *sqlitePeer) close() error {
	if err := os.RemoveAll(p.dir); err != nil {
		return fmt.Errorf("removing the SQLite files: %w", err)
	}
	return nil
}

// peerResult is what one client prints when its time is up.
type peerResult struct {
	Transactions int64   `json:"transactions"`
	Seconds      float64 `json:"seconds"`
}

// peerClient is one running client process.
type peerClient struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr bytes.Buffer
}

func (p *sqlitePeer) measure(ctx context.Context, c int, d time.Duration) (tps float64, err error) {
	p.n++
	path := filepath.Join(p.dir, fmt.Sprintf("peer-%d.db", p.n))
	if err := createPeerSchema(ctx, path); err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, removeSQLite(path)) }()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	clients := make([]*peerClient, 0, c)
	defer func() {
		// On an early return, the clients still running are killed by the
		// cancel; wait for them.
		cancel()
		for _, cl := range clients {
			_ = cl.cmd.Wait()
		}
	}()
	for i := range c {
		cl := &peerClient{cmd: exec.CommandContext(ctx, p.self, peerFlag, path, strconv.FormatInt(int64(d/time.Millisecond), 10), strconv.Itoa(i))}
		cl.cmd.Stderr = &cl.stderr
		if cl.stdin, err = cl.cmd.StdinPipe(); err != nil {
			return 0, fmt.Errorf("client %d: %w", i, err)
		}
		out, err := cl.cmd.StdoutPipe()
		if err != nil {
			return 0, fmt.Errorf("client %d: %w", i, err)
		}
		cl.stdout = bufio.NewReader(out)
		if err := cl.cmd.Start(); err != nil {
			return 0, fmt.Errorf("starting client %d: %w", i, err)
		}
		clients = append(clients, cl)
	}
	// Every client has opened the database before any starts counting.
	for i, cl := range clients {
		if line, err := cl.stdout.ReadString('\n'); err != nil || line != "ready\n" {
			return 0, fmt.Errorf("client %d did not get ready (%q): %s", i, line, lastLines(cl.stderr.Bytes(), 3))
		}
	}
	for i, cl := range clients {
		if _, err := io.WriteString(cl.stdin, "go\n"); err != nil {
			return 0, fmt.Errorf("starting client %d: %w", i, err)
		}
	}
	var total int64
	var longest float64
	for i, cl := range clients {
		line, readErr := cl.stdout.ReadBytes('\n')
		waitErr := cl.cmd.Wait()
		if waitErr != nil || readErr != nil {
			return 0, fmt.Errorf("client %d: %w: %s", i, errors.Join(waitErr, readErr), lastLines(cl.stderr.Bytes(), 3))
		}
		var r peerResult
		if err := json.Unmarshal(line, &r); err != nil || r.Seconds <= 0 {
			return 0, fmt.Errorf("client %d printed %q, not its count: %v", i, line, err)
		}
		total += r.Transactions
		longest = max(longest, r.Seconds)
	}
	clients = nil
	return float64(total) / longest, nil
}

// createPeerSchema makes the peer's database at path, in WAL mode, with its
// one table.
func createPeerSchema(ctx context.Context, path string) (err error) {
	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	if _, err := db.ExecContext(ctx, sqliteSchema); err != nil {
		return fmt.Errorf("creating the peer's table in %s: %w", path, err)
	}
	return nil
}

// removeSQLite removes a database file and its WAL and shared-memory files.
func removeSQLite(path string) error {
	var errs []error
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// sqlitePeerChild is one client of the SQLite peer: args are the database's
// path, the milliseconds to run and the client's number. It opens the
// database, checks that the settings took, prints "ready", waits for a line
// on stdin, then commits one-row INSERT transactions until its time is up
// and prints a peerResult. It returns the exit status.
func sqlitePeerChild(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if err := peerLoop(args, stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "throughput: SQLite client:", err)
		return 1
	}
	return 0
}

func peerLoop(args []string, stdin io.Reader, stdout io.Writer) (err error) {
	if len(args) != 3 {
		return fmt.Errorf("want PATH MILLISECONDS CLIENT, got %d arguments", len(args))
	}
	ms, err1 := strconv.ParseInt(args[1], 10, 64)
	client, err2 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil || ms < 1 {
		return fmt.Errorf("want PATH MILLISECONDS CLIENT, got %q", args)
	}
	ctx := context.Background()
	db, err := sql.Open("sqlite", sqliteDSN(args[0]))
	if err != nil {
		return fmt.Errorf("opening %s: %w", args[0], err)
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	db.SetMaxOpenConns(1)
	if err := checkSettings(ctx, db); err != nil {
		return err
	}
	ins, err := db.PrepareContext(ctx, "INSERT INTO peer_history (client, delta, mtime) VALUES (?, ?, ?)")
	if err != nil {
		return fmt.Errorf("preparing the insert: %w", err)
	}
	defer func() { err = errors.Join(err, ins.Close()) }()

	if _, err := io.WriteString(stdout, "ready\n"); err != nil {
		return err
	}
	if _, err := bufio.NewReader(stdin).ReadString('\n'); err != nil {
		return fmt.Errorf("waiting for the start: %w", err)
	}
	start := time.Now()
	deadline := start.Add(time.Duration(ms) * time.Millisecond)
	var n int64
	for time.Now().Before(deadline) {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("BEGIN IMMEDIATE: %w", err)
		}
		if _, err := tx.StmtContext(ctx, ins).ExecContext(ctx, client, rand.IntN(10001)-5000, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			return errors.Join(fmt.Errorf("INSERT: %w", err), tx.Rollback())
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("COMMIT: %w", err)
		}
		n++
	}
	return json.NewEncoder(stdout).Encode(peerResult{Transactions: n, Seconds: time.Since(start).Seconds()})
}

// checkSettings fails unless the connection is in WAL mode, synced in full,
// and waits 10 s for a lock.
func checkSettings(ctx context.Context, db *sql.DB) error {
	var mode string
	var sync, busy int
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("reading journal_mode: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
		return fmt.Errorf("reading synchronous: %w", err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
		return fmt.Errorf("reading busy_timeout: %w", err)
	}
	if mode != "wal" || sync != 2 || busy != 10000 {
		return fmt.Errorf("settings journal_mode=%s synchronous=%d busy_timeout=%d, want wal, 2 (FULL), 10000", mode, sync, busy)
	}
	return nil
}
