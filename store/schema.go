package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// schema is the tables, as of SchemaVersion, in the SQL both databases read.
// Amounts are in cents, times in nanoseconds since 1970 (UTC).
var schema = []string{
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
		PRIMARY KEY (game, stake, number))` + withoutRowID,
	`CREATE TABLE IF NOT EXISTS accounts (
		name TEXT PRIMARY KEY,
		balance BIGINT NOT NULL,
		deposited BIGINT NOT NULL,
		purchases INTEGER NOT NULL DEFAULT 0,
		deposits INTEGER NOT NULL DEFAULT 0,
		created BIGINT NOT NULL,
		guest INTEGER NOT NULL DEFAULT 0)` + withoutRowID,
	`CREATE TABLE IF NOT EXISTS deposits (
		account TEXT NOT NULL REFERENCES accounts (name),
		n INTEGER NOT NULL,
		amount BIGINT NOT NULL,
		after_purchase INTEGER NOT NULL,
		at BIGINT NOT NULL,
		PRIMARY KEY (account, n))` + withoutRowID,
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
		PRIMARY KEY (account, number))` + withoutRowID,
	`CREATE UNIQUE INDEX IF NOT EXISTS purchases_serial ON purchases (game, stake, block, serial) WHERE block IS NOT NULL`,
	// The players each tapis serve has connected, for the board (presence.go).
	`CREATE TABLE IF NOT EXISTS servers (
		id TEXT PRIMARY KEY,
		players INTEGER NOT NULL,
		seen BIGINT NOT NULL)` + withoutRowID,
	sellersTable,
	purchasesByTime,
	purchasesRevealing,
}

// purchasesRevealing finds the units being revealed (shown.go): an
// account's when its session ends, all of them for the board.
const purchasesRevealing = `CREATE INDEX IF NOT EXISTS purchases_revealing ON purchases (account, number) WHERE shown = 0`

// purchasesByTime finds an account's purchases of the loss limit's window
// (losses.go) without reading its older ones.
const purchasesByTime = `CREATE INDEX IF NOT EXISTS purchases_at ON purchases (account, at)`

// sellersTable says which process holds each account (lease.go): the
// lock is the engine's; this is for the seller it refuses.
const sellersTable = `CREATE TABLE IF NOT EXISTS sellers (
		account TEXT PRIMARY KEY,
		pid INTEGER NOT NULL,
		host TEXT NOT NULL,
		since BIGINT NOT NULL,
		token TEXT NOT NULL,
		seen BIGINT NOT NULL)` + withoutRowID

// withoutRowID ends a table's definition, written for the engine by its
// define: SQLite keeps such a table in its primary key's order.
const withoutRowID = "/*ROWID*/"

// migrate creates the tables, or checks the version of those there.
func (s *SQL) migrate(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.alone(ctx, tx); err != nil {
			return err
		}
		if err := s.notAnother(ctx, tx); err != nil {
			return err
		}
		for _, stmt := range schema {
			if _, err := tx.ExecContext(ctx, s.engine.define(stmt)); err != nil {
				return fmt.Errorf("store %s: creating its tables: %w", s.where, err)
			}
		}
		v, err := s.version(ctx, tx)
		if errors.Is(err, errNoVersion) {
			_, err = tx.ExecContext(ctx, s.engine.q(`INSERT INTO tapis_schema (version) VALUES ($1)`), SchemaVersion)
			return err
		}
		if err != nil || v == SchemaVersion {
			return err
		}
		for _, stmt := range migrations[v-1:] {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store %s: migrating its tables from version %d: %w", s.where, v, err)
			}
		}
		_, err = tx.ExecContext(ctx, s.engine.q(`UPDATE tapis_schema SET version = $1`), SchemaVersion)
		return err
	})
}

// migrations take the tables from each version to the next: the first
// from version 1 to 2.
var migrations = []string{
	// 2: the store says which accounts are guests (serve's keyless
	// players), kept only once they bought.
	`ALTER TABLE accounts ADD COLUMN guest INTEGER NOT NULL DEFAULT 0`,
	// 3: who holds each account (sellers), the indexes of purchases by
	// time and of units being revealed, created with the tables above;
	// the units never shown of sessions over are left (shown = 2), as
	// sessions ending do now.
	`UPDATE purchases SET shown = 2 WHERE shown = 0`,
}

var errNoVersion = errors.New("no schema version")

// notAnother refuses a database that holds another program's tables and no
// tapis store: tapis never writes its tables among them.
func (s *SQL) notAnother(ctx context.Context, tx *sql.Tx) error {
	tables, err := s.engine.tables(ctx, tx)
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, oneLine{err})
	}
	if len(tables) > 0 && !slices.Contains(tables, "tapis_schema") {
		return fmt.Errorf("store %s holds another program's tables: tapis keeps its store in a database of its own", s.where)
	}
	return nil
}

// noTable reports whether err says a table does not exist: PostgreSQL's
// undefined_table, SQLite's "no such table".
func noTable(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "42P01"
	}
	return strings.Contains(err.Error(), "no such table")
}

// version reads the schema's version: errNoVersion when there is none
// yet, an error when it is newer than this tapis's.
func (s *SQL) version(ctx context.Context, q querier) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, `SELECT version FROM tapis_schema`).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, errNoVersion
	case err != nil && noTable(err):
		return 0, fmt.Errorf("store %s holds no tapis emission", s.where)
	case err != nil:
		return 0, fmt.Errorf("store %s: %w", s.where, oneLine{err})
	case v > SchemaVersion:
		return 0, fmt.Errorf("store %s: schema version %d is newer than this tapis's (%d): open it with a newer tapis", s.where, v, SchemaVersion)
	case v < 1:
		return 0, fmt.Errorf("store %s: schema version %d: no tapis wrote it", s.where, v)
	}
	return v, nil
}

// alone makes a transaction wait for any other seller's that creates the
// tables or the emission: sellers starting at once create them once. A
// SQLite transaction is alone already.
func (s *SQL) alone(ctx context.Context, tx *sql.Tx) error {
	if err := s.engine.alone(ctx, tx); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}
