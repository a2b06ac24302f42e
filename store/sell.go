package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/wallet"
)

// Sell sells a unit to an account in one transaction: the account locked,
// a serial allocated from a block on sale, the stake debited and the prize
// credited, the unit and its layout recorded; the block's seed revealed and
// the next block opened (its commitment recorded) when that was its last
// unit. A purchase whose number the account has made already is returned
// as it was (Receipt.Again).
//
// The account's units marked shown and still queued (ShownSoon) are
// marked in the purchase's transaction.
func (s *SQL) Sell(ctx context.Context, p Purchase) (Receipt, error) {
	carried := s.takeShown(p.Account)
	p.Shown = append(p.Shown, carried...)
	r, err := s.sellCarrying(ctx, p)
	if err != nil {
		s.requeueShown(p.Account, carried)
	}
	return r, err
}

// sellCarrying is Sell, p.Shown carried.
func (s *SQL) sellCarrying(ctx context.Context, p Purchase) (Receipt, error) {
	if err := s.selling(); err != nil {
		return Receipt{}, err
	}
	stake := p.PlayedStake()
	seq := p.Game.Seq(stake)
	table, err := s.emission.Table(seq)
	if err != nil {
		return Receipt{}, err
	}
	cents, ok := game.CentsOf(stake)
	if !ok || cents <= 0 {
		return Receipt{}, fmt.Errorf("wallet: stake %s is not positive", stake)
	}
	if p.Force != nil && !s.emission.QA {
		return Receipt{}, errors.New("forced units are sold by a QA store only (one created with --qa), never from the house's emission")
	}
	// The marks are signed before any transaction begins: not while the
	// purchase holds the account, its block or (SQLite) the store.
	marks := s.shownStatements(p)
	var r Receipt
	done := false
	if p.Force == nil {
		if r, done, err = s.engine.sellPipelined(ctx, s, p, marks, seq, table, cents); err != nil {
			return Receipt{}, err
		}
	}
	for try := 0; !done; try++ {
		err = s.tx(ctx, func(tx *sql.Tx) error {
			var err error
			r, err = s.sell(ctx, tx, p, marks, seq, table, cents)
			return err
		})
		if !errors.Is(err, errCheck) {
			break
		}
		// The account could not pay for it as it stood: all was rolled
		// back; say why, or sell again if it changed meanwhile.
		err = s.tx(ctx, func(tx *sql.Tx) error {
			var err error
			r, done, err = s.check(ctx, tx, p, marks, cents)
			return err
		})
		if err == nil && !done && try == 3 {
			err = fmt.Errorf("purchase %s: the account changed under it %d times", p.ID(), try+1)
		}
		if err != nil {
			break
		}
	}
	if errors.Is(err, errOverLimit) {
		return Receipt{}, s.lossLimitError(ctx, p, stake)
	}
	if err != nil {
		return Receipt{}, err
	}
	if r.Sold.Forced == nil && !r.Again {
		if id := r.Sold.Unit.ID.BlockID(); r.Sold.Unit.ID.Serial == table.Units {
			s.orders.drop(id)
		} else {
			s.orders.soldFrom(id)
		}
	}
	if r.Signed != nil && !r.Again {
		after, _ := game.CentsOf(r.Op.After)
		s.noteRecord(ledger.AccountHead{Account: p.Account, Seq: r.Signed.Seq, Hash: r.Signed.Hash}, p.Number, after, true)
	}
	s.noteMarks(shownMarks(p.Account, p.Shown))
	return r, nil
}

// errCheck is a sale the account could not take as it stood: the
// transaction is rolled back, and check says why.
var errCheck = errors.New("the account did not take the purchase")

