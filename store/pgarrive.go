package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"tapis/game"
	"tapis/ledger"
)

// arrivePostgres writes who holds an account just locked and reads it,
// creating it when new, in one transaction of two round trips, each a
// pipelined batch. The first takes the account's row (waiting for a
// purchase of it under way), writes the holder's line at the server's
// clock, lists the units its last seller left being revealed, and reads
// the account (arrivalTaken). The second (arrivalDone) creates the
// account with its first deposit when there was none and reads it again,
// leaves those units, each mark signed, and commits, waiting for the disk
// only when the account was missing (money): a login storm syncs once a
// new player, as takeOver and OpenAccount did in turn, and a deposit is
// signed only for an account being created.
//
// It reports done false, having changed nothing, for a store that
// records nothing (a reader's, or one changed under its seller): the
// general path says why.
func (s *SQL) arrivePostgres(ctx context.Context, a arrival) (acc Account, created, done bool, err error) {
	if s.selling() != nil {
		return Account{}, false, false, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return Account{}, false, true, fmt.Errorf("store: taking account %q: %w", a.account, err)
	}
	defer conn.Close()
	err = conn.Raw(func(driverConn any) error {
		c := driverConn.(*stdlib.Conn).Conn()
		var err error
		if acc, created, err = s.pgArrive(ctx, c, a); err != nil {
			// Whatever failed, the transaction goes, on a context of its
			// own (the caller's may be what ended); a connection that
			// cannot even roll back is dropped by the pool.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if _, rerr := c.Exec(rctx, "ROLLBACK"); rerr != nil {
				return oneLine{errors.Join(err, driverBad(rerr))}
			}
		}
		return err
	})
	return acc, created, true, err
}

// arrivalRows is what an arrival's batches read.
type arrivalRows struct {
	units   []string // the units its last seller left being revealed
	found   bool     // the account's row was read
	created bool     // this arrival created it
	acc     Account
	balance game.Cents
	deposit game.Cents
	guest   int
	head    ledger.AccountHead // the record of the deposit that created it
}

// The statements of an arrival on PostgreSQL that the general path writes
// otherwise: the holder's line at the server's clock, in one statement
// (takeOver reads the clock first); and a new account with its first
// deposit, in one statement that creates nothing when the account exists
// (deposit: the account made, credited, its deposit recorded, its head
// moved). The deposit is the account's first record: seq 1, after the
// account's genesis, no purchase before it.
const (
	accountTaken        = `SELECT name FROM accounts WHERE name = $1 FOR UPDATE`
	sellerAtServerClock = `INSERT INTO sellers (account, pid, host, since, token, seen)
		SELECT $1::text, $2::integer, $3::text, clock.t, $4::text, clock.t FROM (` + serverClock + `) AS clock (t)` + sellerReplaced
	accountOpened = `WITH opened AS (
			INSERT INTO accounts (name, balance, deposited, deposits, seq, created, guest, head) VALUES ($1, $2, $2, 1, 1, $3, 0, $4)
			ON CONFLICT DO NOTHING RETURNING name)
		INSERT INTO deposits (account, n, amount, after_purchase, at, seq, hash, sig) SELECT name, 1, $2, 0, $3, 1, $4, $5 FROM opened`
	commitUnsynced = "SET LOCAL synchronous_commit TO OFF"
)

func (s *SQL) pgArrive(ctx context.Context, c *pgx.Conn, a arrival) (Account, bool, error) {
	host, _ := os.Hostname()
	var r arrivalRows
	if err := c.SendBatch(ctx, s.arrivalTaken(a, host, &r)).Close(); err != nil {
		return Account{}, false, fmt.Errorf("store: taking account %q: %w", a.account, oneLine{err})
	}
	b, err := s.arrivalDone(a, &r)
	if err != nil {
		return Account{}, false, fmt.Errorf("opening account %q: %w", a.account, err)
	}
	var left []ledger.Mark
	for _, u := range r.units {
		m, query, args := s.leftMark(a.account, u, "")
		b.Queue(query, args...).Exec(func(tag pgconn.CommandTag) error {
			if tag.RowsAffected() > 0 {
				left = append(left, m)
			}
			return nil
		})
	}
	b.Queue("COMMIT")
	if err := c.SendBatch(ctx, b).Close(); err != nil {
		return Account{}, false, fmt.Errorf("store: taking account %q: %w", a.account, oneLine{err})
	}
	if !r.found { // removed between its creation and its reading: by hand alone
		return Account{}, false, fmt.Errorf("account %q: %w", a.account, ErrNoAccount)
	}
	s.noteMarks(left)
	if r.created {
		s.noteRecord(r.head, 0, r.balance, true)
	}
	acc := r.acc
	acc.Name, acc.Balance, acc.Deposited, acc.Guest = a.account, r.balance.Decimal(), r.deposit.Decimal(), r.guest == 1
	slices.Reverse(acc.Recent)
	return acc, r.created, nil
}

