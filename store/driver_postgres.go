package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib" // the "pgx" driver

	"tapis/game"
)

// postgresEngine keeps a store in a PostgreSQL database: many sellers, on
// many machines, each with a pool of connections, at read committed.
type postgresEngine struct {
	dsn   string   // the store's URL
	alloc []string // allocations
}

func (e *postgresEngine) connect(bool) (*sql.DB, error) {
	db, err := sql.Open("pgx", e.dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// A server of many players shares one pool: bounded, so that a few
	// servers stay well within PostgreSQL's max_connections (100 by
	// default), and kept open between purchases.
	db.SetMaxOpenConns(pgConns)
	db.SetMaxIdleConns(pgConns)
	return db, nil
}

// pgConns is how many connections to PostgreSQL a process holds at most.
// More would not sell faster: a purchase holds its connection for one
// round trip of two pipelined batches, and the block's row lock
// serializes the rest (docs/scaling.md).
const pgConns = 16

// retryOpening: once; a seller waits for another's at its locks.
func (e *postgresEngine) retryOpening(open func() error) error { return open() }

// q: PostgreSQL's own.
func (e *postgresEngine) q(query string) string { return query }

// alone: an advisory lock, the transaction's.
func (e *postgresEngine) alone(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7263617069)`)
	return err
}

func (e *postgresEngine) tables(ctx context.Context, q querier) ([]string, error) {
	return tableNames(ctx, q, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)
}

// define: PostgreSQL keeps every table as a heap and its indexes.
func (e *postgresEngine) define(stmt string) string {
	return strings.Replace(stmt, withoutRowID, "", 1)
}

func (e *postgresEngine) forUpdate(query string) string { return query + " FOR UPDATE" }

// allocations: first a block no other seller holds, so that sellers of
// one sequence sell from blocks of their own; then any, waiting for it.
func (e *postgresEngine) allocations() []string { return e.alloc }

// fenceInDebit: no; a statement of its own checks the lease once the
// debit has locked the account's row, so that it reads a lease taken
// meanwhile (read committed: a snapshot a statement).
func (e *postgresEngine) fenceInDebit() bool { return false }

// clock: the server's, read once the statements before it are done, so
// that sellers on machines whose clocks differ still write a sale's time
// after its block's commitment.
func (e *postgresEngine) clock(ctx context.Context, r runner, _ func() time.Time) (time.Time, error) {
	var ns int64
	if err := r.row(ctx, serverClock).Scan(&ns); err != nil {
		return time.Time{}, err
	}
	return time.Unix(0, ns).UTC(), nil
}

// serverClock reads PostgreSQL's clock, in nanoseconds since 1970.
const serverClock = `SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000000)::BIGINT`

// sellPipelined: two round trips, each a pipelined batch (pgsell.go).
func (e *postgresEngine) sellPipelined(ctx context.Context, s *SQL, p Purchase, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error) {
	return s.sellPostgres(ctx, p, seq, table, stake)
}

// markShownUnsynced: one pipelined batch, at synchronous_commit off for
// this transaction alone.
func (e *postgresEngine) markShownUnsynced(ctx context.Context, _ *SQL, conn *sql.Conn, marks []mark, changed []int64) error {
	return conn.Raw(func(driverConn any) error {
		b := &pgx.Batch{}
		b.Queue("BEGIN")
		b.Queue("SET LOCAL synchronous_commit TO OFF")
		for i, m := range marks {
			query, args := shownStatement(m.account, m.unit)
			b.Queue(query, args...).Exec(func(tag pgconn.CommandTag) error { changed[i] = tag.RowsAffected(); return nil })
		}
		b.Queue("COMMIT")
		c := driverConn.(*stdlib.Conn).Conn()
		if err := c.SendBatch(ctx, b).Close(); err != nil {
			if _, rerr := c.Exec(ctx, "ROLLBACK"); rerr != nil {
				return errors.Join(err, driverBad(rerr))
			}
			return err
		}
		return nil
	})
}

// accountLock: session-level advisory locks, on a connection of their
// own, which the database drops when the connection ends.
func (e *postgresEngine) accountLock(ctx context.Context, s *SQL) (accountLock, error) {
	return newAdvisoryLock(ctx, s.db)
}

// snapshot: a repeatable read, on the store's pool.
func (e *postgresEngine) snapshot(ctx context.Context, s *SQL) (*sql.Tx, func(), error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return nil, nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	return tx, func() { tx.Rollback() }, nil
}
