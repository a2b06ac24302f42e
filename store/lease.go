package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"sync"
	"time"

	"tapis/ledger"
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
	token   string
	once    sync.Once
	release func() error
	err     error
}

// Token is the lease's fence: a purchase made under it (Purchase.Lease)
// is refused once another seller has taken the account, were this
// seller's lock lost without its knowing (its database connection cut).
func (l *Lease) Token() string { return l.token }

// Release gives the account back; a second call does nothing.
func (l *Lease) Release() error {
	l.once.Do(func() { l.err = l.release() })
	return l.err
}

// ErrLeaseLost is a purchase made under a lease another seller has taken
// since: the seller's lock was lost (a database connection cut, the same
// store under two paths), and the account is another's now.
var ErrLeaseLost = errors.New("the account is held by another seller now")

// leases are the accounts a store's sellers in this process hold, and the
// engine's lock that holds them against other processes.
type leases struct {
	mu     sync.Mutex        // guards held, lock, closed, failed and failure; held across no call to the database but the lock's opening
	held   map[string]string // the accounts held, by token ("" while being taken)
	lock   accountLock       // nil until the first Hold
	closed bool
	engine sync.Mutex    // serializes the calls to lock
	wait   time.Duration // how long a hold tries again (holdWait; tests set less)
	stop   func()        // stops the renewal (renewLeases), once the lock is open
	every  time.Duration // how often it renews (LeaseRenewEvery; tests set less)
	// failed is when the database last failed a renewal: the sweep waits
	// sweepCalm after it.
	failed time.Time
	// failure is the last renewal's error since RenewalFailed last read
	// it: nil when none failed.
	failure   error
	failureAt time.Time
}

// sweepCalm is how long after a renewal failed (the database
// restarting) the sweep leaves every account alone: live sellers take
// their locks again and renew their lines first.
const sweepCalm = 3 * LeaseRenewEvery

// keepEvery is how often a store holding accounts makes sure its locks
// hold (keep): a database restart leaves an account free to another
// seller for about that long.
const keepEvery = time.Second

// unanswered records that the database did not answer a renewal, or a
// sweep's first question: the sweep waits sweepCalm.
func (l *leases) unanswered() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failed = time.Now()
}

// steady reports whether no renewal failed within sweepCalm.
func (l *leases) steady() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.failed.IsZero() || time.Since(l.failed) > sweepCalm
}

// accountLock is how an engine holds an account against other
// processes: a lock the system or the database drops when the holder
// dies. take reports false when another process holds it.
type accountLock interface {
	take(ctx context.Context, key int64) (bool, error)
	give(key int64) error
	held(ctx context.Context, key int64) (bool, error) // by any process but this one's lock
	// keep makes sure the locks taken are still held, taking them again
	// if they could be lost (the database restarted): those another
	// process took meanwhile are lost to it.
	keep(ctx context.Context) error
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
// line in sellers saying who holds it, with the lease's token that
// fences its purchases.
func (s *SQL) Hold(ctx context.Context, account string) (*Lease, error) {
	return s.hold(ctx, account, func(token string) error { return s.takeOver(ctx, account, token) })
}

// hold is Hold, with the work that writes the holder's line under the
// lease's token, once the lock is taken: takeOver, or more in the same
// transaction (HoldAccount).
func (s *SQL) hold(ctx context.Context, account string, takeOver func(token string) error) (*Lease, error) {
	l := &s.leases
	lock, err := l.reserve(ctx, s, account)
	if err != nil {
		return nil, err
	}
	key := leaseKey(account)
	ok, err := l.take(ctx, lock, key)
	if err != nil || !ok {
		l.unreserve(account)
		if err != nil {
			return nil, fmt.Errorf("store: holding account %q: %w", account, oneLine{err})
		}
		return nil, s.inUseBy(ctx, account)
	}
	token := rand.Text()
	if err := takeOver(token); err != nil {
		l.give(lock, key)
		l.unreserve(account)
		return nil, err
	}
	l.mu.Lock()
	if l.has(account) {
		l.held[account] = token
	}
	l.mu.Unlock()
	return &Lease{token: token, release: func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if !l.holding(account) {
			return nil // the store closed first, letting every account go
		}
		err := errors.Join(s.handOver(ctx, account, token), l.give(lock, key))
		l.unreserve(account)
		if err != nil {
			return fmt.Errorf("store: releasing account %q: %w", account, oneLine{err})
		}
		return nil
	}}, nil
}

