package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"tapis/game"
)

// Figures is what a store holds at one moment, summed for the host's
// report (package report makes the figures of it): the purchases by game,
// stake, block, hour and lot, the accounts, and the blocks on sale with
// their units sold by lot. It is read in one snapshot (Figures), so that
// its sums agree with each other while sellers go on selling.
type Figures struct {
	At       time.Time // the snapshot's time, by the store's clock
	Since    time.Time // the purchases counted are those from then; zero: all
	Emission *Emission
	Sales    []SalesRow  // by game, stake, block, hour and tier, in that order
	Accounts AccountSums // every account, whatever Since
	Blocks   []BlockSold // the blocks on sale, by game, stake and number
	Head     *BoardHead  // the store's last signed head; nil before the first
}

// SalesRow sums the purchases of one game, stake, block, hour and lot.
type SalesRow struct {
	Seq    game.SeqKey
	Block  int64     // 0: forced units (QA, demo), from no block
	Hour   time.Time // the hour the purchases were made in, UTC
	Tier   int       // the lot; a forced unit's is the one its prize matches
	Units  int64
	Staked game.Cents // the stakes paid
	Paid   game.Cents // the prizes won
}

// AccountSums counts the accounts and sums their balances.
type AccountSums struct {
	Count, Guests int64
	Balance       game.Cents // what the accounts hold now
	Deposited     game.Cents // what was deposited into them
	Largest       game.Cents // the largest balance
	Playing       int64      // accounts that bought at least once
}

// BlockSold is a block on sale and its units sold, by lot.
type BlockSold struct {
	ID          game.BlockID
	Units, Sold int64
	Opened      time.Time
	Commitment  string  // published before its first sale, in hex
	SoldByTier  []int64 // its units sold, by lot (index: tier)
	// Revealing counts, by lot, the units sold whose players are
	// revealing them: what no one has seen yet.
	Revealing []int64
}

// hourNanos is an hour in nanoseconds, the unit the purchases' times are
// grouped by (a purchase's at is in nanoseconds since 1970, UTC).
const hourNanos = int64(time.Hour)

// Figures reads the store's figures in one read-only snapshot: the
// purchases made from since (all of them when since is zero), every
// account, the blocks on sale. Sellers go on selling meanwhile: on SQLite
// a reader in WAL mode, on PostgreSQL a repeatable read (as Verify).
func (s *SQL) Figures(ctx context.Context, since time.Time) (Figures, error) {
	tx, done, err := s.engine.snapshot(ctx, s)
	if err != nil {
		return Figures{}, err
	}
	defer done()
	f := Figures{Since: since, Emission: s.emission}
	// The snapshot's first read fixes what it sees (SQLite's deferred
	// transaction takes its snapshot there): the clock is read after it.
	if err := s.salesIn(ctx, tx, &f); err != nil {
		return f, err
	}
	if err := s.accountsIn(ctx, tx, &f); err != nil {
		return f, err
	}
	if err := s.blocksIn(ctx, tx, &f); err != nil {
		return f, err
	}
	var n, at int64
	var hash []byte
	switch err := tx.QueryRowContext(ctx, `SELECT n, hash, at FROM heads ORDER BY n DESC LIMIT 1`).Scan(&n, &hash, &at); {
	case err == sql.ErrNoRows:
	case err != nil:
		return f, fmt.Errorf("store %s: reading its last head: %w", s.where, oneLine{err})
	default:
		h := &BoardHead{N: n, At: time.Unix(0, at).UTC()}
		if len(hash) == len(h.Hash) {
			copy(h.Hash[:], hash)
			f.Head = h
		}
	}
	if f.At, err = s.dbNow(ctx); err != nil {
		return f, err
	}
	return f, nil
}

// salesIn sums the purchases from f.Since by game, stake, block, hour and lot.
func (s *SQL) salesIn(ctx context.Context, q querier, f *Figures) error {
	var from int64
	if !f.Since.IsZero() {
		from = f.Since.UnixNano()
	}
	rows, err := q.QueryContext(ctx, s.engine.q(`SELECT game, stake, COALESCE(block, 0), at / $1, tier, COUNT(*), SUM(stake_cents), SUM(prize)
		FROM purchases WHERE at >= $2 GROUP BY game, stake, COALESCE(block, 0), at / $1, tier
		ORDER BY game, stake, COALESCE(block, 0), at / $1, tier`), hourNanos, from)
	if err != nil {
		return fmt.Errorf("store %s: summing the purchases: %w", s.where, oneLine{err})
	}
	defer rows.Close()
	for rows.Next() {
		var g, stake string
		var r SalesRow
		var hour, staked, paid int64
		if err := rows.Scan(&g, &stake, &r.Block, &hour, &r.Tier, &r.Units, &staked, &paid); err != nil {
			return fmt.Errorf("store %s: summing the purchases: %w", s.where, err)
		}
		if r.Seq, err = game.ReadSeqKey(g, stake); err != nil {
			return fmt.Errorf("store %s: purchases of %s:%s: %w", s.where, g, stake, err)
		}
		r.Hour, r.Staked, r.Paid = time.Unix(0, hour*hourNanos).UTC(), game.Cents(staked), game.Cents(paid)
		f.Sales = append(f.Sales, r)
	}
	return rows.Err()
}