// sell sells a unit and debits the account in one transaction, the
// account's conditions (its next purchase number, a balance that pays the
// stake) checked by the debit itself: errCheck when they do not hold.
// When this seller's last record of the account is the purchase before,
// the purchase is chained to it at once and the debit writes the head too,
// if the account is still as the seller left it (its chain's place and
// head, its balance); otherwise the account is debited as it stands and
// its last record checked (trustedHead).
func (s *SQL) sell(ctx context.Context, tx *sql.Tx, p Purchase, marks []statement, seq game.SeqKey, table *game.Table, stake game.Cents) (Receipt, error) {
	run := sqlRunner{s, tx}
	if err := markShown(ctx, run, marks); err != nil {
		return Receipt{}, err
	}
	var (
		sold lottery.Sold
		at   time.Time // the time of the sale: once its serial is taken, after its block's commitment
		err  error
	)
	if p.Force != nil {
		if sold, err = s.force(ctx, tx, p, seq); err == nil {
			at, err = s.clock(ctx, run)
		}
	} else {
		sold, at, err = s.draw(ctx, tx, p.Game, seq, table)
	}
	if err != nil {
		return Receipt{}, err
	}
	prize, ok := game.CentsOf(sold.Unit.Prize)
	if !ok || prize < 0 {
		return Receipt{}, fmt.Errorf("unit %s: prize %s is not a whole number of cents", sold.Name(), sold.Unit.Prize)
	}
	lease := p.Lease
	if !s.engine.fenceInDebit() {
		lease = "" // checked by a statement of its own, the account's row locked
	}
	var (
		before, after game.Cents
		insert        statement
		signed        *ledger.Receipt
		debited       bool // by the seller's own last record: the head written with it
	)
	if k, ok := s.lastPurchase(p); ok && k.balance >= stake {
		before, after = k.balance, k.balance-stake+prize
		if insert, signed, err = s.insertStatement(p, seq, sold, stake, prize, before, after, at, chainLink{k.Seq + 1, k.Hash}); err != nil {
			return Receipt{}, err
		}
		n, err := run.update(ctx, debitKnown, int64(after), p.Number, k.Seq+1, signed.Hash[:], p.Account, k.Hash[:], int64(before), lease)
		if err != nil {
			return Receipt{}, fmt.Errorf("store: debiting account %q: %w", p.Account, err)
		}
		debited = n == 1
	}
	var link chainLink
	var head []byte
	var deposits int
	if !debited {
		err = run.row(ctx, debitAccount, int64(stake), int64(prize), p.Number, p.Account, lease).Scan(&after, &link.seq, &head, &deposits)
		if errors.Is(err, sql.ErrNoRows) {
			return Receipt{}, errCheck
		}
		if err != nil {
			return Receipt{}, fmt.Errorf("store: debiting account %q: %w", p.Account, err)
		}
		before = after + stake - prize
	}
	if !s.engine.fenceInDebit() {
		if err := s.fenced(ctx, run, p); err != nil {
			return Receipt{}, err
		}
	}
	if err := s.underLimit(ctx, run, p, stake, at); err != nil {
		return Receipt{}, err
	}
	if !debited {
		if link.prev, err = s.trustedHead(ctx, run, p.Account, link.seq-1, head, p.Number-1, deposits, before); err != nil {
			return Receipt{}, err
		}
		if insert, signed, err = s.insertStatement(p, seq, sold, stake, prize, before, after, at, link); err != nil {
			return Receipt{}, err
		}
	}
	if err := run.exec(ctx, insert.query, insert.args...); err != nil {
		return Receipt{}, fmt.Errorf("store: recording purchase %s: %w", p.ID(), err)
	}
	if !debited {
		if err := run.exec(ctx, setHead, signed.Hash[:], p.Account); err != nil {
			return Receipt{}, fmt.Errorf("store: recording purchase %s: %w", p.ID(), err)
		}
	}
	r := receipt(p, sold, stake, prize, before, after, at)
	r.Signed = signed
	return r, nil
}

// lastPurchase returns this seller's last record of p's account when it is
// the account's purchase before p: where the account's chain and balance
// stood once the seller wrote it (the debit checks they still do).
func (s *SQL) lastPurchase(p Purchase) (knownRecord, bool) {
	s.book.mu.Lock()
	k, ok := s.book.known[p.Account]
	s.book.mu.Unlock()
	return k, ok && k.number > 0 && k.number == p.Number-1
}

// chainLink is where a record goes in its account's chain: its place, and
// the hash of the record before it.
type chainLink struct {
	seq  int64
	prev ledger.Hash
}

// check says why an account did not take a purchase, by the admission
// rules (Admit): no such account, a retry of a purchase made (returned as
// it was), a purchase out of turn or another than the one made, a lease
// lost, a balance short, the loss limit. It reports false, with no error,
// when nothing stops the purchase now: it is to be sold again.
func (s *SQL) check(ctx context.Context, tx *sql.Tx, p Purchase, marks []statement, cents game.Cents) (Receipt, bool, error) {
	run := sqlRunner{s, tx}
	if err := markShown(ctx, run, marks); err != nil {
		return Receipt{}, false, err
	}
	st, err := s.standing(ctx, run, p)
	if err != nil {
		return Receipt{}, false, err
	}
	again, err := Admit(p, st, cents)
	if err != nil || !again {
		return Receipt{}, false, err
	}
	// A retry: the answer to the purchase was lost.
	r, err := s.purchase(ctx, tx, p.Account, p.Number)
	if err != nil {
		return Receipt{}, false, err
	}
	var attempt string
	if err := run.row(ctx, `SELECT attempt FROM purchases WHERE account = $1 AND number = $2`, p.Account, p.Number).Scan(&attempt); err != nil {
		return Receipt{}, false, fmt.Errorf("store: reading purchase %s: %w", p.ID(), err)
	}
	if !p.Same(r, attempt) {
		return Receipt{}, false, otherPurchase(p, r)
	}
	r.Again = true
	return r, true, nil
}

