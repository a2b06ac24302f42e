package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

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
// clock, lists the units its last seller left being revealed, creates
// the account with its first deposit when there is none, and reads it.
// The second leaves those units, each mark signed, and commits, waiting
// for the disk only when it created the account (money): a login storm
// syncs once a new player, as takeOver and OpenAccount did in turn.
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
			// Whatever failed, the transaction goes; a connection that
			// cannot even roll back is dropped by the pool.
			if _, rerr := c.Exec(ctx, "ROLLBACK"); rerr != nil {
				return errors.Join(err, driverBad(rerr))
			}
		}
		return err
	})
	return acc, created, true, err
}

// The statements of arrivePostgres that the general path writes
// otherwise: the holder's line at the server's clock, in one statement
// (takeOver reads the clock first); and a new account with its first
// deposit, in one statement that creates nothing when the account exists
// (deposit: the account made, credited, its deposit recorded, its head
// moved). The deposit is the account's first record: seq 1, after the
// account's genesis, no purchase before it.
const (
	sellerAtServerClock = `INSERT INTO sellers (account, pid, host, since, token, seen)
		SELECT $1::text, $2::integer, $3::text, clock.t, $4::text, clock.t FROM (` + serverClock + `) AS clock (t)` + sellerReplaced
	accountOpened = `WITH opened AS (
			INSERT INTO accounts (name, balance, deposited, deposits, seq, created, guest, head) VALUES ($1, $2, $2, 1, 1, $3, 0, $4)
			ON CONFLICT DO NOTHING RETURNING name)
		INSERT INTO deposits (account, n, amount, after_purchase, at, seq, hash, sig) SELECT name, 1, $2, 0, $3, 1, $4, $5 FROM opened`
)

func (s *SQL) pgArrive(ctx context.Context, c *pgx.Conn, a arrival) (Account, bool, error) {
	host, _ := os.Hostname()
	now := s.now().UTC().UnixNano()
	hash, sig := s.signDeposit(ledger.Genesis(s.emission.SealHash, a.account), 1,
		ledger.Deposit{Account: a.account, N: 1, Amount: a.balance, After: 0, At: now})
	acc := Account{Name: a.account}
	var (
		units              []string
		created, found     bool
		balance, deposited game.Cents
		guest              int
	)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(`SELECT name FROM accounts WHERE name = $1 FOR UPDATE`, a.account)
	b.Queue(sellerAtServerClock, a.account, os.Getpid(), host, a.token)
	b.Queue(unitsRevealing, a.account).Query(func(rows pgx.Rows) error {
		var err error
		units, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	b.Queue(accountOpened, a.account, a.balance, now, hash[:], sig[:]).Exec(func(tag pgconn.CommandTag) error {
		created = tag.RowsAffected() == 1
		return nil
	})
	b.Queue(accountBalance, a.account).QueryRow(func(row pgx.Row) error {
		err := row.Scan(&balance, &deposited, &acc.Purchases, &guest)
		found = err == nil
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	b.Queue(pendingPurchases, a.account).Query(func(rows pgx.Rows) error {
		var err error
		acc.Pending, err = s.scanPurchases(rows)
		return err
	})
	if a.recent > 0 {
		b.Queue(recentPurchases, a.account, a.recent).Query(func(rows pgx.Rows) error {
			var err error
			acc.Recent, err = s.scanPurchases(rows)
			return err
		})
	}
	if err := c.SendBatch(ctx, b).Close(); err != nil {
		return Account{}, false, fmt.Errorf("store: taking account %q: %w", a.account, oneLine{err})
	}
	if !found { // removed between its creation and its reading: cannot happen but by hand
		return Account{}, false, fmt.Errorf("account %q: %w", a.account, ErrNoAccount)
	}
	var left []ledger.Mark
	b = &pgx.Batch{}
	if !created {
		b.Queue("SET LOCAL synchronous_commit TO OFF")
	}
	for _, u := range units {
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
	s.noteMarks(left)
	if created {
		s.noteRecord(ledger.AccountHead{Account: a.account, Seq: 1, Hash: hash}, 0, a.balance, true)
	}
	acc.Balance, acc.Deposited, acc.Guest = balance.Decimal(), deposited.Decimal(), guest == 1
	slices.Reverse(acc.Recent)
	return acc, created, nil
}

// warmPostgres opens every connection of the pool at once, each reading
// an account no player has (the name "", which no account has), as an
// arrival and a purchase read theirs: the database's processes started,
// each with the tables' descriptions loaded and those statements
// prepared, before a room of players arrives. A cold pool made a room
// arriving at once wait for the processes being started (docs/scaling.md).
func (s *SQL) warmPostgres(ctx context.Context) error {
	conns := make([]*sql.Conn, pgConns)
	errs := make([]error, pgConns)
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
				b := &pgx.Batch{}
				for _, q := range []string{accountBalance, pendingPurchases, unitsRevealing, sellerToken} {
					b.Queue(q, "")
				}
				b.Queue(recentPurchases, "", 1)
				return driverConn.(*stdlib.Conn).Conn().SendBatch(ctx, b).Close()
			})
		})
	}
	wg.Wait()
	for _, c := range conns {
		if c != nil {
			c.Close()
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store %s: opening its connections: %w", s.where, oneLine{err})
	}
	return nil
}
