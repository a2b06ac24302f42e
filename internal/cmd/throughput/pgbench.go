package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"tapis/internal/pgtest"
)

// pgbenchScript is pgbench's -N transaction ("simple update": the account
// updated, a history row inserted) without its SELECT, on the tables of
// `pgbench -i -s 1` (100 000 accounts, 10 tellers, 1 branch).
const pgbenchScript = `\set aid random(1, 100000)
\set bid random(1, 1)
\set tid random(1, 10)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
`

// pgbenchPeer runs pgbench against a new database on the server for each
// measure.
type pgbenchPeer struct {
	bin    string // pgbench
	server string // the server's URL, where databases are made
	dir    string // holds the script
	script string
}

func newPgbenchPeer(bin, server string) (*pgbenchPeer, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("the PostgreSQL peer needs pgbench: %w", err)
	}
	dir, err := os.MkdirTemp("", "tapis-throughput-pgbench-")
	if err != nil {
		return nil, fmt.Errorf("making a directory for pgbench's script: %w", err)
	}
	p := &pgbenchPeer{bin: path, server: server, dir: dir, script: filepath.Join(dir, "update-insert.sql")}
	if err := os.WriteFile(p.script, []byte(pgbenchScript), 0o644); err != nil {
		return nil, errors.Join(fmt.Errorf("writing pgbench's script: %w", err), p.close())
	}
	return p, nil
}

func (p *pgbenchPeer) close() error {
	if err := os.RemoveAll(p.dir); err != nil {
		return fmt.Errorf("removing pgbench's script: %w", err)
	}
	return nil
}

func (p *pgbenchPeer) measure(ctx context.Context, c int, d time.Duration) (tps float64, err error) {
	db, drop, err := pgtest.CreateDatabase(ctx, p.server, "tapis_tp_")
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, drop(context.WithoutCancel(ctx))) }()
	if out, err := exec.CommandContext(ctx, p.bin, "-i", "-q", "-s", "1", db).CombinedOutput(); err != nil {
		return 0, fmt.Errorf("pgbench -i: %w: %s", err, lastLines(out, 5))
	}
	secs := strconv.Itoa(int(d / time.Second))
	n := strconv.Itoa(c)
	out, err := exec.CommandContext(ctx, p.bin, "-n", "-f", p.script, "-c", n, "-j", n, "-T", secs, db).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("pgbench: %w: %s", err, lastLines(out, 5))
	}
	return parsePgbenchTPS(out)
}

var tpsLine = regexp.MustCompile(`(?m)^tps = ([0-9]+(?:\.[0-9]+)?)`)

// parsePgbenchTPS reads the transactions a second from pgbench's report
// ("tps = 1234.567890 (without initial connection time)").
func parsePgbenchTPS(out []byte) (float64, error) {
	m := tpsLine.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("pgbench printed no tps line: %s", lastLines(out, 5))
	}
	tps, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		return 0, fmt.Errorf("pgbench's tps %q: %w", m[1], err)
	}
	return tps, nil
}

// lastLines is the end of a program's output, for an error message.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}
