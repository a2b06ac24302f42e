package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"tapis/game"
)

// sellPostgres sells a unit from a block on PostgreSQL in two round trips,
// each a pipelined batch: the transaction begun, the account locked and a
// serial taken from a block on sale no other seller holds (the one this
// seller sold from last, when it is free), with the sale's time; then,
// the unit dealt here, the account debited and credited, the purchase
// recorded and the transaction committed. It reports false, having
// changed nothing, when the general path must sell instead: no block on
// sale is free (all held by other sellers, or none opened yet), or the
// purchase is no plain next one (a retry, out of turn, a balance short).
func (s *SQL) sellPostgres(ctx context.Context, p Purchase, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return Receipt{}, false, fmt.Errorf("store: %w", err)
	}
	defer conn.Close()
	var (
		r    Receipt
		done bool
	)
	err = conn.Raw(func(driverConn any) error {
		c := driverConn.(*stdlib.Conn).Conn()
		r, done, err = s.pgSell(ctx, c, p, marks, seq, table, stake)
		if err != nil || !done {
			// Whatever failed, the transaction goes; a connection that
			// cannot even roll back is dropped by the pool.
			if _, rerr := c.Exec(ctx, "ROLLBACK"); rerr != nil {
				return errors.Join(err, driverBad(rerr))
			}
		}
		return err
	})
	return r, done, err
}

// driverBad marks an error after which the connection must not be reused:
// database/sql drops a connection whose Raw function returns
// driver.ErrBadConn.
func driverBad(err error) error { return errors.Join(fmt.Errorf("store: %w", err), driver.ErrBadConn) }

func (s *SQL) pgSell(ctx context.Context, c *pgx.Conn, p Purchase, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error) {
	limited := p.LossLimit.IsPositive()
	if k, ok := s.lastPurchase(p); ok && k.balance >= stake && !limited {
		return s.pgSellKnown(ctx, c, p, k, marks, seq, table, stake)
	}
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(selectAccountLocked, p.Account)
	b.Queue(allocatePreferred, seq.Game, seq.Stake.String(), s.orders.preferred(seq))
	if limited {
		b.Queue(pgLossQuery, p.Account, LossWindow.Nanoseconds())
	}
	if p.Lease != "" {
		b.Queue(sellerToken, p.Account)
	}
	res := c.SendBatch(ctx, b)
	var balance, number, serial, now, loss int64
	var token string
	var made int
	var link chainLink
	var head []byte
	var deposits int
	_, err := res.Exec()
	if err == nil {
		err = res.QueryRow().Scan(&balance, &made, &link.seq, &head, &deposits)
	}
	if err != nil {
		res.Close()
		if errors.Is(err, pgx.ErrNoRows) {
			return Receipt{}, false, nil // no such account: the general path says so
		}
		return Receipt{}, false, fmt.Errorf("store: reading account %q: %w", p.Account, err)
	}
	err = res.QueryRow().Scan(&number, &serial, &now)
	if err == nil && limited {
		err = res.QueryRow().Scan(&loss)
	}
	if err == nil && p.Lease != "" {
		if err = res.QueryRow().Scan(&token); errors.Is(err, pgx.ErrNoRows) {
			err = nil // no one holds it: the general path refuses it
		}
	}
	if free, err := allocated(res, err, seq); !free || err != nil {
		return Receipt{}, false, err
	}
	st := Standing{Balance: game.Cents(balance), Made: made, Lease: token, Loss: game.Cents(loss)}
	if again, err := Admit(p, st, stake); again || err != nil {
		return Receipt{}, false, nil // the general path says why, or returns the retry
	}
	at := time.Unix(0, now).UTC()
	sold, err := s.dealt(ctx, pgxRunner{c}, p.Game, seq, table, number, serial, at)
	if err != nil {
		return Receipt{}, false, err
	}
	prize, _ := game.CentsOf(sold.Unit.Prize) // the table's, to the cent
	before := game.Cents(balance)
	after := before - stake + prize
	if link.prev, err = s.trustedHead(ctx, pgxRunner{c}, p.Account, link.seq, head, p.Number-1, deposits, game.Cents(balance)); err != nil {
		return Receipt{}, false, err
	}
	link.seq++
	insert, signed, err := s.insertStatement(p, seq, sold, stake, prize, before, after, at, link)
	if err != nil {
		return Receipt{}, false, err
	}
	stmts := append(slices.Clip(marks), statement{updateAccount, []any{int64(after), p.Number, link.seq, signed.Hash[:], p.Account}}, insert)
	b = &pgx.Batch{}
	for _, st := range stmts {
		b.Queue(st.query, st.args...)
	}
	b.Queue("COMMIT")
	if err := c.SendBatch(ctx, b).Close(); err != nil {
		return Receipt{}, false, fmt.Errorf("store: recording purchase %s: %w", p.ID(), err)
	}
	r := receipt(p, sold, stake, prize, before, after, at)
	r.Signed = signed
	return r, true, nil
}

