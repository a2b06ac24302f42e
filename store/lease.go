package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"sync"
	"time"

	"tapis/text"
)

// InUseError is an account another seller holds: a game, a simulate or a
// serve session, in this process or another, on this machine or another.
// Two sellers of one account would each check its rules against only
// their own sales.
type InUseError struct {
	Account string
	PID     int    // the holder's process, or 0 when unknown
	Host    string // the holder's machine, or "" when unknown
}

// Error writes "account NAME is in use by another seller (pid N on HOST)".
func (e *InUseError) Error() string {
	s := "account " + text.Printable(e.Account) + " is in use by another seller"
	if e.PID > 0 {
		s += " (pid " + strconv.Itoa(e.PID)
		if e.Host != "" {
			s += " on " + text.Printable(e.Host)
		}
		s += ")"
	}
	return s
}

// Holder is a store that lets one seller at a time hold an account.
type Holder interface {
	// Hold takes the account for the caller until the lease is
	// released, or the caller's process ends however it ends; an
	// *InUseError when another seller holds it.
	Hold(ctx context.Context, account string) (*Lease, error)
}

// Lease is an account held by one seller.
type Lease struct {
	once    sync.Once
	release func() error
	err     error
}

// Release gives the account back; a second call does nothing.
func (l *Lease) Release() error {
	l.once.Do(func() { l.err = l.release() })
	return l.err
}

// leases are the accounts a store's sellers in this process hold, and the
// engine's lock that holds them against other processes.
type leases struct {
	mu   sync.Mutex
	held map[string]bool
	lock accountLock // nil until the first Hold
}

// accountLock is how an engine holds an account against other
// processes: a lock the system or the database drops when the holder
// dies. take reports false when another process holds it.
type accountLock interface {
	take(ctx context.Context, key int64) (bool, error)
	give(key int64) error
	close() error
}

// leaseKey is an account's lock: a 63-bit hash of its name, in a space of
// tapis's own.
func leaseKey(account string) int64 {
	h := fnv.New64a()
	h.Write([]byte("tapis account\x00" + account))
	return int64(h.Sum64() >> 1)
}

// Hold takes an account for this seller alone: the engine's lock (a
// byte-range lock of the store's lease file on SQLite, which the system
// drops when the process ends; a session-level advisory lock on
// PostgreSQL, which the database drops when the connection does), and a
// line in sellers saying who holds it, for the sellers it refuses.
func (s *SQL) Hold(ctx context.Context, account string) (*Lease, error) {
	l := &s.leases
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held[account] {
		host, _ := os.Hostname()
		return nil, &InUseError{Account: account, PID: os.Getpid(), Host: host}
	}
	if l.lock == nil {
		lock, err := s.accountLock(ctx)
		if err != nil {
			return nil, fmt.Errorf("store: holding account %q: %w", account, err)
		}
		l.lock = lock
	}
	key := leaseKey(account)
	ok, err := l.lock.take(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("store: holding account %q: %w", account, oneLine{err})
	}
	if !ok {
		return nil, s.holder(ctx, account)
	}
	if err := s.takeOver(ctx, account); err != nil {
		l.lock.give(key) //nolint:errcheck // the error said is the record's
		return nil, err
	}
	if l.held == nil {
		l.held = map[string]bool{}
	}
	l.held[account] = true
	return &Lease{release: func() error {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.lock == nil || !l.held[account] {
			return nil // the store closed first, letting every account go
		}
		delete(l.held, account)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := errors.Join(s.handOver(ctx, account), l.lock.give(key)); err != nil {
			return fmt.Errorf("store: releasing account %q: %w", account, oneLine{err})
		}
		return nil
	}}, nil
}

// accountLock opens the engine's account lock.
func (s *SQL) accountLock(ctx context.Context) (accountLock, error) {
	if s.dialect.name == "postgres" {
		return newAdvisoryLock(ctx, s.db)
	}
	return newFileLock(s.path + "-leases")
}

