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
)

// A sale's block: its next serial allocated, its unit dealt from the
// block's draw order, the block sold out (its seed revealed, signed) and
// the next ones opened (their commitments, signed), a forced unit dealt
// from no block.

// draw allocates the next serial of a block on sale and deals its unit.
func (s *SQL) draw(ctx context.Context, tx *sql.Tx, g lottery.Game, seq game.SeqKey, table *game.Table) (lottery.Sold, time.Time, error) {
	number, serial, err := s.allocate(ctx, tx, seq)
	if err != nil {
		return lottery.Sold{}, time.Time{}, err
	}
	run := sqlRunner{s, tx}
	at, err := s.clock(ctx, run)
	if err != nil {
		return lottery.Sold{}, time.Time{}, err
	}
	sold, err := s.dealt(ctx, run, g, seq, table, number, serial, at)
	return sold, at, err
}

// clock returns the time of a sale or of a block's opening: on PostgreSQL
// the server's clock, read once the statements before it are done, so that
// sellers on machines whose clocks differ still write a sale's time after
// its block's commitment; on SQLite, one machine, the seller's.
func (s *SQL) clock(ctx context.Context, r runner) (time.Time, error) {
	at, err := s.engine.clock(ctx, r, s.now)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: reading the database's clock: %w", err)
	}
	return at, nil
}

// dealt deals the unit of a serial just allocated, at the time of its
// sale; its block's last unit reveals the block's seed and opens the next.
func (s *SQL) dealt(ctx context.Context, r runner, g lottery.Game, seq game.SeqKey, table *game.Table, number, serial int64, at time.Time) (lottery.Sold, error) {
	id := seq.Block(number)
	if err := s.firstSale(ctx, r, id); err != nil {
		return lottery.Sold{}, err
	}
	bs := s.emission.seed.Block(seq.Game, seq.Stake, number)
	tier, err := s.orders.tier(id, table, bs, serial)
	if err != nil {
		return lottery.Sold{}, err
	}
	u := game.Unit{ID: game.UnitID{Game: seq.Game, Stake: seq.Stake, Block: number, Serial: serial},
		Tier: tier, Prize: table.Prize(tier), Seed: bs}
	if serial == table.Units { // sold out: its seed revealed, the next block opened
		closed := ledger.BlockClosed{Block: id.String(), Seed: bs.String(), At: at.UnixNano()}
		sig := s.key.Sign(closed.Hash(s.emission.SealHash))
		err := r.exec(ctx, `UPDATE blocks SET seed = $1, closed = $2, closed_sig = $3 WHERE game = $4 AND stake = $5 AND number = $6`,
			bs.String(), at.UnixNano(), sig[:], seq.Game, seq.Stake.String(), number)
		if err != nil {
			return lottery.Sold{}, fmt.Errorf("store: revealing block %s: %w", id, err)
		}
		if err := s.openBlocks(ctx, r, seq); err != nil {
			return lottery.Sold{}, err
		}
	}
	return lottery.Sold{Unit: u, Layout: g.DealUnit(u)}, nil
}

// allocate takes the next serial of a block on sale: on PostgreSQL the
// first block no other seller holds, else the first on sale. A block sold
// out meanwhile is passed over.
func (s *SQL) allocate(ctx context.Context, tx *sql.Tx, seq game.SeqKey) (number, serial int64, err error) {
	for try := 0; try < 1000; try++ {
		for _, q := range s.engine.allocations() {
			err = sqlRunner{s, tx}.row(ctx, q, seq.Game, seq.Stake.String()).Scan(&number, &serial)
			if err == nil {
				return number, serial, nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return 0, 0, fmt.Errorf("store: allocating a serial of %s: %w", seq, err)
			}
		}
		if err := s.openBlocks(ctx, sqlRunner{s, tx}, seq); err != nil {
			return 0, 0, err
		}
	}
	return 0, 0, fmt.Errorf("store: no block of %s could be sold from", seq)
}

// openBlocks opens blocks of a sequence, with their commitments, until the
// emission's count are on sale.
func (s *SQL) openBlocks(ctx context.Context, r runner, seq game.SeqKey) error {
	if err := s.selling(); err != nil {
		return err
	}
	at, err := s.clock(ctx, r)
	if err != nil {
		return err
	}
	table, err := s.emission.Table(seq)
	if err != nil {
		return err
	}
	// Sellers may open blocks at once: each counts again after its insert,
	// whether it opened the block or found another seller had.
	for try := 0; try < 2*s.emission.OpenBlocks+4; try++ {
		var open, last int64
		err = r.row(ctx, `SELECT COUNT(CASE WHEN closed IS NULL THEN 1 END), COALESCE(MAX(number), 0)
			FROM blocks WHERE game = $1 AND stake = $2`, seq.Game, seq.Stake.String()).Scan(&open, &last)
		if err != nil {
			return fmt.Errorf("store: reading the blocks of %s: %w", seq, err)
		}
		if open >= int64(s.emission.OpenBlocks) {
			return nil
		}
		n := last + 1
		id := seq.Block(n)
		opened := ledger.BlockOpened{Block: id.String(), Units: table.Units,
			Commitment: s.emission.seed.Block(seq.Game, seq.Stake, n).CommitmentHex(id), At: at.UnixNano()}
		sig := s.key.Sign(opened.Hash(s.emission.SealHash))
		err := r.exec(ctx, `INSERT INTO blocks (game, stake, number, units, commitment, opened, opened_sig)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
			seq.Game, seq.Stake.String(), n, table.Units, opened.Commitment, at.UnixNano(), sig[:])
		if err != nil {
			return fmt.Errorf("store: opening block %s: %w", seq.Block(n), err)
		}
	}
	return nil
}

// force deals a forced unit: it comes from no block, and its rank counts
// the account's forced units of its game and stake.
func (s *SQL) force(ctx context.Context, tx *sql.Tx, p Purchase, seq game.SeqKey) (lottery.Sold, error) {
	var made int64
	err := tx.QueryRowContext(ctx, s.engine.q(`SELECT COUNT(*) FROM purchases WHERE account = $1 AND game = $2 AND stake = $3 AND block IS NULL`),
		p.Account, seq.Game, seq.Stake.String()).Scan(&made)
	if err != nil {
		return lottery.Sold{}, fmt.Errorf("store: counting forced units: %w", err)
	}
	shop := lottery.NewShop(s.emission.seed)
	shop.ResumeForced(p.Game, seq.Stake, made)
	return shop.Force(p.Game, p.Stake, *p.Force, p.Label)
}