// pgSellKnown is pgSell of a purchase whose account's last record is this
// seller's purchase before (lastPurchase, no loss limit to read): the
// first round trip takes the serial alone; the second debits the account
// as the seller left it, writing its head (pgDebitKnown), and records the
// purchase. The debit locks the account's row, and its WHERE checks the
// seller's lease: an account another seller changed meanwhile no longer
// ends with the seller's record, and a lease taken before the debit began
// is read by it, as pgSell's statement of its own reads it once the row is
// locked. When the account is not as the seller left it the debit fails
// the transaction (a division by zero), nothing is changed, and the
// general path says why.
func (s *SQL) pgSellKnown(ctx context.Context, c *pgx.Conn, p Purchase, k knownRecord, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, bool, error) {
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(allocatePreferred, seq.Game, seq.Stake.String(), s.orders.preferred(seq))
	res := c.SendBatch(ctx, b)
	var number, serial, now int64
	_, err := res.Exec()
	if err == nil {
		err = res.QueryRow().Scan(&number, &serial, &now)
	}
	if free, err := allocated(res, err, seq); !free || err != nil {
		return Receipt{}, false, err
	}
	at := time.Unix(0, now).UTC()
	sold, err := s.dealt(ctx, pgxRunner{c}, p.Game, seq, table, number, serial, at)
	if err != nil {
		return Receipt{}, false, err
	}
	prize, _ := game.CentsOf(sold.Unit.Prize) // the table's, to the cent
	before, after := k.balance, k.balance-stake+prize
	insert, signed, err := s.insertStatement(p, seq, sold, stake, prize, before, after, at, chainLink{k.Seq + 1, k.Hash})
	if err != nil {
		return Receipt{}, false, err
	}
	debit := statement{pgDebitKnown, []any{int64(after), p.Number, k.Seq + 1, signed.Hash[:], p.Account, k.Hash[:], int64(before), p.Lease}}
	if p.Lease == "" {
		debit = statement{pgDebitUnleased, debit.args[:7]}
	}
	b = &pgx.Batch{}
	for _, st := range append(slices.Clip(marks), debit, insert) {
		b.Queue(st.query, st.args...)
	}
	b.Queue("COMMIT")
	err = c.SendBatch(ctx, b).Close()
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == divisionByZero {
		return Receipt{}, false, nil // not as the seller left it
	}
	if err != nil {
		return Receipt{}, false, fmt.Errorf("store: recording purchase %s: %w", p.ID(), err)
	}
	r := receipt(p, sold, stake, prize, before, after, at)
	r.Signed = signed
	return r, true, nil
}

// pgDebitKnown is debitKnown on PostgreSQL, in a pipeline that cannot
// stop at a row it did not change: the account not as its seller left it,
// the statement fails its transaction instead (1 / 0). A purchase under no
// lease has a statement of its own (pgDebitUnleased): with debitKnown's
// test of an empty lease, PostgreSQL would plan the statement again at
// each purchase, each plan for its own lease.
const (
	pgDebitKnown = `WITH debited AS (` + debitAsLeft + `
		AND EXISTS (SELECT 1 FROM sellers WHERE account = $5 AND token = $8) RETURNING 1) SELECT 1 / COUNT(*) FROM debited`
	pgDebitUnleased = `WITH debited AS (` + debitAsLeft + ` RETURNING 1) SELECT 1 / COUNT(*) FROM debited`
)

// divisionByZero is PostgreSQL's code of pgDebitKnown's failure.
const divisionByZero = "22012"

// allocatePreferred takes the next serial of a block on sale that no other
// seller holds, the block $3 first (the one the seller sold from last:
// see orders), and returns the sale's time by the server's clock, read
// once the serial is taken (as serverClock does). The block $3 is looked
// up alone, by its key; the blocks on sale are read in order only when it
// is held, closed or sold out, or is none of this game and stake ($3 is 0
// before the seller's first sale): COALESCE runs its second subquery only
// then. Each sale updates its block's row, so every block on sale carries
// a chain of versions, and ordering them all walked each chain at every
// purchase.
const allocatePreferred = `UPDATE blocks SET sold = sold + 1
	WHERE game = $1 AND stake = $2 AND sold < units AND number = COALESCE(
		(SELECT number FROM blocks WHERE game = $1 AND stake = $2 AND number = $3 AND closed IS NULL AND sold < units
			FOR UPDATE SKIP LOCKED),
		(SELECT number FROM blocks WHERE game = $1 AND stake = $2 AND closed IS NULL AND sold < units
			ORDER BY number LIMIT 1 FOR UPDATE SKIP LOCKED))
	RETURNING number, sold, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000000)::BIGINT`

// selectAccountLocked reads the account, where its chain stands, and locks
// its row.
const selectAccountLocked = `SELECT balance, purchases, seq, head, deposits FROM accounts WHERE name = $1 FOR UPDATE`

// pgLossQuery is lossQuery on PostgreSQL's clock, read once the account
// is locked: $2 is the window, in nanoseconds.
const pgLossQuery = `SELECT COALESCE(SUM(stake_cents - prize), 0) FROM purchases
	WHERE account = $1 AND at > (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000000)::BIGINT - $2`

// pgxRunner runs statements on a pgx connection, in its transaction.
type pgxRunner struct{ c *pgx.Conn }

func (r pgxRunner) exec(ctx context.Context, query string, args ...any) error {
	_, err := r.c.Exec(ctx, query, args...)
	return err
}

func (r pgxRunner) row(ctx context.Context, query string, args ...any) scanner {
	return pgxRow{r.c.QueryRow(ctx, query, args...)}
}

// pgxRow reads a row as database/sql does: sql.ErrNoRows when there is none.
type pgxRow struct{ row pgx.Row }

func (r pgxRow) Scan(dest ...any) error {
	err := r.row.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return sql.ErrNoRows
	}
	return err
}

// allocated closes the batch that took a serial of seq and says whether
// it took one: err is the batch's own, nil and not free when no block of
// seq had one (the general path opens the next).
func allocated(res pgx.BatchResults, err error, seq game.SeqKey) (free bool, _ error) {
	if cerr := res.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("store: allocating a serial of %s: %w", seq, err)
	}
	return true, nil
}