// takeOver writes, in one transaction, who holds an account now (this
// process, on this machine) and that the units its last seller left
// being revealed are no secret: that seller is gone, however it ended.
func (s *SQL) takeOver(ctx context.Context, account string) error {
	host, _ := os.Hostname()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.dialect.q(`INSERT INTO sellers (account, pid, host, since) VALUES ($1, $2, $3, $4)
			ON CONFLICT (account) DO UPDATE SET pid = excluded.pid, host = excluded.host, since = excluded.since`),
			account, os.Getpid(), host, s.now().UnixNano()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.dialect.q(leaveUnseen), account)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: taking account %q: %w", account, oneLine{err})
	}
	return nil
}

// handOver writes, in one transaction, that a session of an account is
// over: its units seen (the marks still queued), those it did not reveal
// no secret any more (the board counts them), no one holding it.
func (s *SQL) handOver(ctx context.Context, account string) error {
	units := s.takeShown(account)
	host, _ := os.Hostname()
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, u := range units {
			query, args := shownStatement(account, u)
			if _, err := tx.ExecContext(ctx, s.dialect.q(query), args...); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, s.dialect.q(leaveUnseen), account); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.dialect.q(`DELETE FROM sellers WHERE account = $1 AND pid = $2 AND host = $3`),
			account, os.Getpid(), host)
		return err
	})
	if err != nil {
		s.requeueShown(account, units)
		return fmt.Errorf("store: letting account %q go: %w", account, oneLine{err})
	}
	return nil
}

// holder says who holds an account another process took: as much as
// sellers says.
// A holder writes its line just after taking the lock: a seller refused
// in between waits a moment for it.
func (s *SQL) holder(ctx context.Context, account string) error {
	e := &InUseError{Account: account}
	for range 20 {
		err := s.db.QueryRowContext(ctx, s.dialect.q(`SELECT pid, host FROM sellers WHERE account = $1`), account).Scan(&e.PID, &e.Host)
		if !errors.Is(err, sql.ErrNoRows) {
			if err != nil {
				e.PID, e.Host = 0, ""
			}
			return e
		}
		select {
		case <-ctx.Done():
			return e
		case <-time.After(25 * time.Millisecond):
		}
	}
	return e
}

// closeLeases lets every account this store holds go.
func (s *SQL) closeLeases() error {
	s.leases.mu.Lock()
	defer s.leases.mu.Unlock()
	if s.leases.lock == nil {
		return nil
	}
	err := s.leases.lock.close()
	s.leases.lock, s.leases.held = nil, nil
	return err
}

// advisoryLock holds accounts on PostgreSQL with session-level advisory
// locks, all on one connection of the store's pool kept for them: the
// database drops them the moment that connection ends, the seller's
// process killed or its machine gone.
type advisoryLock struct {
	db   *sql.DB
	conn *sql.Conn
	keys map[int64]bool // the locks held, taken again on a new connection
}

func newAdvisoryLock(ctx context.Context, db *sql.DB) (*advisoryLock, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &advisoryLock{db: db, conn: conn, keys: map[int64]bool{}}, nil
}

func (a *advisoryLock) take(ctx context.Context, key int64) (bool, error) {
	ok, err := a.try(ctx, key)
	if err != nil && a.conn.PingContext(ctx) != nil {
		// The connection is gone, and its locks with it: take them again
		// on a new one (an account another seller took meanwhile is
		// lost to it, as it would be to a seller killed).
		if err := a.reconnect(ctx); err != nil {
			return false, err
		}
		ok, err = a.try(ctx, key)
	}
	if ok {
		a.keys[key] = true
	}
	return ok, err
}

func (a *advisoryLock) try(ctx context.Context, key int64) (bool, error) {
	var ok bool
	err := a.conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok)
	return ok, err
}

func (a *advisoryLock) reconnect(ctx context.Context) error {
	discard(a.conn)
	conn, err := a.db.Conn(ctx)
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

func (a *advisoryLock) give(key int64) error {
	delete(a.keys, key)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := a.conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, key)
	return err
}

// close ends the connection that holds the locks: the database drops
// them all.
func (a *advisoryLock) close() error {
	discard(a.conn)
	return nil
}

// discard closes a connection of the pool for good: never back to the
// pool, with its locks.
func discard(conn *sql.Conn) {
	conn.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // ErrBadConn: the pool closes it
	conn.Close()                                           //nolint:errcheck // closed already
}
