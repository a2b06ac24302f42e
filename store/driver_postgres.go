package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"

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

// statementContext: the transaction's, which ends a statement the server
// does not answer.
func (e *postgresEngine) statementContext(ctx context.Context) context.Context { return ctx }

// alone: an advisory lock, the transaction's.
func (e *postgresEngine) alone(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, aloneKey)
	return err
}

func (e *postgresEngine) headsLock(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, headsKey)
	return err
}

// headsKey is the advisory lock of the sellers signing a head: one at a
// time, each numbering its head after the last.
const headsKey int64 = 7263617070

// aloneKey is the advisory lock of the sellers that create or migrate the
// tables or create the emission: one at a time.
const aloneKey int64 = 7263617069

func (e *postgresEngine) tables(ctx context.Context, q querier) ([]string, error) {
	return tableNames(ctx, q, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)
}

// migrations: PostgreSQL's.
func (e *postgresEngine) migrations() (fs.FS, database.Dialect) {
	return engineMigrations("postgres"), database.DialectPostgres
}

// schemaLock: the session-level advisory lock of alone's key, waited
// for, and synchronous_commit off while goose migrates (pgMigrating).
// Goose's own lock (lock.NewPostgresSessionLocker) tries again each
// second at best: sellers starting at once would wait a second for the
// first one's migration of a few milliseconds.
func (e *postgresEngine) schemaLock() lock.SessionLocker { return pgMigrating{} }

// pgMigrating is goose's session of migrations on PostgreSQL: on alone's
// key, so that a seller migrating the tables waits for any other's, and
// for one creating the emission or goose's table, and they for it; and at
// synchronous_commit off, as a shown mark is: a commit then waits for no
// disk, and the database crashing loses at most the last migrations, run
// again at the next opening, never its consistency (each is one
// transaction, its version with it). The emission's transaction waits
// for the disk with all before it: a new store's three migrations cost no
// flush each.
type pgMigrating struct{}

// SessionLock waits for the lock; a connection that took it and cannot
// go on is dropped from the pool, the lock with it.
func (pgMigrating) SessionLock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, aloneKey); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `SET synchronous_commit TO OFF`); err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // ErrBadConn: the pool closes it
		return err
	}
	return nil
}

// SessionUnlock lets the lock go, synchronous_commit as it was; a
// connection that cannot is dropped from the pool, and the database lets
// the lock go with it.
func (pgMigrating) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, `RESET synchronous_commit`)
	if err == nil {
		_, err = conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, aloneKey)
	}
	if err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // ErrBadConn: the pool closes it
	}
	return nil
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
func (e *postgresEngine) sellPipelined(ctx context.Context, s *SQL, p Purchase, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error) {
	return s.sellPostgres(ctx, p, marks, seq, table, stake)
}

// arrive: two round trips, each a pipelined batch (pgarrive.go).
func (e *postgresEngine) arrive(ctx context.Context, s *SQL, a arrival) (Account, bool, bool, error) {
	return s.arrivePostgres(ctx, a)
}

// warm: every connection of the pool opened, each with an arrival's
// statements prepared (pgarrive.go).
func (e *postgresEngine) warm(ctx context.Context, s *SQL) error { return s.warmPostgres(ctx) }

// changes: not told. Another server's commits and this one's look the
// same from a connection of the pool.
func (e *postgresEngine) changes(context.Context, *SQL) (changeMark, bool) {
	return changeMark{}, false
}

// unsyncedTx: the transaction at synchronous_commit off.
func (e *postgresEngine) unsyncedTx(ctx context.Context, s *SQL, f func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "SET LOCAL synchronous_commit TO OFF"); err != nil {
		tx.Rollback()
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// markShownUnsynced: one pipelined batch, at synchronous_commit off for
// this transaction alone, on a connection of the pool.
func (e *postgresEngine) markShownUnsynced(ctx context.Context, s *SQL, marks []mark, changed []int64) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		b := &pgx.Batch{}
		b.Queue("BEGIN")
		b.Queue("SET LOCAL synchronous_commit TO OFF")
		for i, m := range marks {
			query, args := s.shownStatement(m.account, m.unit)
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
