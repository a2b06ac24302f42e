package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"tapis/ledger"
)

// Receipts returns the receipts of every purchase of an account, oldest
// first, as the store recorded and signed them: what tapis receipt prints
// for the player to keep. ErrNoAccount for an account the store does not
// hold. A purchase whose row holds no signed record (the store was changed:
// verify --store says how) is an error naming it.
func (s *SQL) Receipts(ctx context.Context, account string) ([]ledger.Receipt, error) {
	var out []ledger.Receipt
	err := s.EachReceipt(ctx, account, func(r ledger.Receipt) error {
		out = append(out, r)
		return nil
	})
	return out, err
}

// EachReceipt calls f with the receipt of each purchase of an account,
// oldest first, as Receipts returns them, holding one at a time: an
// account of a million purchases is printed in little memory. An error of
// f stops it, and is returned.
func (s *SQL) EachReceipt(ctx context.Context, account string, f func(ledger.Receipt) error) error {
	var one int
	err := s.db.QueryRowContext(ctx, s.engine.q(`SELECT 1 FROM accounts WHERE name = $1`), account).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("account %q: %w", account, ErrNoAccount)
	}
	if err != nil {
		return fmt.Errorf("store: reading account %q: %w", account, err)
	}
	rows, err := s.db.QueryContext(ctx, s.engine.q(`SELECT `+receiptColumns+` FROM purchases WHERE account = $1 ORDER BY number`), account)
	if err != nil {
		return fmt.Errorf("store: reading account %q's receipts: %w", account, err)
	}
	defer rows.Close()
	for rows.Next() {
		rec, chain, err := scanRecord(rows, account)
		if err != nil {
			return fmt.Errorf("store: reading account %q's receipts: %w", account, err)
		}
		r := s.signed(rec, chain)
		if r == nil {
			return fmt.Errorf("store: purchase %s holds no signed record: the store was changed (tapis verify --store says how)", PurchaseID(account, rec.Number))
		}
		if err := f(*r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: reading account %q's receipts: %w", account, err)
	}
	return nil
}

// receiptColumns are the columns of a purchase's row its receipt is made
// of, as scanRecord reads them.
const receiptColumns = `number, block, serial, label, unit, tier, stake_cents, prize, before_cents, after_cents, layout, at, seq, prev, hash, sig`

// chainColumns are where a purchase's row stands in its account's chain,
// and its signature: NULL or of the wrong length only in a store changed
// by hand.
type chainColumns struct {
	seq             sql.NullInt64
	prev, hash, sig []byte
}

// scanRecord reads a purchase's row of account, as receiptColumns lists
// it: its record, as the store hashed it, and its place in the chain.
func scanRecord(row scanner, account string) (ledger.Purchase, chainColumns, error) {
	var (
		p     = ledger.Purchase{Account: account}
		c     chainColumns
		block sql.NullInt64
		label sql.NullString
	)
	err := row.Scan(recordColumns(&p, &c, &block, &label)...)
	p.Block, p.Label = block.Int64, label.String
	return p, c, err
}

// recordColumns are where the columns receiptColumns lists are read: a
// record's, its place in the chain, and its block and label (NULL for a
// forced unit, for a unit of a block), which the caller sets in p.
func recordColumns(p *ledger.Purchase, c *chainColumns, block *sql.NullInt64, label *sql.NullString) []any {
	return []any{&p.Number, block, &p.Serial, label, &p.Unit, &p.Tier, &p.Stake, &p.Prize, &p.Before, &p.After,
		&p.Layout, &p.At, &c.seq, &c.prev, &c.hash, &c.sig}
}

// signed returns the receipt of a purchase's record at its place in the
// chain, with the emission's seal and key; nil when the row's chain
// columns hold none.
func (s *SQL) signed(rec ledger.Purchase, c chainColumns) *ledger.Receipt {
	var prev, hash ledger.Hash
	var sig ledger.Sig
	if !c.seq.Valid || len(c.prev) != len(prev) || len(c.hash) != len(hash) || len(c.sig) != len(sig) {
		return nil
	}
	copy(prev[:], c.prev)
	copy(hash[:], c.hash)
	copy(sig[:], c.sig)
	r := ledger.NewReceipt(rec, c.seq.Int64, s.emission.SealHash, prev, hash, sig, s.emission.Key())
	return &r
}
