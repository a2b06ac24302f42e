package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"time"
)

// advisoryLock holds accounts on PostgreSQL with session-level advisory
// locks, all on one connection of the store's pool kept for them: the
// database drops them the moment that connection ends, the seller's
// process killed, or its machine gone (TCP keepalives on that connection
// tell within about half a minute). Its calls are serialized by the
// caller (leases.engine).
type advisoryLock struct {
	db     *sql.DB
	conn   *sql.Conn
	keys   map[int64]bool // the locks held, taken again on a new connection
	closed bool           // closed: no lock is taken, nor connection opened, again
}

// errLockClosed is a call on the locks of a store closed.
var errLockClosed = errors.New("the store's locks are let go: the store is closed")

func newAdvisoryLock(ctx context.Context, db *sql.DB) (*advisoryLock, error) {
	conn, err := lockConn(ctx, db)
	if err != nil {
		return nil, err
	}
	return &advisoryLock{db: db, conn: conn, keys: map[int64]bool{}}, nil
}

// lockConn takes a connection of the pool for the locks, with keepalives
// short enough that the database drops the locks of a machine gone
// within about half a minute, not the system's two hours.
func lockConn(ctx context.Context, db *sql.DB) (*sql.Conn, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	for _, set := range []string{"SET tcp_keepalives_idle = 10", "SET tcp_keepalives_interval = 5", "SET tcp_keepalives_count = 3"} {
		if _, err := conn.ExecContext(ctx, set); err != nil {
			discard(conn)
			return nil, err
		}
	}
	return conn, nil
}

func (a *advisoryLock) take(ctx context.Context, key int64) (bool, error) {
	if a.closed {
		return false, errLockClosed
	}
	ok, err := a.again(ctx, func() (bool, error) { return a.try(ctx, key) })
	if ok {
		a.keys[key] = true
	}
	return ok, err
}

// again asks on the lock's connection, and once more on a new one when
// the question failed and the connection no longer answers: it may be
// gone (the database restarted), and its locks with it.
func (a *advisoryLock) again(ctx context.Context, ask func() (bool, error)) (bool, error) {
	ok, err := ask()
	if err == nil {
		return ok, nil
	}
	if replaced, rerr := a.revive(ctx); rerr != nil || !replaced {
		return false, cmp.Or(rerr, err)
	}
	return ask()
}

// revive replaces the lock's connection when it does not answer a ping,
// asked with a context of its own (the caller's may be what ended), and
// takes its locks again: an account another seller took meanwhile is lost
// to it, and this seller's purchases are refused by its token.
func (a *advisoryLock) revive(ctx context.Context) (replaced bool, err error) {
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if a.conn.PingContext(pctx) == nil {
		return false, nil
	}
	return true, a.reconnect(pctx)
}

func (a *advisoryLock) try(ctx context.Context, key int64) (bool, error) {
	ctx, cancel := own(ctx)
	defer cancel()
	var ok bool
	err := a.conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok)
	return ok, err
}

// own returns the context of a call on the lock's connection: the
// caller's values, not its end (pgx closes a connection whose query is
// cut short, and the database would drop every lock on it), bounded on
// its own.
func own(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
}

func (a *advisoryLock) reconnect(ctx context.Context) error {
	if a.closed {
		return errLockClosed
	}
	discard(a.conn)
	conn, err := lockConn(ctx, a.db)
	if err != nil {
		return err
	}
	a.conn = conn
	for key := range a.keys {
		if ok, err := a.try(ctx, key); err != nil || !ok {
			delete(a.keys, key)
		}
	}
	return nil
}

// keep takes the locks again on a new connection if the one holding them
// is gone (the database restarted, or the connection broke): the
// database dropped them with it. Called every few seconds (RenewLeases),
// it bounds how long a database restart leaves the accounts unheld.
func (a *advisoryLock) keep(ctx context.Context) error {
	if a.closed || len(a.keys) == 0 {
		return nil
	}
	_, err := a.revive(ctx)
	return err
}

// held tests whether another session of the database holds the
// account's lock (this connection's own are not counted, nor another
// database's stores of the same server), without taking it: a bigint
// advisory lock is listed by its high and low 32 bits.
//
// A lock that holds no account is kept by no renewal (keep): its
// connection is replaced here, as take replaces it, or every sweep after
// a database restart would fail on it.
func (a *advisoryLock) held(ctx context.Context, key int64) (bool, error) {
	return a.again(ctx, func() (bool, error) { return a.heldOn(ctx, key) })
}

// heldOn is held, asked on the lock's connection as it is.
func (a *advisoryLock) heldOn(ctx context.Context, key int64) (bool, error) {
	ctx, cancel := own(ctx)
	defer cancel()
	var n int
	err := a.conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND classid = $1 AND objid = $2 AND objsubid = 1 AND pid <> pg_backend_pid()`,
		uint32(uint64(key)>>32), uint32(key)).Scan(&n)
	return n > 0, err
}

func (a *advisoryLock) give(key int64) error {
	delete(a.keys, key)
	if a.closed {
		return nil // the connection's end let it go
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := a.conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, key)
	if err != nil && a.conn.PingContext(ctx) != nil {
		// The connection is gone, the lock with it: the others are
		// taken again on a new one.
		return a.reconnect(ctx)
	}
	return err
}

// close ends the connection that holds the locks: the database drops
// them all.
func (a *advisoryLock) close() error {
	a.closed, a.keys = true, map[int64]bool{}
	discard(a.conn)
	return nil
}

// discard closes a connection of the pool for good: never back to the
// pool, with its locks.
func discard(conn *sql.Conn) {
	conn.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // ErrBadConn: the pool closes it
	conn.Close()                                           //nolint:errcheck // closed already
}