// standing reads a purchase's account as Admit weighs it, in the
// purchase's transaction: its net loss only when the purchase has a loss
// limit, by the store's clock.
func (s *SQL) standing(ctx context.Context, r runner, p Purchase) (Standing, error) {
	var st Standing
	err := r.row(ctx, selectAccount, p.Account).Scan(&st.Balance, &st.Made)
	if errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("account %q: %w", p.Account, ErrNoAccount)
	}
	if err != nil {
		return st, fmt.Errorf("store: reading account %q: %w", p.Account, err)
	}
	if st.Lease, err = s.leaseToken(ctx, r, p); err != nil {
		return st, err
	}
	if p.LossLimit.IsPositive() {
		now, err := s.clock(ctx, r)
		if err != nil {
			return st, err
		}
		var loss int64
		if err := r.row(ctx, lossQuery, p.Account, now.Add(-LossWindow).UnixNano()).Scan(&loss); err != nil {
			return st, fmt.Errorf("store: reading account %q's net loss: %w", p.Account, err)
		}
		st.Loss = game.Cents(loss)
	}
	return st, nil
}

// markShown marks the units a purchase carries as shown, by their
// statements (shownStatements), in its transaction.
func markShown(ctx context.Context, r runner, marks []statement) error {
	for _, st := range marks {
		if err := r.exec(ctx, st.query, st.args...); err != nil {
			return fmt.Errorf("store: marking units shown: %w", err)
		}
	}
	return nil
}

// shownStatements mark the units a purchase carries as shown.
func (s *SQL) shownStatements(p Purchase) []statement {
	var out []statement
	for _, unit := range p.Shown {
		q, args := s.shownStatement(p.Account, unit)
		out = append(out, statement{q, args})
	}
	return out
}

// shownStatement marks a unit shown, the mark signed: a unit of a block
// found by its serial's index, a forced one by its name among its
// account's purchases.
func (s *SQL) shownStatement(account string, unit lottery.Ref) (string, []any) {
	sig := s.key.Sign(shownMark(account, unit).Hash(s.emission.SealHash))
	if unit.Forced == nil {
		id := unit.ID
		return shownQuery, []any{id.Game, id.Stake.String(), id.Block, id.Serial, account, sig[:]}
	}
	return shownForced, []any{account, unit.Name(), sig[:]}
}

// shownMark is the mark of a unit shown.
func shownMark(account string, unit lottery.Ref) ledger.Mark {
	return ledger.Mark{Account: account, Unit: unit.Name(), Value: ledger.Shown}
}

// shownMarks are the marks of units shown.
func shownMarks(account string, units []lottery.Ref) []ledger.Mark {
	out := make([]ledger.Mark, 0, len(units))
	for _, u := range units {
		out = append(out, shownMark(account, u))
	}
	return out
}

// statement is a query and its arguments.
type statement struct {
	query string
	args  []any
}

// insertStatement records a purchase once its unit is sold, at its place
// in its account's chain, signed: the receipt returned is the player's.
func (s *SQL) insertStatement(p Purchase, seq game.SeqKey, sold lottery.Sold, stake, prize, before, after game.Cents, at time.Time, link chainLink) (statement, *ledger.Receipt, error) {
	layout, err := sold.Layout.MarshalJSON()
	if err != nil {
		return statement{}, nil, fmt.Errorf("store: %w", err)
	}
	var block sql.NullInt64
	var label sql.NullString
	serial := sold.Unit.ID.Serial
	if sold.Forced != nil {
		label = sql.NullString{String: sold.Forced.Label, Valid: true}
		serial = sold.Forced.Serial
	} else {
		block = sql.NullInt64{Int64: sold.Unit.ID.Block, Valid: true}
	}
	rec := ledger.Purchase{Account: p.Account, Number: p.Number, Unit: sold.Name(), Block: block.Int64, Serial: serial,
		Label: label.String, Tier: sold.Unit.Tier, Stake: stake, Prize: prize, Before: before, After: after,
		Layout: string(layout), At: at.UnixNano()}
	hash := ledger.Link(s.emission.SealHash, link.prev, link.seq, rec)
	sig := s.key.Sign(hash)
	signed := ledger.NewReceipt(rec, link.seq, s.emission.SealHash, link.prev, hash, sig, s.emission.Key())
	return statement{insertPurchase, []any{p.Account, p.Number, seq.Game, seq.Stake.String(), block, serial, label, sold.Name(), sold.Unit.Tier,
		int64(stake), int64(prize), int64(before), int64(after), string(layout), at.UnixNano(), p.Attempt,
		link.seq, link.prev[:], hash[:], sig[:]}}, &signed, nil
}

