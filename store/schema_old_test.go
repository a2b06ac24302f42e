package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// The tables the tapis before goose created at each opening, as of schema
// version 3, verbatim (schema.go before goose): the old stores the tests
// migrate are built with them.
var beforeGoose = []string{
	`CREATE TABLE IF NOT EXISTS tapis_schema (version INTEGER NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS emission (
		id INTEGER PRIMARY KEY CHECK (id = 1),
		seed TEXT NOT NULL,
		open_blocks INTEGER NOT NULL,
		qa INTEGER NOT NULL DEFAULT 0,
		tables TEXT NOT NULL,
		created BIGINT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS blocks (
		game TEXT NOT NULL,
		stake TEXT NOT NULL,
		number BIGINT NOT NULL,
		units BIGINT NOT NULL,
		sold BIGINT NOT NULL DEFAULT 0,
		commitment TEXT NOT NULL,
		seed TEXT,
		opened BIGINT NOT NULL,
		closed BIGINT,
		PRIMARY KEY (game, stake, number))` + rowIDMark,
	`CREATE TABLE IF NOT EXISTS accounts (
		name TEXT PRIMARY KEY,
		balance BIGINT NOT NULL,
		deposited BIGINT NOT NULL,
		purchases INTEGER NOT NULL DEFAULT 0,
		deposits INTEGER NOT NULL DEFAULT 0,
		created BIGINT NOT NULL,
		guest INTEGER NOT NULL DEFAULT 0)` + rowIDMark,
	`CREATE TABLE IF NOT EXISTS deposits (
		account TEXT NOT NULL REFERENCES accounts (name),
		n INTEGER NOT NULL,
		amount BIGINT NOT NULL,
		after_purchase INTEGER NOT NULL,
		at BIGINT NOT NULL,
		PRIMARY KEY (account, n))` + rowIDMark,
	`CREATE TABLE IF NOT EXISTS purchases (
		account TEXT NOT NULL REFERENCES accounts (name),
		number INTEGER NOT NULL,
		game TEXT NOT NULL,
		stake TEXT NOT NULL,
		block BIGINT,
		serial BIGINT NOT NULL,
		label TEXT,
		unit TEXT NOT NULL,
		tier INTEGER NOT NULL,
		stake_cents BIGINT NOT NULL,
		prize BIGINT NOT NULL,
		before_cents BIGINT NOT NULL,
		after_cents BIGINT NOT NULL,
		layout TEXT NOT NULL,
		at BIGINT NOT NULL,
		shown INTEGER NOT NULL DEFAULT 0,
		attempt TEXT NOT NULL DEFAULT '',
		PRIMARY KEY (account, number))` + rowIDMark,
	`CREATE UNIQUE INDEX IF NOT EXISTS purchases_serial ON purchases (game, stake, block, serial) WHERE block IS NOT NULL`,
	// The players each tapis serve has connected, for the board (presence.go).
	`CREATE TABLE IF NOT EXISTS servers (
		id TEXT PRIMARY KEY,
		players INTEGER NOT NULL,
		seen BIGINT NOT NULL)` + rowIDMark,
	beforeGooseSellers,
	beforeGooseByTime,
	beforeGooseRevealing,
}

// beforeGooseRevealing finds the units being revealed (shown.go): an
// account's when its session ends, all of them for the board.
const beforeGooseRevealing = `CREATE INDEX IF NOT EXISTS purchases_revealing ON purchases (account, number) WHERE shown = 0`

// beforeGooseByTime finds an account's purchases of the loss limit's window
// (losses.go) without reading its older ones.
const beforeGooseByTime = `CREATE INDEX IF NOT EXISTS purchases_at ON purchases (account, at)`

// beforeGooseSellers says which process holds each account (lease.go): the
// lock is the engine's; this is for the seller it refuses.
const beforeGooseSellers = `CREATE TABLE IF NOT EXISTS sellers (
		account TEXT PRIMARY KEY,
		pid INTEGER NOT NULL,
		host TEXT NOT NULL,
		since BIGINT NOT NULL,
		token TEXT NOT NULL,
		seen BIGINT NOT NULL)` + rowIDMark

// rowIDMark ended a table kept in its primary key's order: " WITHOUT
// ROWID" on SQLite, nothing on PostgreSQL.
const rowIDMark = "/*ROWID*/"

// engineTest is what the schema's tests need of an engine.
type engineTest struct {
	fresh    func(t *testing.T) string // the URL of a new, empty store
	rowID    string                    // what rowIDMark was on the engine
	describe []string                  // queries that describe the tables but goose's, row by row
}

// storeBeforeGoose creates at url the tables the tapis before goose left
// at schema version v (1 to 3): its tables of version 3, less those of
// the versions after v, and tapis_schema; no goose table, no emission.
func storeBeforeGoose(t *testing.T, e engineTest, url string, v int) {
	t.Helper()
	stmts := []string{}
	for _, stmt := range beforeGoose {
		stmts = append(stmts, strings.Replace(stmt, rowIDMark, e.rowID, 1))
	}
	if v < 3 {
		stmts = append(stmts, `DROP TABLE sellers`, `DROP INDEX purchases_at`, `DROP INDEX purchases_revealing`)
	}
	if v < 2 {
		stmts = append(stmts, `ALTER TABLE accounts DROP COLUMN guest`)
	}
	execAll(t, url, append(stmts, fmt.Sprintf(`INSERT INTO tapis_schema (version) VALUES (%d)`, v))...)
}

// execAll runs statements on the database at url, through the store's
// driver and settings.
func execAll(t *testing.T, url string, stmts ...string) {
	t.Helper()
	e, err := parseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	db, err := e.connect(false)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range stmts {
		if _, err := db.ExecContext(context.Background(), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// describeTables describes the tables of the store at url, but goose's,
// by the engine's queries: a line a row.
func describeTables(t *testing.T, e engineTest, url string) []string {
	t.Helper()
	p, err := parseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	db, err := p.connect(true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var lines []string
	for _, query := range e.describe {
		lines = append(lines, rowsOf(t, db, query)...)
	}
	return lines
}

// rowsOf reads the rows of a query, each as a line.
func rowsOf(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for rows.Next() {
		values := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, v := range values {
			if i > 0 {
				b.WriteString(" | ")
			}
			if raw, ok := v.([]byte); ok {
				v = string(raw)
			}
			fmt.Fprint(&b, v)
		}
		lines = append(lines, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}
