package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"
	_ "modernc.org/sqlite" // the "sqlite" driver

	"tapis/game"
	"tapis/text"
)

// sqliteEngine keeps a store in one SQLite file, on one machine: one
// writer at a time, whose transactions are alone already.
type sqliteEngine struct {
	url   string   // as given, for messages
	path  string   // the store's file
	dsn   string   // the driver's data source: a seller's, its writes taking the lock at BEGIN
	alloc []string // allocations
}

func (e *sqliteEngine) connect(existing bool) (*sql.DB, error) {
	if existing {
		if _, err := os.Stat(e.path); err != nil {
			return nil, fmt.Errorf("store %s: %w", e.url, err)
		}
	} else if err := createPrivate(e.path); err != nil {
		return nil, fmt.Errorf("store %s: %w", text.Printable(e.url), err)
	}
	// The file holds the house's master seed, and its write-ahead log the
	// pages written lately: no one else may read them.
	for _, f := range []string{e.path, e.path + "-wal", e.path + "-shm"} {
		if err := Private("store", f); err != nil {
			return nil, err
		}
	}
	dsn := e.dsn
	if existing { // a reader: its transactions take no write lock (a read-only file reads)
		dsn = e.readerDSN()
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db.SetMaxOpenConns(1) // one writer a process; other processes wait their turn
	return db, nil
}

// readerDSN is the data source of a reader: its transactions take no
// write lock.
func (e *sqliteEngine) readerDSN() string {
	return strings.Replace(e.dsn, "_txlock=immediate", "_txlock=deferred", 1)
}

// retryOpening: sellers opening a new file at once, the one that lost the
// switch to WAL tries again, as a busy write would wait (SQLite waits for
// no busy handler there).
func (e *sqliteEngine) retryOpening(open func() error) error {
	err := open()
	for start := time.Now(); err != nil && sqliteBusy(err) && time.Since(start) < BusyTimeout; {
		time.Sleep(20 * time.Millisecond)
		err = open()
	}
	return err
}

var placeholder = regexp.MustCompile(`\$([0-9]+)`)

// q: $1, $2… become ?1, ?2….
func (e *sqliteEngine) q(query string) string { return placeholder.ReplaceAllString(query, "?$1") }

// statementContext: the transaction's values without its end. A SQLite
// statement of a transaction waits for no network and takes no lock (the
// transaction took the write lock as it began: BEGIN IMMEDIATE), so that
// nothing it does outlasts the transaction's bound; the transaction's end
// still rolls it back between two statements (database/sql). A context
// that can end costs the driver a goroutine a statement, which watches it.
func (e *sqliteEngine) statementContext(ctx context.Context) context.Context {
	return context.WithoutCancel(ctx)
}

// alone: a SQLite transaction is alone already (BEGIN IMMEDIATE).
func (e *sqliteEngine) alone(context.Context, *sql.Tx) error { return nil }

func (e *sqliteEngine) headsLock(context.Context, *sql.Tx) error { return nil }

func (e *sqliteEngine) tables(ctx context.Context, q querier) ([]string, error) {
	return tableNames(ctx, q, `SELECT name FROM sqlite_master WHERE type = 'table'`)
}

// migrations: SQLite's, whose tables are kept WITHOUT ROWID.
func (e *sqliteEngine) migrations() (fs.FS, database.Dialect) {
	return engineMigrations("sqlite"), database.DialectSQLite3
}

// schemaLock: a byte of the store's lease file (schemaFileLock), and
// synchronous=NORMAL while goose migrates (sqliteMigrating).
func (e *sqliteEngine) schemaLock() lock.SessionLocker {
	return sqliteMigrating{&schemaFileLock{path: e.leasePath}}
}

// sqliteMigrating is goose's session of migrations on SQLite: alone, and
// at synchronous=NORMAL, as a shown mark is: in WAL mode a commit then
// waits for no disk, and the machine crashing loses at most the last
// migrations, run again at the next opening, never the file's consistency
// (each is one transaction, its version with it). The emission's
// transaction, at FULL, waits for the disk with all before it: a new
// store's three migrations cost no sync each.
type sqliteMigrating struct{ lock *schemaFileLock }

func (m sqliteMigrating) SessionLock(ctx context.Context, conn *sql.Conn) error {
	if err := m.lock.SessionLock(ctx, conn); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = NORMAL"); err != nil {
		return errors.Join(err, m.lock.SessionUnlock(ctx, conn))
	}
	return nil
}