// holdWait is how long Hold tries again an account another process
// holds: its holder may be letting it go (a session ending on another
// server, a seller killed whose database connection is not closed yet).
const holdWait = 2 * time.Second

// take takes the account's lock, trying again for wait while another
// process holds it.
func (l *leases) take(ctx context.Context, lock accountLock, key int64) (bool, error) {
	deadline := time.Now().Add(l.wait)
	for {
		l.engine.Lock()
		ok, err := lock.take(ctx, key)
		l.engine.Unlock()
		if ok || err != nil || time.Now().After(deadline) {
			return ok, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// reserve marks an account as being taken by this process, and returns
// the engine's lock, opened on first use: an *InUseError when a seller
// of this process holds it already.
func (l *leases) reserve(ctx context.Context, s *SQL, account string) (accountLock, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.closed:
		return nil, fmt.Errorf("store %s: holding account %q: the store is closed", s.where, account)
	case l.has(account):
		host, _ := os.Hostname()
		return nil, &InUseError{Account: account, PID: os.Getpid(), Host: host}
	}
	if l.lock == nil {
		lock, err := s.engine.accountLock(ctx, s)
		if err != nil {
			return nil, fmt.Errorf("store: holding account %q: %w", account, err)
		}
		l.lock = lock
		s.renewLeases()
	}
	if l.held == nil {
		l.held = map[string]string{}
	}
	l.held[account] = ""
	return l.lock, nil
}

// reserveLock returns the engine's lock, opened on first use.
func (l *leases) reserveLock(ctx context.Context, s *SQL) (accountLock, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("store %s: the store is closed", s.where)
	}
	if l.lock == nil {
		lock, err := s.engine.accountLock(ctx, s)
		if err != nil {
			return nil, err
		}
		l.lock = lock
		s.renewLeases()
	}
	return l.lock, nil
}

func (l *leases) unreserve(account string) {
	l.mu.Lock()
	delete(l.held, account)
	l.mu.Unlock()
}

// holding reports whether the account is held, the store open.
func (l *leases) holding(account string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.closed && l.has(account)
}

// has reports whether the account is held or being taken; l.mu held.
func (l *leases) has(account string) bool {
	_, ok := l.held[account]
	return ok
}

// tokens returns the tokens of the accounts held.
func (l *leases) tokens() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, t := range l.held {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// keep makes sure the engine's lock still holds the accounts taken.
func (l *leases) keep(ctx context.Context) error {
	l.mu.Lock()
	lock := l.lock
	l.mu.Unlock()
	if lock == nil {
		return nil
	}
	l.engine.Lock()
	defer l.engine.Unlock()
	return lock.keep(ctx)
}

func (l *leases) give(lock accountLock, key int64) error {
	l.engine.Lock()
	defer l.engine.Unlock()
	return lock.give(key)
}

// takeOver writes, in one transaction, who holds an account now (this
// process, on this machine, under token) and that the units its last
// seller left being revealed are no secret: that seller is gone, however
// it ended. It waits for a purchase of the account under way (its row
// locked), and any purchase after it under another token is refused.
func (s *SQL) takeOver(ctx context.Context, account, token string) error {
	host, _ := os.Hostname()
	var left []ledger.Mark
	// Its commit waits for no disk (a login storm syncs once a login, not
	// twice): a crash that loses it loses the holder's process too, or,
	// the database crashing, its lock, which the holder takes again (keep)
	// along with its line (a purchase refused, holdAgain).
	err := s.engine.unsyncedTx(ctx, s, func(tx *sql.Tx) error {
		var name string
		err := tx.QueryRowContext(ctx, s.engine.q(s.engine.forUpdate(`SELECT name FROM accounts WHERE name = $1`)), account).Scan(&name)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		now, err := s.clock(ctx, sqlRunner{s, tx})
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.engine.q(`INSERT INTO sellers (account, pid, host, since, token, seen) VALUES ($1, $2, $3, $4, $5, $4)`+sellerReplaced),
			account, os.Getpid(), host, now.UnixNano(), token); err != nil {
			return err
		}
		left, err = s.leaveUnseen(ctx, tx, account, "")
		return err
	})
	if err != nil {
		return fmt.Errorf("store: taking account %q: %w", account, oneLine{err})
	}
	s.noteMarks(left)
	return nil
}

// sellerReplaced ends the statement that writes who holds an account: the
// line of its last holder, if any, is the new holder's.
const sellerReplaced = `
			ON CONFLICT (account) DO UPDATE SET pid = excluded.pid, host = excluded.host, since = excluded.since, token = excluded.token, seen = excluded.seen`

// handOver writes, in one transaction, that a session of an account is
// over: its units seen (the marks still queued, once a write of them
// under way is done), those it did not reveal no secret any more (the
// board counts them), no one holding it. A lease lost to another seller
// changes nothing of the other's.
func (s *SQL) handOver(ctx context.Context, account, token string) error {
	s.shown.writing.Lock() // a write under way, its marks taken, is done first
	units := s.takeShown(account)
	s.shown.writing.Unlock()
	var left []ledger.Mark
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, u := range units {
			query, args := s.shownStatement(account, u)
			if _, err := tx.ExecContext(ctx, s.engine.q(query), args...); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, s.engine.q(`DELETE FROM sellers WHERE account = $1 AND token = $2`), account, token)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // another seller holds it now: its units are its own
		}
		left, err = s.leaveUnseen(ctx, tx, account, "")
		return err
	})
	if err != nil {
		s.requeueShown(account, units)
		return fmt.Errorf("store: letting account %q go: %w", account, oneLine{err})
	}
	s.noteMarks(append(shownMarks(account, units), left...))
	return nil
}