// receipt is a purchase made.
func receipt(p Purchase, sold lottery.Sold, stake, prize, balance, after game.Cents, at time.Time) Receipt {
	op := wallet.Operation{Seq: p.Number, Unit: sold.Name(), Forced: sold.Forced != nil,
		Stake: stake.Decimal(), Prize: prize.Decimal(), Before: balance.Decimal(), After: after.Decimal()}
	return Receipt{Op: op, Sold: sold, At: at}
}

// The statements of a purchase, prepared once a store.
const (
	selectAccount = `SELECT balance, purchases FROM accounts WHERE name = $1`
	allocateFirst = `UPDATE blocks SET sold = sold + 1
		WHERE game = $1 AND stake = $2 AND sold < units AND number = (
			SELECT number FROM blocks WHERE game = $1 AND stake = $2 AND closed IS NULL AND sold < units
			ORDER BY number LIMIT 1)
		RETURNING number, sold`
	allocateFree = `UPDATE blocks SET sold = sold + 1
		WHERE game = $1 AND stake = $2 AND sold < units AND number = (
			SELECT number FROM blocks WHERE game = $1 AND stake = $2 AND closed IS NULL AND sold < units
			ORDER BY number LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING number, sold`
	// shownQuery finds the unit by its serial's unique index alone, and
	// checks its account on the row found: an account = $5 that could
	// lead an index lets PostgreSQL cache, for a connection's life, a
	// plan made while the table was small that reads every purchase of
	// the account by purchases_at, the two costing the same then (a mark
	// then took a millisecond more for each thousand of the account's
	// purchases). IS TRUE leads no index, on either engine.
	shownQuery    = `UPDATE purchases SET shown = 1, shown_sig = $6 WHERE game = $1 AND stake = $2 AND block = $3 AND serial = $4 AND (account = $5) IS TRUE`
	shownForced   = `UPDATE purchases SET shown = 1, shown_sig = $3 WHERE account = $1 AND unit = $2 AND block IS NULL`
	updateAccount = `UPDATE accounts SET balance = $1, purchases = $2, seq = $3, head = $4 WHERE name = $5`
	setHead       = `UPDATE accounts SET head = $1 WHERE name = $2`
	// The debit checks the account's conditions: its next number, a
	// balance that pays the stake, and the seller's lease still its own
	// ($5, when it holds one: see fenced).
	debitAccount = `UPDATE accounts SET balance = balance - $1 + $2, purchases = $3, seq = seq + 1
		WHERE name = $4 AND purchases = $3 - 1 AND balance >= $1
		AND ($5 = '' OR EXISTS (SELECT 1 FROM sellers WHERE account = $4 AND token = $5)) RETURNING balance, seq, head, deposits`
	// debitKnown is the debit of an account as its seller left it: the
	// purchase before ($2 - 1) its last record, at place $3 - 1 of its
	// chain with hash $6, leaving balance $7. It writes the new balance,
	// place and head (the purchase's hash) at once, and changes nothing
	// when the account is not so, nor the lease ($8) the seller's.
	debitKnown = debitAsLeft + `
		AND ($8 = '' OR EXISTS (SELECT 1 FROM sellers WHERE account = $5 AND token = $8))`
	debitAsLeft = `UPDATE accounts SET balance = $1, purchases = $2, seq = $3, head = $4
		WHERE name = $5 AND purchases = $2 - 1 AND seq = $3 - 1 AND head = $6 AND balance = $7`
	insertPurchase = `INSERT INTO purchases
		(account, number, game, stake, block, serial, label, unit, tier, stake_cents, prize, before_cents, after_cents, layout, at, attempt, seq, prev, hash, sig)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`
)

// prepare prepares the statements of a purchase, and those a seller runs
// every few seconds, on the store's database, before any transaction (a
// SQLite store has one connection): each is parsed once a store, not once
// a purchase or a check.
func (s *SQL) prepare(ctx context.Context) error {
	queries := []string{selectAccount, shownQuery, shownForced, debitAccount, debitKnown, insertPurchase, setHead, lossQuery, sellerToken,
		selectEmission, selectOnSale, selectHeadHash, upsertServer, selectStand} // and those of the check and of presence, every few seconds
	for _, q := range append(queries, s.engine.allocations()...) {
		st, err := s.db.PrepareContext(ctx, s.engine.q(q))
		if err != nil {
			return fmt.Errorf("store %s: preparing a statement: %w", s.where, err)
		}
		s.stmts[q] = st
	}
	return nil
}
