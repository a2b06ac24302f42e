package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/wallet"
)

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// purchaseColumns are a purchase's columns as scanPurchase reads them:
// its signed record (receiptColumns), its account, game and stake, and
// whether it was shown.
const purchaseColumns = receiptColumns + `, account, game, stake, shown`

// scanner is a row or rows.
type scanner interface{ Scan(dest ...any) error }

// scanPurchase reads a purchase's row, as purchaseColumns lists it, with
// its receipt (Signed) when the row holds its signed record.
func (s *SQL) scanPurchase(row scanner) (Receipt, error) {
	var (
		rec                 ledger.Purchase
		chain               chainColumns
		block               sql.NullInt64
		label               sql.NullString
		gameName, stakeText string
		shown               int
	)
	if err := row.Scan(append(recordColumns(&rec, &chain, &block, &label), &rec.Account, &gameName, &stakeText, &shown)...); err != nil {
		return Receipt{}, err
	}
	rec.Block, rec.Label = block.Int64, label.String
	signed := s.signed(rec, chain) // none in a row changed by hand: the seller's checks and verify say so
	key, err := game.ReadSeqKey(gameName, stakeText)
	if err != nil {
		return Receipt{}, fmt.Errorf("purchase %d: %w", rec.Number, err)
	}
	l, err := lottery.Parse([]byte(rec.Layout))
	if err != nil {
		return Receipt{}, fmt.Errorf("purchase %d, unit %s: its layout: %w", rec.Number, rec.Unit, err)
	}
	sold := lottery.Sold{Layout: l, Unit: game.Unit{ID: game.UnitID{Game: key.Game, Stake: key.Stake}, Tier: rec.Tier, Prize: rec.Prize.Decimal()}}
	if label.Valid {
		sold.Forced = &lottery.Forced{Label: label.String, Serial: rec.Serial}
	} else {
		sold.Unit.ID.Block, sold.Unit.ID.Serial = rec.Block, rec.Serial
		sold.Unit.Seed = s.emission.seed.Block(key.Game, key.Stake, rec.Block)
	}
	op := wallet.Operation{Seq: rec.Number, Unit: rec.Unit, Forced: label.Valid, Stake: rec.Stake.Decimal(), Prize: rec.Prize.Decimal(),
		Before: rec.Before.Decimal(), After: rec.After.Decimal()}
	return Receipt{Op: op, Sold: sold, At: time.Unix(0, rec.At).UTC(), Shown: shown == shownSeen, Signed: signed}, nil
}

// purchase reads an account's purchase of a number.
func (s *SQL) purchase(ctx context.Context, q querier, account string, number int) (Receipt, error) {
	row := q.QueryRowContext(ctx, s.engine.q(`SELECT `+purchaseColumns+` FROM purchases WHERE account = $1 AND number = $2`), account, number)
	r, err := s.scanPurchase(row)
	if err != nil {
		return Receipt{}, fmt.Errorf("store: reading purchase %s: %w", PurchaseID(account, number), err)
	}
	return r, nil
}