// arrivalTaken is an arrival's first batch: the transaction begun, the
// account's row locked, the holder's line written, the units being
// revealed listed, the account read into r.
func (s *SQL) arrivalTaken(a arrival, host string, r *arrivalRows) *pgx.Batch {
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(accountTaken, a.account)
	b.Queue(sellerAtServerClock, a.account, os.Getpid(), host, a.token)
	b.Queue(unitsRevealing, a.account).Query(func(rows pgx.Rows) error {
		var err error
		r.units, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	s.queueAccount(b, a, r)
	return b
}

// arrivalDone is an arrival's second batch, but its marks and its commit:
// a transaction that creates nothing waits for no disk; an account
// missing is created, its first deposit signed, and read again.
func (s *SQL) arrivalDone(a arrival, r *arrivalRows) (*pgx.Batch, error) {
	b := &pgx.Batch{}
	if r.found {
		b.Queue(commitUnsynced)
		return b, nil
	}
	cents, err := depositCents(a.balance)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC().UnixNano()
	hash, sig := s.signDeposit(ledger.Genesis(s.emission.SealHash, a.account), 1,
		ledger.Deposit{Account: a.account, N: 1, Amount: cents, After: 0, At: now})
	b.Queue(accountOpened, a.account, cents, now, hash[:], sig[:]).Exec(func(tag pgconn.CommandTag) error {
		r.created = tag.RowsAffected() == 1
		return nil
	})
	r.head = ledger.AccountHead{Account: a.account, Seq: 1, Hash: hash}
	s.queueAccount(b, a, r)
	return b, nil
}

// queueAccount reads an account into r: its row, its units never shown,
// its last purchases.
func (s *SQL) queueAccount(b *pgx.Batch, a arrival, r *arrivalRows) {
	b.Queue(accountBalance, a.account).QueryRow(func(row pgx.Row) error {
		err := row.Scan(&r.balance, &r.deposit, &r.acc.Purchases, &r.guest)
		r.found = err == nil
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	b.Queue(pendingPurchases, a.account).Query(func(rows pgx.Rows) error {
		var err error
		r.acc.Pending, err = s.scanPurchases(rows)
		return err
	})
	if a.recent > 0 {
		b.Queue(recentPurchases, a.account, a.recent).Query(func(rows pgx.Rows) error {
			var err error
			r.acc.Recent, err = s.scanPurchases(rows)
			return err
		})
	}
}

// warmPostgres opens the pool's connections at once, each with an
// arrival's statements prepared: the database's processes started, each
// with the tables' descriptions loaded, before a room of players arrives.
// A cold pool made the first room wait for those processes (docs/scaling.md,
// What breaks first). It opens as many as the pool has room for beside the
// connections in use (none, called first): each is held until all are open.
func (s *SQL) warmPostgres(ctx context.Context) error {
	n := pgConns - s.db.Stats().InUse
	if n <= 0 {
		return nil
	}
	_, left, _ := s.leftMark("", "", "")
	statements := []string{"BEGIN", accountTaken, sellerAtServerClock, unitsRevealing, accountBalance, pendingPurchases,
		recentPurchases, accountOpened, left, commitUnsynced, "COMMIT"}
	conns := make([]*sql.Conn, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Go(func() {
			conn, err := s.db.Conn(ctx)
			if err != nil {
				errs[i] = err
				return
			}
			conns[i] = conn // held until every one is open: each is another
			errs[i] = conn.Raw(func(driverConn any) error {
				c := driverConn.(*stdlib.Conn).Conn()
				for _, q := range statements {
					// Prepared under its own text: pgx runs a statement
					// of that text as it, a batch's too.
					if _, err := c.Prepare(ctx, q, q); err != nil {
						return err
					}
				}
				return nil
			})
		})
	}
	wg.Wait()
	opened := 0
	for _, c := range conns {
		if c != nil {
			opened++
			c.Close()
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store %s: %d of its %d connections opened: %w", s.where, opened, n, oneLine{err})
	}
	return nil
}
