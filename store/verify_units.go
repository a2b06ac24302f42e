package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/text"
)

// verifyUnits reads the units sold from blocks, block by block and serial
// by serial, and deals each again.
func (s *SQL) verifyUnits(ctx context.Context, q querier, r *Report, blocks map[string]*blockRow) error {
	rows, err := q.QueryContext(ctx, `SELECT account, number, game, stake, block, serial, unit, tier, prize, layout, at, label
		FROM purchases WHERE block IS NOT NULL ORDER BY game, stake, block, serial`)
	if err != nil {
		return fmt.Errorf("store: reading its purchases: %w", err)
	}
	defer rows.Close()
	var (
		cur  *blockRow
		seqs seqReader
		name []byte // the name a unit of the current block has, its serial appended
		base int    // the length of the current block's GAME:STAKE:BLOCK:
	)
	finish := func(b *blockRow) {
		if b != nil && b.next-1 != b.sold {
			r.bad("block %s: %d units sold, %d recorded", b.id, b.sold, b.next-1)
		}
		if b != nil {
			b.order = nil
		}
	}
	// Each row's text is read in place (sql.RawBytes): a string is made of
	// it only to name a problem.
	for rows.Next() {
		var account, g, stake, unit, layout sql.RawBytes
		var number, tier int
		var block, serial, at int64
		var prize game.Cents
		var label sql.NullString
		if err := rows.Scan(&account, &number, &g, &stake, &block, &serial, &unit, &tier, &prize, &layout, &at, &label); err != nil {
			return fmt.Errorf("store: reading its purchases: %w", err)
		}
		if label.Valid {
			r.bad("purchase %s: unit %s of a block carries a forced unit's label", PurchaseID(string(account), number), text.Printable(string(unit)))
		}
		key, _, err := seqs.read(g, stake)
		if err != nil {
			r.bad("purchase %s: %v", PurchaseID(string(account), number), err)
			continue
		}
		b := cur
		if b == nil || b.id.Block != block || b.id.Game != key.Game || !b.id.Stake.Equal(key.Stake) {
			id := key.Block(block)
			if b = blocks[id.String()]; b == nil {
				r.bad("purchase %s: unit %s of block %s, which was never opened", PurchaseID(string(account), number), text.Printable(string(unit)), id)
				continue
			}
			finish(cur)
			cur = b
			if b.order, err = game.DrawOrder(b.table, b.seed); err != nil {
				return err
			}
			name = append(append(name[:0], b.id.String()...), ':')
			base = len(name)
		}
		id := b.id
		uid := game.UnitID{Game: id.Game, Stake: id.Stake, Block: id.Block, Serial: serial}
		switch {
		case serial < b.next:
			r.bad("purchase %s: serial %d of block %s sold twice", PurchaseID(string(account), number), serial, id)
			continue
		case serial > b.next:
			r.bad("block %s: serials %d to %d missing", id, b.next, serial-1)
		}
		b.next = serial + 1
		if serial > b.units {
			r.bad("purchase %s: serial %d of a block of %d", PurchaseID(string(account), number), serial, b.units)
			continue
		}
		if name = strconv.AppendInt(name[:base], serial, 10); !bytes.Equal(unit, name) {
			r.bad("purchase %s: unit %q is serial %d of block %s", PurchaseID(string(account), number), unit, serial, id)
		}
		if at < b.opened {
			r.bad("purchase %s: sold before block %s's commitment", PurchaseID(string(account), number), id)
		}
		if b.closed != 0 && at > b.closed {
			r.bad("purchase %s: sold after block %s was sold out and its seed revealed", PurchaseID(string(account), number), id)
		}
		want := int(b.order[serial-1])
		wantPrize, _ := game.CentsOf(b.table.Prize(want))
		if tier != want || prize != wantPrize {
			r.bad("purchase %s: unit %s pays %s €, recorded as %s; its block's seed gives %s €, %s", PurchaseID(string(account), number), unit,
				prize, lotName(b.table, tier), wantPrize, lotName(b.table, want))
			continue
		}
		u := game.Unit{ID: uid, Tier: want, Prize: b.table.Prize(want), Seed: b.seed}
		dealt, err := b.g.DealUnit(u).MarshalJSON()
		if err != nil {
			return err
		}
		if !bytes.Equal(dealt, layout) {
			r.bad("purchase %s: unit %s's layout is not the one its block's seed deals", PurchaseID(string(account), number), unit)
			continue
		}
		r.Checked++
	}
	finish(cur)
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: reading its purchases: %w", err)
	}
	// Blocks whose units were all missing.
	ids := make([]string, 0, len(blocks))
	for id, b := range blocks {
		if b.next == 1 && b.sold > 0 {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		r.bad("block %s: %d units sold, none recorded", id, blocks[id].sold)
	}
	return nil
}

// seqReader reads the game and stake of purchases, which come in runs of
// one game and stake: it parses them again only when they change.
type seqReader struct {
	g, stake []byte
	key      game.SeqKey
	game     lottery.Game
	err      error
	read1    bool
}

func (c *seqReader) read(g, stake []byte) (game.SeqKey, lottery.Game, error) {
	if c.read1 && bytes.Equal(g, c.g) && bytes.Equal(stake, c.stake) {
		return c.key, c.game, c.err
	}
	c.g, c.stake, c.read1 = append(c.g[:0], g...), append(c.stake[:0], stake...), true
	c.key, c.err = game.ReadSeqKey(string(g), string(stake))
	if c.err == nil {
		c.game, c.err = lottery.FindSeq(c.key)
	}
	return c.key, c.game, c.err
}

// lotName names a tier of a table as a player reads the lot table: by its
// prize, never by the tier's index.
func lotName(t *game.Table, tier int) string {
	switch {
	case tier == t.Losing():
		return "no lot (a losing unit)"
	case tier < 0 || tier > t.Losing():
		return "a lot its table does not have"
	}
	return "the lot of " + t.Prize(tier).String() + " €"
}