// purchases reads the purchases a query selects.
func (s *SQL) purchases(ctx context.Context, q querier, query string, args ...any) ([]Receipt, error) {
	rows, err := q.QueryContext(ctx, s.engine.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return s.scanPurchases(rows)
}

// purchaseRows are the rows of a query of purchases, on database/sql or
// on pgx.
type purchaseRows interface {
	scanner
	Next() bool
	Err() error
}

// scanPurchases reads rows of purchases, as purchaseColumns lists them.
func (s *SQL) scanPurchases(rows purchaseRows) ([]Receipt, error) {
	var out []Receipt
	for rows.Next() {
		r, err := s.scanPurchase(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// The statements that read an account (Account, and HoldAccount on
// PostgreSQL): its row, its units never shown (oldest first), and its
// last purchases (newest first, at most $2).
const (
	accountBalance   = `SELECT balance, deposited, purchases, guest FROM accounts WHERE name = $1`
	pendingPurchases = `SELECT ` + purchaseColumns + ` FROM purchases WHERE account = $1 AND shown <> 1 ORDER BY number`
	recentPurchases  = `SELECT ` + purchaseColumns + ` FROM purchases WHERE account = $1 ORDER BY number DESC LIMIT $2`
)

// Account returns an account with its units never shown and its last
// recent purchases.
func (s *SQL) Account(ctx context.Context, name string, recent int) (Account, error) {
	a := Account{Name: name}
	var balance, deposited game.Cents
	var guest int
	err := s.db.QueryRowContext(ctx, s.engine.q(accountBalance), name).Scan(&balance, &deposited, &a.Purchases, &guest)
	if errors.Is(err, sql.ErrNoRows) {
		return Account{}, fmt.Errorf("account %q: %w", name, ErrNoAccount)
	}
	if err != nil {
		return Account{}, fmt.Errorf("store: reading account %q: %w", name, err)
	}
	a.Balance, a.Deposited, a.Guest = balance.Decimal(), deposited.Decimal(), guest == 1
	if a.Pending, err = s.purchases(ctx, s.db, pendingPurchases, name); err != nil {
		return Account{}, fmt.Errorf("store: reading the units account %q has not seen: %w", name, err)
	}
	if recent > 0 {
		if a.Recent, err = s.purchases(ctx, s.db, recentPurchases, name, recent); err != nil {
			return Account{}, fmt.Errorf("store: reading account %q's purchases: %w", name, err)
		}
		slices.Reverse(a.Recent)
	}
	return a, nil
}

// Shown records that an account's unit was fully revealed, now. It is
// not money, and its commit does not wait for the disk (PostgreSQL's
// synchronous_commit off, SQLite's synchronous=NORMAL, for this
// transaction alone): after a crash of the machine, not of tapis, the unit
// may be offered again, the same unit, already paid.
func (s *SQL) Shown(ctx context.Context, account string, unit lottery.Ref) error {
	changed, err := s.shownTx(ctx, []mark{{account, unit}})
	if err != nil {
		return fmt.Errorf("store: marking %s shown: %w", unit.Name(), err)
	}
	if changed[0] == 0 {
		return fmt.Errorf("store: account %q bought no unit %s", account, unit.Name())
	}
	return nil
}

// shownTx marks units shown in one transaction that does not wait for the
// disk, and returns how many rows each mark changed.
func (s *SQL) shownTx(ctx context.Context, marks []mark) ([]int64, error) {
	if err := s.selling(); err != nil {
		return nil, err
	}
	changed := make([]int64, len(marks))
	if err := s.engine.markShownUnsynced(ctx, s, marks, changed); err != nil {
		return changed, err
	}
	var done []ledger.Mark
	for i, m := range marks {
		if changed[i] > 0 {
			done = append(done, shownMark(m.account, m.unit))
		}
	}
	s.noteMarks(done)
	return changed, nil
}

// Deposit credits an account, creating it if it does not exist.
func (s *SQL) Deposit(ctx context.Context, account string, amount decimal.Decimal) error {
	_, err := s.deposit(ctx, account, amount, false, false)
	return err
}

// OpenAccount creates an account holding balance, as one deposit, unless
// it exists: then it is left as it is. It reports whether it created it.
// Sellers opening the same new account at once credit it once.
func (s *SQL) OpenAccount(ctx context.Context, account string, balance decimal.Decimal) (bool, error) {
	return s.deposit(ctx, account, balance, true, false)
}

// OpenGuest creates a guest's account holding balance, as OpenAccount
// does, marked a guest's: one ForgetGuest removes while it has bought
// nothing.
func (s *SQL) OpenGuest(ctx context.Context, account string, balance decimal.Decimal) (bool, error) {
	return s.deposit(ctx, account, balance, true, true)
}

// ForgetGuest removes a guest's account, and its deposit, if it has made
// no purchase: a guest who bought nothing leaves nothing. It reports
// whether it did; an account that bought, or is no guest's, is kept.
func (s *SQL) ForgetGuest(ctx context.Context, account string) (bool, error) {
	var gone bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.engine.q(`DELETE FROM deposits WHERE account = $1
			AND EXISTS (SELECT 1 FROM accounts WHERE name = $1 AND guest = 1 AND purchases = 0)`), account)
		if err != nil {
			return fmt.Errorf("store: forgetting guest %q: %w", account, err)
		}
		res, err := tx.ExecContext(ctx, s.engine.q(`DELETE FROM accounts WHERE name = $1 AND guest = 1 AND purchases = 0`), account)
		if err != nil {
			return fmt.Errorf("store: forgetting guest %q: %w", account, err)
		}
		n, err := res.RowsAffected()
		gone = n == 1
		return err
	})
	return gone, err
}

func (s *SQL) deposit(ctx context.Context, account string, amount decimal.Decimal, onlyNew, guest bool) (created bool, err error) {
	cents, err := depositCents(amount)
	if err != nil {
		return false, err
	}
	if err := accountNamed(account); err != nil {
		return false, err
	}
	if err := s.selling(); err != nil {
		return false, err
	}
	now := s.now().UTC().UnixNano()
	var rec ledger.AccountHead
	var after game.Cents // the account's balance once credited
	err = s.tx(ctx, func(tx *sql.Tx) error {
		genesis := ledger.Genesis(s.emission.SealHash, account)
		res, err := tx.ExecContext(ctx, s.engine.q(`INSERT INTO accounts (name, balance, deposited, created, guest, head) VALUES ($1, 0, 0, $2, $3, $4) ON CONFLICT DO NOTHING`),
			account, now, guestFlag(guest), genesis[:])
		if err != nil {
			return fmt.Errorf("store: creating account %q: %w", account, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("store: creating account %q: %w", account, err)
		}
		created = n == 1
		if onlyNew && !created {
			return nil
		}
		var deposits, purchases int
		var seq int64
		var head []byte
		var balance game.Cents
		err = tx.QueryRowContext(ctx, s.engine.q(`UPDATE accounts SET balance = balance + $1, deposited = deposited + $1, deposits = deposits + 1, seq = seq + 1
			WHERE name = $2 RETURNING deposits, purchases, seq, head, balance`), cents, account).Scan(&deposits, &purchases, &seq, &head, &balance)
		if err != nil {
			return fmt.Errorf("store: crediting account %q: %w", account, err)
		}
		prev, err := s.trustedHead(ctx, sqlRunner{s, tx}, account, seq-1, head, purchases, deposits-1, balance-cents)
		if err != nil {
			return err
		}
		hash, sig := s.signDeposit(prev, seq, ledger.Deposit{Account: account, N: deposits, Amount: cents, After: purchases, At: now})
		_, err = tx.ExecContext(ctx, s.engine.q(`INSERT INTO deposits (account, n, amount, after_purchase, at, seq, hash, sig) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`),
			account, deposits, cents, purchases, now, seq, hash[:], sig[:])
		if err != nil {
			return fmt.Errorf("store: recording the deposit to %q: %w", account, err)
		}
		if _, err = tx.ExecContext(ctx, s.engine.q(`UPDATE accounts SET head = $1 WHERE name = $2`), hash[:], account); err != nil {
			return fmt.Errorf("store: recording the deposit to %q: %w", account, err)
		}
		rec, after = ledger.AccountHead{Account: account, Seq: seq, Hash: hash}, balance
		return nil
	})
	if err == nil && !rec.Hash.IsZero() && !(guest && rec.Seq == 1) {
		// A guest's first deposit is left to its first purchase's head: a
		// guest that buys nothing is forgotten.
		s.noteRecord(rec, 0, after, true)
	}
	return created, err
}

// accountNamed refuses an account of no name.
func accountNamed(account string) error {
	if account == "" {
		return errors.New("an account needs a name")
	}
	return nil
}

// depositCents is a deposit's amount in cents: whole, not negative.
func depositCents(amount decimal.Decimal) (game.Cents, error) {
	cents, ok := game.CentsOf(amount)
	if !ok || cents < 0 {
		return 0, fmt.Errorf("deposit %s: not a whole, positive number of cents", amount)
	}
	return cents, nil
}

// signDeposit links a deposit to its account's chain after prev, at seq,
// and signs it.
func (s *SQL) signDeposit(prev ledger.Hash, seq int64, d ledger.Deposit) (ledger.Hash, ledger.Sig) {
	hash := ledger.Link(s.emission.SealHash, prev, seq, d)
	return hash, s.key.Sign(hash)
}

// guestFlag is a guest's mark, as the accounts table keeps it.
func guestFlag(guest bool) int {
	if guest {
		return 1
	}
	return 0
}

// Block returns where the block a game and stake sell next stands, opening
// the sequence's first blocks (their commitments recorded) when none is on
// sale: a block's commitment is published before its first sale.
func (s *SQL) Block(ctx context.Context, seq game.SeqKey) (BlockStatus, error) {
	table, err := s.emission.Table(seq)
	if err != nil {
		return BlockStatus{}, err
	}
	var st BlockStatus
	var commitment string
	read := func(q querier) error {
		return q.QueryRowContext(ctx, s.engine.q(`SELECT number, sold, commitment FROM blocks
			WHERE game = $1 AND stake = $2 AND closed IS NULL ORDER BY number LIMIT 1`), seq.Game, seq.Stake.String()).Scan(&st.Number, &st.Sold, &commitment)
	}
	err = read(s.db)
	if errors.Is(err, sql.ErrNoRows) {
		err = s.tx(ctx, func(tx *sql.Tx) error {
			if err := s.openBlocks(ctx, sqlRunner{s, tx}, seq); err != nil {
				return err
			}
			return read(tx)
		})
	}
	if err != nil {
		return BlockStatus{}, fmt.Errorf("store: reading the block %s sells: %w", seq, err)
	}
	bs := s.emission.seed.Block(seq.Game, seq.Stake, st.Number)
	if commitment != bs.CommitmentHex(seq.Block(st.Number)) {
		return BlockStatus{}, fmt.Errorf("store: block %s: its recorded commitment is not its seed's", seq.Block(st.Number))
	}
	st.Commitment = bs.Commitment(seq.Block(st.Number))
	st.Remaining, st.Losing = table.Units-st.Sold, table.Losing()
	st.Left = make([]int64, table.Tiers())
	for i := range st.Left {
		st.Left[i] = table.Count(i)
	}
	if st.Sold > 0 {
		order, err := s.orders.get(seq.Block(st.Number), table, bs)
		if err != nil {
			return BlockStatus{}, err
		}
		for _, t := range order[:st.Sold] {
			st.Left[t]--
		}
	}
	return st, nil
}

// Revealed returns the blocks sold out and their seeds, but those of
// which a unit is still being revealed: its seed would tell the player's
// unit to anyone reading the rules.
func (s *SQL) Revealed(ctx context.Context) ([]Reveal, error) {
	revealing, err := s.blocksRevealing(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT game, stake, number, seed FROM blocks WHERE seed IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("store: reading the revealed seeds: %w", err)
	}
	defer rows.Close()
	var out []Reveal
	for rows.Next() {
		var r Reveal
		var stake string
		if err := rows.Scan(&r.Block.Game, &stake, &r.Block.Block, &r.Seed); err != nil {
			return nil, fmt.Errorf("store: reading the revealed seeds: %w", err)
		}
		if r.Block.Stake, err = decimal.NewFromString(stake); err != nil {
			return nil, fmt.Errorf("store: block %s:%s:%d: stake %q: %w", r.Block.Game, stake, r.Block.Block, stake, err)
		}
		if !revealing[blockKey{r.Block.Game, stake, r.Block.Block}] {
			out = append(out, r)
		}
	}
	return out, rows.Err()
}

// blockKey is a block as the store's rows name it.
type blockKey struct {
	game, stake string
	number      int64
}

// blocksRevealing returns the blocks of which a unit is being revealed
// (shown = 0): few, read by the index of such units.
func (s *SQL) blocksRevealing(ctx context.Context) (map[blockKey]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT game, stake, block FROM purchases WHERE shown = 0 AND block IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("store: reading the units being revealed: %w", err)
	}
	defer rows.Close()
	out := map[blockKey]bool{}
	for rows.Next() {
		var b blockKey
		if err := rows.Scan(&b.game, &b.stake, &b.number); err != nil {
			return nil, fmt.Errorf("store: reading the units being revealed: %w", err)
		}
		out[b] = true
	}
	return out, rows.Err()
}
