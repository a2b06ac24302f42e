package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"time"

	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"

	"tapis/game"
)

// engine is what differs between the two databases a store is kept in,
// SQLite (driver_sqlite.go) and PostgreSQL (driver_postgres.go); the rest
// of the store is one SQL for both, written for PostgreSQL ($1, $2…).
// Each method says what its engine does differently, and why, so that no
// code outside the two drivers asks which engine it runs on.
type engine interface {
	// connect opens the database, a reader's (existing: it creates
	// nothing and takes no write lock) or a seller's.
	connect(existing bool) (*sql.DB, error)
	// retryOpening runs the first work of a seller opening a store (its
	// tables' migration), again while another process opening a new
	// SQLite file holds it.
	retryOpening(open func() error) error
	// q writes a query in the engine's placeholders.
	q(query string) string
	// statementContext is the context a statement of a transaction runs
	// under, given the transaction's (which rolls it back when it ends).
	statementContext(ctx context.Context) context.Context
	// alone makes a transaction wait for any other seller's that creates
	// goose's version table or the emission (and, on PostgreSQL, for a
	// seller migrating the tables: schemaLock's key is alone's).
	alone(ctx context.Context, tx *sql.Tx) error
	// headsLock makes a transaction signing a head wait for any other
	// seller's: heads are numbered one after the other (SQLite's writers
	// wait for each other already).
	headsLock(ctx context.Context, tx *sql.Tx) error
	// tables lists the tables of the store's database (its schema).
	tables(ctx context.Context, q querier) ([]string, error)
	// migrations are the engine's migrations of the schema, and goose's
	// dialect for its version table.
	migrations() (fs.FS, database.Dialect)
	// schemaLock is the lock goose holds while it migrates the tables
	// (goose's SessionLocker), so that sellers starting at once migrate
	// them once.
	schemaLock() lock.SessionLocker
	// forUpdate makes a SELECT lock the rows it reads, where the engine
	// locks rows.
	forUpdate(query string) string
	// allocations are the statements that take a block's next serial,
	// tried in turn (allocate).
	allocations() []string
	// fenceInDebit reports whether the debit's own statement checks the
	// seller's lease (sell).
	fenceInDebit() bool
	// clock returns the time of a sale or of a block's opening: the
	// engine's clock where sellers on several machines share it, else
	// now's.
	clock(ctx context.Context, r runner, now func() time.Time) (time.Time, error)
	// sellPipelined sells a unit from a block in the engine's fastest
	// way, its shown marks' statements in its transaction: false, having
	// changed nothing, when the general path must.
	sellPipelined(ctx context.Context, s *SQL, p Purchase, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error)
	// arrive writes who holds an account just locked (takeOver) and
	// reads it, creating it when new, in the engine's fastest way
	// (HoldAccount): done false, having changed nothing, when the
	// general path must.
	arrive(ctx context.Context, s *SQL, a arrival) (acc Account, created, done bool, err error)
	// warm readies the store for a room of players arriving at once
	// (Warm).
	warm(ctx context.Context, s *SQL) error
	// markShownUnsynced marks units shown in one transaction whose
	// commit does not wait for the disk, and sets how many rows each
	// mark changed.
	markShownUnsynced(ctx context.Context, s *SQL, marks []mark, changed []int64) error
	// unsyncedTx runs f in a transaction whose commit waits for no disk:
	// for what a crash may lose and the store rebuilds (who holds an
	// account: a holder that lost its line takes it again).
	unsyncedTx(ctx context.Context, s *SQL, f func(*sql.Tx) error) error
	// accountLock opens the lock that holds accounts against other
	// processes (Hold).
	accountLock(ctx context.Context, s *SQL) (accountLock, error)
	// snapshot begins a read-only transaction that sees one state of the
	// store while sellers go on selling (Verify); done ends it.
	snapshot(ctx context.Context, s *SQL) (tx *sql.Tx, done func(), err error)
	// changes returns a mark of what other connections committed to the
	// database: two marks equal, no one else committed between them
	// (Check); told false where the engine cannot tell.
	changes(ctx context.Context, s *SQL) (mark changeMark, told bool)
}

// changeMark is a mark of the changes others committed to a database, as
// one connection of the store sees them.
type changeMark struct {
	conn    any   // the driver's connection that read it: another's marks are not comparable
	version int64 // SQLite's data_version
}

// tableNames reads the names a listing of tables returns.
func tableNames(ctx context.Context, q querier, listing string) ([]string, error) {
	rows, err := q.QueryContext(ctx, listing)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("listing the tables: %w", err)
		}
		names = append(names, name)
	}
	return names, rows.Err()
}