func (m sqliteMigrating) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, "PRAGMA synchronous = FULL")
	if err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // never reused at NORMAL
	}
	return errors.Join(err, m.lock.SessionUnlock(ctx, conn))
}

// forUpdate: SQLite locks no rows; its transactions are alone.
func (e *sqliteEngine) forUpdate(query string) string { return query }

// allocations: one writer at a time, the first block on sale.
func (e *sqliteEngine) allocations() []string { return e.alloc }

// fenceInDebit: yes, one writer at a time, the debit reads the lease as
// it stands.
func (e *sqliteEngine) fenceInDebit() bool { return true }

// clock: one machine, the seller's clock.
func (e *sqliteEngine) clock(_ context.Context, _ runner, now func() time.Time) (time.Time, error) {
	return now().UTC(), nil
}

// sellPipelined: one transaction on the process's one connection, through
// the driver itself, when the seller knows the account (sqlitesell.go).
func (e *sqliteEngine) sellPipelined(ctx context.Context, s *SQL, p Purchase, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error) {
	return s.sellSQLite(ctx, p, marks, seq, table, stake)
}

// arrive: the general path. SQLite answers within the process: there are
// no round trips to save.
func (e *sqliteEngine) arrive(context.Context, *SQL, arrival) (Account, bool, bool, error) {
	return Account{}, false, false, nil
}

// warm: nothing. The store's connections are in the process, opened
// already.
func (e *sqliteEngine) warm(context.Context, *SQL) error { return nil }

// changes: PRAGMA data_version on the store's one connection, which moves
// when another connection (another process: a seller, an insider's
// sqlite3) commits, and not for this connection's own: every statement of
// this process, whose pool has the one connection.
func (e *sqliteEngine) changes(ctx context.Context, s *SQL) (changeMark, bool) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return changeMark{}, false
	}
	defer conn.Close()
	var m changeMark
	if err := conn.Raw(func(dc any) error { m.conn = dc; return nil }); err != nil {
		return changeMark{}, false
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&m.version); err != nil {
		return changeMark{}, false
	}
	return m, true
}

// unsyncedTx: the transaction at synchronous=NORMAL on the store's
// connection (in WAL mode a commit then waits for no disk), FULL again
// after it.
func (e *sqliteEngine) unsyncedTx(ctx context.Context, s *SQL, f func(*sql.Tx) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = NORMAL"); err != nil {
		return err
	}
	err = func() error {
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := f(tx); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	}()
	if _, perr := conn.ExecContext(ctx, "PRAGMA synchronous = FULL"); perr != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn }) // never reused at NORMAL
		err = errors.Join(err, perr)
	}
	return err
}

// markShownUnsynced: the marks' statements in an unsynced transaction.
func (e *sqliteEngine) markShownUnsynced(ctx context.Context, s *SQL, marks []mark, changed []int64) error {
	return e.unsyncedTx(ctx, s, func(tx *sql.Tx) error {
		for i, m := range marks {
			query, args := s.shownStatement(m.account, m.unit)
			res, err := tx.StmtContext(ctx, s.stmts[query]).ExecContext(ctx, args...)
			if err != nil {
				return err
			}
			if changed[i], err = res.RowsAffected(); err != nil {
				return err
			}
		}
		return nil
	})
}

// accountLock: byte-range locks of a file beside the store, which the
// system drops when the process ends. One file under two names locks one
// lease file: by its real path.
func (e *sqliteEngine) accountLock(context.Context, *SQL) (accountLock, error) {
	path, err := e.leasePath()
	if err != nil {
		return nil, err
	}
	return newFileLock(path)
}

// leasePath is the path of the store's lease file: beside its file, found
// by its real path.
func (e *sqliteEngine) leasePath() (string, error) {
	path, err := filepath.Abs(e.path)
	if err == nil {
		path, err = filepath.EvalSymlinks(path)
	}
	if err != nil {
		return "", err
	}
	return path + "-leases", nil
}

// snapshot: a reader of its own in WAL mode, which holds no lock against
// the sellers (the store's one connection may be theirs).
func (e *sqliteEngine) snapshot(ctx context.Context, s *SQL) (*sql.Tx, func(), error) {
	reader, err := sql.Open("sqlite", e.readerDSN())
	if err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	tx, err := reader.BeginTx(ctx, nil)
	if err != nil {
		reader.Close()
		return nil, nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	return tx, func() { tx.Rollback(); reader.Close() }, nil
}