// accountsIn counts the accounts and sums their balances.
func (s *SQL) accountsIn(ctx context.Context, q querier, f *Figures) error {
	a := &f.Accounts
	var balance, deposited, largest int64
	err := q.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(guest), 0), COALESCE(SUM(balance), 0), COALESCE(SUM(deposited), 0),
		COALESCE(MAX(balance), 0), COALESCE(SUM(CASE WHEN purchases > 0 THEN 1 ELSE 0 END), 0) FROM accounts`).
		Scan(&a.Count, &a.Guests, &balance, &deposited, &largest, &a.Playing)
	if err != nil {
		return fmt.Errorf("store %s: summing the accounts: %w", s.where, oneLine{err})
	}
	a.Balance, a.Deposited, a.Largest = game.Cents(balance), game.Cents(deposited), game.Cents(largest)
	return nil
}

// blocksIn reads the blocks on sale and their units sold by lot (those
// being revealed apart).
func (s *SQL) blocksIn(ctx context.Context, q querier, f *Figures) error {
	rows, err := q.QueryContext(ctx, `SELECT game, stake, number, units, sold, opened, commitment FROM blocks
		WHERE closed IS NULL ORDER BY game, stake, number`)
	if err != nil {
		return fmt.Errorf("store %s: reading the blocks on sale: %w", s.where, oneLine{err})
	}
	index := map[string]int{}
	for rows.Next() {
		var g, stake string
		var b BlockSold
		var number, opened int64
		if err := rows.Scan(&g, &stake, &number, &b.Units, &b.Sold, &opened, &b.Commitment); err != nil {
			rows.Close()
			return fmt.Errorf("store %s: reading the blocks on sale: %w", s.where, err)
		}
		seq, err := game.ReadSeqKey(g, stake)
		if err != nil {
			rows.Close()
			return fmt.Errorf("store %s: block %s:%s:%d: %w", s.where, g, stake, number, err)
		}
		table, err := s.emission.Table(seq)
		if err != nil {
			rows.Close()
			return fmt.Errorf("store %s: block %s: %w", s.where, seq.Block(number), err)
		}
		b.ID, b.Opened = seq.Block(number), time.Unix(0, opened).UTC()
		b.SoldByTier, b.Revealing = make([]int64, table.Tiers()), make([]int64, table.Tiers())
		index[b.ID.String()] = len(f.Blocks)
		f.Blocks = append(f.Blocks, b)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("store %s: reading the blocks on sale: %w", s.where, err)
	}
	if len(f.Blocks) == 0 {
		return nil
	}
	rows, err = q.QueryContext(ctx, `SELECT p.game, p.stake, p.block, p.tier, CASE WHEN p.shown = 0 THEN 1 ELSE 0 END, COUNT(*)
		FROM purchases p JOIN blocks b ON b.game = p.game AND b.stake = p.stake AND b.number = p.block
		WHERE b.closed IS NULL GROUP BY p.game, p.stake, p.block, p.tier, CASE WHEN p.shown = 0 THEN 1 ELSE 0 END`)
	if err != nil {
		return fmt.Errorf("store %s: counting the lots sold: %w", s.where, oneLine{err})
	}
	defer rows.Close()
	for rows.Next() {
		var g, stake string
		var number, n int64
		var tier, revealing int
		if err := rows.Scan(&g, &stake, &number, &tier, &revealing, &n); err != nil {
			return fmt.Errorf("store %s: counting the lots sold: %w", s.where, err)
		}
		seq, err := game.ReadSeqKey(g, stake)
		if err != nil {
			return fmt.Errorf("store %s: block %s:%s:%d: %w", s.where, g, stake, number, err)
		}
		i, ok := index[seq.Block(number).String()]
		if !ok || tier < 0 || tier >= len(f.Blocks[i].SoldByTier) {
			return fmt.Errorf("store %s: block %s holds a unit of lot %d", s.where, seq.Block(number), tier)
		}
		b := &f.Blocks[i]
		b.SoldByTier[tier] += n
		if revealing == 1 {
			b.Revealing[tier] += n
		}
	}
	return rows.Err()
}
