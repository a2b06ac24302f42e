package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"sync"

	"tapis/game"
)

// sellSQLite sells a unit from a block on SQLite in one transaction on the
// store's connection, run through the driver itself: BEGIN IMMEDIATE, the
// marks the purchase carries, the block's next serial, one UPDATE that
// debits the account and writes its head (debitKnown), the purchase,
// COMMIT. It sells only when this seller's last record of the account is
// the purchase before (lastPurchase), so that it reads nothing of the
// account: the debit's WHERE checks the account is as the seller left it.
// It reports false, having changed nothing, when the general path must:
// the account is not as the seller knows it (or the seller knows nothing
// of it), the balance does not pay the stake, no block is on sale, or the
// purchase is a block's last (its seed revealed, the next blocks opened),
// or it would pass the loss limit (the general path refuses it).
//
// database/sql would watch the transaction and each of its queries with a
// goroutine, and the driver each statement under a context that can end:
// a purchase, bounded by the busy timeout as it begins and by the local
// disk after, runs without them.
func (s *SQL) sellSQLite(ctx context.Context, p Purchase, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error) {
	k, ok := s.lastPurchase(p)
	if !ok || k.balance < stake {
		return Receipt{}, false, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return Receipt{}, false, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer conn.Close()
	var (
		r    Receipt
		done bool
	)
	err = conn.Raw(func(dc any) error {
		run := s.raw.runner(s, dc)
		if err := run.exec(ctx, "BEGIN IMMEDIATE"); err != nil {
			return fmt.Errorf("store %s: %w", s.where, oneLine{err})
		}
		r, done, err = s.sqliteSell(ctx, run, p, k, marks, seq, table, stake)
		if err == nil && done {
			if err = run.exec(ctx, "COMMIT"); err == nil {
				return nil
			}
			err = fmt.Errorf("store: committing: %w", err)
		}
		done = false
		if rerr := run.exec(ctx, "ROLLBACK"); rerr != nil {
			return errors.Join(err, driverBad(rerr)) // a connection left in a transaction is dropped
		}
		return err
	})
	return r, done, err
}

func (s *SQL) sqliteSell(ctx context.Context, run rawRunner, p Purchase, k knownRecord, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error) {
	if err := markShown(ctx, run, marks); err != nil {
		return Receipt{}, false, err
	}
	var number, serial int64
	err := run.row(ctx, nextSerial, seq.Game, seq.Stake.String()).Scan(&number, &serial)
	if errors.Is(err, sql.ErrNoRows) || err == nil && serial == table.Units {
		return Receipt{}, false, nil // no block on sale, or a block's last unit: the general path opens the next
	}
	if err == nil {
		var n int64
		if n, err = run.update(ctx, takeSerial, seq.Game, seq.Stake.String(), number, serial); err == nil && n != 1 {
			err = fmt.Errorf("block %s sold %d serials of %d", seq.Block(number), n, serial)
		}
	}
	if err != nil {
		return Receipt{}, false, fmt.Errorf("store: allocating a serial of %s: %w", seq, err)
	}
	at, err := s.clock(ctx, run)
	if err != nil {
		return Receipt{}, false, err
	}
	sold, err := s.dealt(ctx, run, p.Game, seq, table, number, serial, at)
	if err != nil {
		return Receipt{}, false, err
	}
	prize, ok := game.CentsOf(sold.Unit.Prize)
	if !ok || prize < 0 {
		return Receipt{}, false, fmt.Errorf("unit %s: prize %s is not a whole number of cents", sold.Name(), sold.Unit.Prize)
	}
	before, after := k.balance, k.balance-stake+prize
	insert, signed, err := s.insertStatement(p, seq, sold, stake, prize, before, after, at, chainLink{k.Seq + 1, k.Hash})
	if err != nil {
		return Receipt{}, false, err
	}
	n, err := run.update(ctx, debitKnown, int64(after), p.Number, k.Seq+1, signed.Hash[:], p.Account, k.Hash[:], int64(before), p.Lease)
	if err != nil {
		return Receipt{}, false, fmt.Errorf("store: debiting account %q: %w", p.Account, err)
	}
	if n != 1 {
		return Receipt{}, false, nil // not as the seller left it: the general path says why
	}
	if err := s.underLimit(ctx, run, p, stake, at); errors.Is(err, errOverLimit) {
		return Receipt{}, false, nil // the general path refuses it, saying until when
	} else if err != nil {
		return Receipt{}, false, err
	}
	if err := run.exec(ctx, insert.query, insert.args...); err != nil {
		return Receipt{}, false, fmt.Errorf("store: recording purchase %s: %w", p.ID(), err)
	}
	r := receipt(p, sold, stake, prize, before, after, at)
	r.Signed = signed
	return r, true, nil
}

// nextSerial reads the next serial of the first block on sale, and
// takeSerial takes it: within BEGIN IMMEDIATE nothing is written between
// them, and two plain statements cost SQLite less than one UPDATE with its
// RETURNING (an ephemeral table a statement).
const (
	nextSerial = `SELECT number, sold + 1 FROM blocks WHERE game = $1 AND stake = $2 AND closed IS NULL AND sold < units ORDER BY number LIMIT 1`
	takeSerial = `UPDATE blocks SET sold = $4 WHERE game = $1 AND stake = $2 AND number = $3 AND sold = $4 - 1`
)

// rawStatements are the statements a SQLite store prepared on the driver's
// connection, by query as written for PostgreSQL, and the connection.
type rawStatements struct {
	mu    sync.Mutex
	conn  any
	stmts map[string]driver.Stmt
}

// runner returns the runner of the driver's connection dc; statements
// prepared on another connection (one the pool dropped) are let go.
func (r *rawStatements) runner(s *SQL, dc any) rawRunner {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conn != dc {
		r.conn, r.stmts = dc, map[string]driver.Stmt{}
	}
	return rawRunner{s: s, c: dc, stmts: r}
}

// prepared returns the statement of a query, prepared once a connection.
func (r *rawStatements) prepared(s *SQL, dc any, query string) (driver.Stmt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st := r.stmts[query]; st != nil {
		return st, nil
	}
	pc, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, errors.New("store: the SQLite driver prepares no statement")
	}
	st, err := pc.PrepareContext(context.Background(), s.engine.q(query))
	if err != nil {
		return nil, err
	}
	r.stmts[query] = st
	return st, nil
}