// fenced refuses a purchase made under a lease another seller has taken
// since (ErrLeaseLost), in the purchase's transaction, its account's row
// locked; a purchase under no lease passes.
func (s *SQL) fenced(ctx context.Context, r runner, p Purchase) error {
	if p.Lease == "" {
		return nil
	}
	token, err := s.leaseToken(ctx, r, p)
	if err != nil {
		return err
	}
	return leaseHeld(p, token)
}

// leaseToken returns the token of the lease held on a purchase's account,
// "" when none is; a purchase under no lease is given its own.
func (s *SQL) leaseToken(ctx context.Context, r runner, p Purchase) (string, error) {
	if p.Lease == "" {
		return "", nil
	}
	var token string
	err := r.row(ctx, sellerToken, p.Account).Scan(&token)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("store: reading account %q's seller: %w", p.Account, err)
	}
	return token, nil
}

// sellerToken reads the token of an account's lease.
const sellerToken = `SELECT token FROM sellers WHERE account = $1`

// inUseBy says who holds an account another process took: as much as
// sellers says. A holder writes its line just after taking the lock: a
// seller refused in between waits a moment for it.
func (s *SQL) inUseBy(ctx context.Context, account string) error {
	e := &InUseError{Account: account}
	for range 20 {
		err := s.db.QueryRowContext(ctx, s.engine.q(`SELECT pid, host FROM sellers WHERE account = $1`), account).Scan(&e.PID, &e.Host)
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
	l := &s.leases
	l.mu.Lock()
	l.closed = true
	stop := l.stop
	l.stop = nil
	l.mu.Unlock()
	if stop != nil {
		stop() // a renewal under way ends first
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lock == nil {
		return nil
	}
	l.engine.Lock()
	defer l.engine.Unlock()
	err := l.lock.close()
	l.lock, l.held = nil, nil
	return err
}
