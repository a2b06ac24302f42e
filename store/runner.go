package store

import (
	"context"
	"database/sql"
)

// runner runs a transaction's statements, written for PostgreSQL ($1, $2…):
// through database/sql, or on a pgx connection.
type runner interface {
	exec(ctx context.Context, query string, args ...any) error
	row(ctx context.Context, query string, args ...any) scanner
}

// sqlRunner runs statements in a database/sql transaction: those of a
// purchase prepared once a store (prepare), the others as they come.
type sqlRunner struct {
	s  *SQL
	tx *sql.Tx
}

func (r sqlRunner) exec(ctx context.Context, query string, args ...any) error {
	ctx = r.s.engine.statementContext(ctx)
	var err error
	if st := r.s.stmts[query]; st != nil {
		_, err = r.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	} else {
		_, err = r.tx.ExecContext(ctx, r.s.engine.q(query), args...)
	}
	return err
}

// update runs a statement and returns how many rows it changed.
func (r sqlRunner) update(ctx context.Context, query string, args ...any) (int64, error) {
	ctx = r.s.engine.statementContext(ctx)
	var res sql.Result
	var err error
	if st := r.s.stmts[query]; st != nil {
		res, err = r.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	} else {
		res, err = r.tx.ExecContext(ctx, r.s.engine.q(query), args...)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (r sqlRunner) row(ctx context.Context, query string, args ...any) scanner {
	ctx = r.s.engine.statementContext(ctx)
	if st := r.s.stmts[query]; st != nil {
		return r.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return r.tx.QueryRowContext(ctx, r.s.engine.q(query), args...)
}

// dbRunner runs statements on the store's database, each on its own.
type dbRunner struct{ s *SQL }

func (r dbRunner) exec(ctx context.Context, query string, args ...any) error {
	if st := r.s.stmts[query]; st != nil {
		_, err := st.ExecContext(ctx, args...)
		return err
	}
	_, err := r.s.db.ExecContext(ctx, r.s.engine.q(query), args...)
	return err
}

func (r dbRunner) row(ctx context.Context, query string, args ...any) scanner {
	if st := r.s.stmts[query]; st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return r.s.db.QueryRowContext(ctx, r.s.engine.q(query), args...)
}

// query runs a query of rows, prepared where the store prepared it.
func (r dbRunner) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := r.s.stmts[query]; st != nil {
		return st.QueryContext(ctx, args...)
	}
	return r.s.db.QueryContext(ctx, r.s.engine.q(query), args...)
}