// close closes the statements prepared on the store's connection.
func (r *rawStatements) close(db *sql.DB) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.stmts) == 0 {
		return nil
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		var errs []error
		if dc == r.conn { // another connection's are gone with it
			for _, st := range r.stmts {
				errs = append(errs, st.Close())
			}
		}
		r.conn, r.stmts = nil, nil
		return errors.Join(errs...)
	})
}

// rawRunner runs statements on the SQLite driver's connection, each
// prepared once, under no context that can end (see sellSQLite).
type rawRunner struct {
	s     *SQL
	c     any
	stmts *rawStatements
}

func (r rawRunner) args(args []any) ([]driver.NamedValue, error) {
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return nil, fmt.Errorf("store: argument %d: %w", i+1, err)
		}
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return named, nil
}

// update runs a statement and returns how many rows it changed.
func (r rawRunner) update(_ context.Context, query string, args ...any) (int64, error) {
	st, err := r.stmts.prepared(r.s, r.c, query)
	if err != nil {
		return 0, err
	}
	named, err := r.args(args)
	if err != nil {
		return 0, err
	}
	ex, ok := st.(driver.StmtExecContext)
	if !ok {
		return 0, errors.New("store: the SQLite driver's statement runs no exec")
	}
	res, err := ex.ExecContext(context.Background(), named)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (r rawRunner) exec(ctx context.Context, query string, args ...any) error {
	_, err := r.update(ctx, query, args...)
	return err
}

func (r rawRunner) row(_ context.Context, query string, args ...any) scanner {
	st, err := r.stmts.prepared(r.s, r.c, query)
	if err != nil {
		return rawRow{err: err}
	}
	named, err := r.args(args)
	if err != nil {
		return rawRow{err: err}
	}
	q, ok := st.(driver.StmtQueryContext)
	if !ok {
		return rawRow{err: errors.New("store: the SQLite driver's statement runs no query")}
	}
	rows, err := q.QueryContext(context.Background(), named)
	return rawRow{rows: rows, err: err}
}

// rawRow is the first row of a driver's rows, read as database/sql reads
// one: sql.ErrNoRows when there is none. It reads integers and text.
type rawRow struct {
	rows driver.Rows
	err  error
}

func (r rawRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	values := make([]driver.Value, len(r.rows.Columns()))
	if err := r.rows.Next(values); errors.Is(err, io.EOF) {
		return sql.ErrNoRows
	} else if err != nil {
		return err
	}
	if len(dest) != len(values) {
		return fmt.Errorf("store: %d columns read into %d values", len(values), len(dest))
	}
	for i, v := range values {
		if err := assign(dest[i], v); err != nil {
			return fmt.Errorf("store: column %d: %w", i+1, err)
		}
	}
	return nil
}

// assign sets an integer or a text read from SQLite.
func assign(dest any, v driver.Value) error {
	switch d := dest.(type) {
	case *int64:
		if n, ok := v.(int64); ok {
			*d = n
			return nil
		}
	case *string:
		switch t := v.(type) {
		case string:
			*d = t
			return nil
		case []byte:
			*d = string(t)
			return nil
		}
	}
	return fmt.Errorf("cannot read %T into %T", v, dest)
}
