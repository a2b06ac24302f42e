package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/text"
)

// Report is what Verify found in a store.
type Report struct {
	Blocks    int64 // blocks opened
	Closed    int64 // blocks sold out, their seeds revealed
	Accounts  int64
	Purchases int64
	Forced    int64    // forced (QA, demo) units: from no block, paying what QA chose
	Checked   int64    // units dealt again from their block's seed and found as recorded
	Problems  []string // what is wrong, at most MaxProblems of them
	// OwnTables are the sequences whose lot tables are not the
	// regulation's (a test emission's), as GAME:STAKE (N units a block).
	OwnTables []string
	More      int64 // problems found beyond those listed
}

// MaxProblems is how many problems a report lists.
const MaxProblems = 100

// OK reports whether nothing is wrong.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

func (r *Report) bad(format string, args ...any) {
	if len(r.Problems) >= MaxProblems {
		r.More++
		return
	}
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}

// blockRow is a block as the store records it.
type blockRow struct {
	id          game.BlockID
	units, sold int64
	commitment  string
	opened      int64
	closed      int64   // when its last unit was sold; 0 while on sale
	next        int64   // the next serial expected while its purchases are read
	order       []uint8 // its draw order, while its purchases are read
	table       *game.Table
	g           lottery.Game
}

// Verify checks the whole store: every block's commitment and revealed
// seed are its own (dealt from the house seed), every purchase's unit is the
// one its block's seed gives at its serial, lot and layout, each block's
// serials are sold once each with none missing, no sale precedes its
// block's commitment, and every account's balance follows from its
// deposits and purchases, one by one. It reads the purchases in order, in
// constant memory but for one block's draw order at a time.
//
// It reads one snapshot of the store, in a read-only transaction, so that
// sellers may go on selling meanwhile: on SQLite a reader in WAL mode, which
// holds no lock against them; on PostgreSQL a repeatable read.
func (s *SQL) Verify(ctx context.Context) (Report, error) {
	tx, done, err := s.engine.snapshot(ctx, s)
	if err != nil {
		return Report{}, err
	}
	defer done()
	return s.verifyIn(ctx, tx)
}

// verifyIn verifies the store as q reads it.
func (s *SQL) verifyIn(ctx context.Context, q querier) (Report, error) {
	var r Report
	for _, key := range s.emission.Sequences() {
		t, _ := s.emission.Table(key)
		g, _ := lottery.FindSeq(key)
		if reg, err := g.Table(key.Stake); err != nil || !sameTable(t, reg) {
			r.OwnTables = append(r.OwnTables, fmt.Sprintf("%s (%d units a block)", key, t.Units))
		}
	}
	blocks, err := s.verifyBlocks(ctx, q, &r)
	if err != nil {
		return r, err
	}
	if err := s.verifyUnits(ctx, q, &r, blocks); err != nil {
		return r, err
	}
	if err := s.verifyAccounts(ctx, q, &r); err != nil {
		return r, err
	}
	return r, nil
}

func (s *SQL) verifyBlocks(ctx context.Context, q querier, r *Report) (map[string]*blockRow, error) {
	rows, err := q.QueryContext(ctx, `SELECT game, stake, number, units, sold, commitment, seed, opened, closed FROM blocks ORDER BY game, stake, number`)
	if err != nil {
		return nil, fmt.Errorf("store: reading its blocks: %w", err)
	}
	defer rows.Close()
	blocks := map[string]*blockRow{}
	last := map[string]int64{}
	for rows.Next() {
		b := &blockRow{next: 1}
		var g, stake string
		var seed sql.NullString
		var closed sql.NullInt64
		if err := rows.Scan(&g, &stake, &b.id.Block, &b.units, &b.sold, &b.commitment, &seed, &b.opened, &closed); err != nil {
			return nil, fmt.Errorf("store: reading its blocks: %w", err)
		}
		r.Blocks++
		key, err := game.ReadSeqKey(g, stake)
		if err == nil {
			b.g, err = lottery.FindSeq(key)
		}
		if err != nil {
			r.bad("block %s:%s:%d: %v", g, stake, b.id.Block, err)
			continue
		}
		b.id.Game, b.id.Stake = key.Game, key.Stake
		if b.table, err = s.emission.Table(key); err != nil {
			r.bad("block %s: %v", b.id, err)
			continue
		}
		if want := last[key.String()] + 1; b.id.Block != want {
			r.bad("block %s: opened after block %d, not after %d", b.id, last[key.String()], b.id.Block-1)
		}
		last[key.String()] = b.id.Block
		bs := s.emission.seed.Block(key.Game, key.Stake, b.id.Block)
		if b.commitment != bs.CommitmentHex(b.id) {
			r.bad("block %s: commitment %s is not its seed's", b.id, b.commitment)
		}
		if b.units != b.table.Units || b.sold < 0 || b.sold > b.units {
			r.bad("block %s: %d units sold of %d, the table has %d", b.id, b.sold, b.units, b.table.Units)
		}
		switch {
		case seed.Valid:
			r.Closed++
			b.closed = closed.Int64
			if closed.Valid && closed.Int64 < b.opened {
				r.bad("block %s: closed before it opened", b.id)
			}
			if seed.String != bs.String() {
				r.bad("block %s: revealed seed %s is not its seed", b.id, seed.String)
			}
			if b.sold != b.units || !closed.Valid {
				r.bad("block %s: its seed is revealed with %d units of %d sold", b.id, b.sold, b.units)
			}
		case closed.Valid || b.sold == b.units:
			r.bad("block %s: sold out (%d of %d) without its seed revealed", b.id, b.sold, b.units)
		}
		blocks[b.id.String()] = b
	}
	return blocks, rows.Err()
}

// verifyUnits reads the units sold from blocks, block by block and serial
// by serial, and deals each again.
func (s *SQL) verifyUnits(ctx context.Context, q querier, r *Report, blocks map[string]*blockRow) error {
	rows, err := q.QueryContext(ctx, `SELECT account, number, game, stake, block, serial, unit, tier, prize, layout, at, label
		FROM purchases WHERE block IS NOT NULL ORDER BY game, stake, block, serial`)
	if err != nil {
		return fmt.Errorf("store: reading its purchases: %w", err)
	}
	defer rows.Close()
	var cur *blockRow
	finish := func(b *blockRow) {
		if b != nil && b.next-1 != b.sold {
			r.bad("block %s: %d units sold, %d recorded", b.id, b.sold, b.next-1)
		}
		if b != nil {
			b.order = nil
		}
	}
	for rows.Next() {
		var account, g, stake, unit, layout string
		var number, tier int
		var block, serial, at int64
		var prize game.Cents
		var label sql.NullString
		if err := rows.Scan(&account, &number, &g, &stake, &block, &serial, &unit, &tier, &prize, &layout, &at, &label); err != nil {
			return fmt.Errorf("store: reading its purchases: %w", err)
		}
		who := PurchaseID(account, number)
		if label.Valid {
			r.bad("purchase %s: unit %s of a block carries a forced unit's label", who, text.Printable(unit))
		}
		key, err := game.ReadSeqKey(g, stake)
		if err != nil {
			r.bad("purchase %s: %v", who, err)
			continue
		}
		id := key.Block(block)
		b := blocks[id.String()]
		if b == nil {
			r.bad("purchase %s: unit %s of block %s, which was never opened", who, unit, id)
			continue
		}
		if b != cur {
			finish(cur)
			cur = b
			if b.order, err = game.DrawOrder(b.table, s.emission.seed.Block(id.Game, id.Stake, id.Block)); err != nil {
				return err
			}
		}
		uid := game.UnitID{Game: id.Game, Stake: id.Stake, Block: id.Block, Serial: serial}
		switch {
		case serial < b.next:
			r.bad("purchase %s: serial %d of block %s sold twice", who, serial, id)
			continue
		case serial > b.next:
			r.bad("block %s: serials %d to %d missing", id, b.next, serial-1)
		}
		b.next = serial + 1
		if serial > b.units {
			r.bad("purchase %s: serial %d of a block of %d", who, serial, b.units)
			continue
		}
		if unit != uid.String() {
			r.bad("purchase %s: unit %q is serial %d of block %s", who, unit, serial, id)
		}
		if at < b.opened {
			r.bad("purchase %s: sold before block %s's commitment", who, id)
		}
		if b.closed != 0 && at > b.closed {
			r.bad("purchase %s: sold after block %s was sold out and its seed revealed", who, id)
		}
		want := int(b.order[serial-1])
		wantPrize, _ := game.CentsOf(b.table.Prize(want))
		if tier != want || prize != wantPrize {
			r.bad("purchase %s: unit %s pays %s (lot %d); its block's seed gives %s (lot %d)", who, unit, prize, tier+1, wantPrize, want+1)
			continue
		}
		u := game.Unit{ID: uid, Tier: want, Prize: b.table.Prize(want), Seed: s.emission.seed.Block(id.Game, id.Stake, id.Block)}
		dealt, err := b.g.DealUnit(u).MarshalJSON()
		if err != nil {
			return err
		}
		if string(dealt) != layout {
			r.bad("purchase %s: unit %s's layout is not the one its block's seed deals", who, unit)
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

// verifyAccounts reads each account's deposits and purchases in order, and
// follows its balance.
func (s *SQL) verifyAccounts(ctx context.Context, q querier, r *Report) error {
	deposits := map[string][]deposit{}
	drows, err := q.QueryContext(ctx, `SELECT account, n, amount, after_purchase FROM deposits ORDER BY account, n`)
	if err != nil {
		return fmt.Errorf("store: reading its deposits: %w", err)
	}
	for drows.Next() {
		var d deposit
		var account string
		if err := drows.Scan(&account, &d.n, &d.amount, &d.after); err != nil {
			drows.Close()
			return fmt.Errorf("store: reading its deposits: %w", err)
		}
		deposits[account] = append(deposits[account], d)
	}
	drows.Close()
	type account struct {
		balance, deposited game.Cents
		purchases          int
	}
	accounts := map[string]account{}
	arows, err := q.QueryContext(ctx, `SELECT name, balance, deposited, purchases FROM accounts`)
	if err != nil {
		return fmt.Errorf("store: reading its accounts: %w", err)
	}
	for arows.Next() {
		var name string
		var a account
		if err := arows.Scan(&name, &a.balance, &a.deposited, &a.purchases); err != nil {
			arows.Close()
			return fmt.Errorf("store: reading its accounts: %w", err)
		}
		accounts[name] = a
	}
	arows.Close()
	r.Accounts = int64(len(accounts))

	rows, err := q.QueryContext(ctx, `SELECT account, number, game, stake, block, serial, label, unit, stake_cents, prize, before_cents, after_cents, layout
		FROM purchases ORDER BY account, number`)
	if err != nil {
		return fmt.Errorf("store: reading its purchases: %w", err)
	}
	defer rows.Close()
	var (
		name    string
		last    int
		balance game.Cents
		ds      []deposit
		started bool
	)
	// credit adds the deposits made after purchase n.
	credit := func(n int) {
		for len(ds) > 0 && ds[0].after <= n {
			balance += ds[0].amount
			ds = ds[1:]
		}
	}
	end := func() {
		if !started {
			return
		}
		credit(int(^uint(0) >> 1))
		a, ok := accounts[name]
		switch {
		case !ok:
			r.bad("account %q: purchases, and no account", name)
		case a.purchases != last:
			r.bad("account %q: %d purchases recorded, the account counts %d", name, last, a.purchases)
		case a.balance != balance:
			r.bad("account %q: balance %s, its deposits and purchases give %s", name, a.balance, balance)
		}
		if sum := total(deposits[name]); ok && a.deposited != sum {
			r.bad("account %q: %s deposited, its deposits add up to %s", name, a.deposited, sum)
		}
		delete(accounts, name)
	}
	for rows.Next() {
		var account, g, stake, unit, layout string
		var number int
		var block sql.NullInt64
		var serial int64
		var label sql.NullString
		var staked, prize, before, after game.Cents
		if err := rows.Scan(&account, &number, &g, &stake, &block, &serial, &label, &unit, &staked, &prize, &before, &after, &layout); err != nil {
			return fmt.Errorf("store: reading its purchases: %w", err)
		}
		if !started || account != name {
			end()
			name, last, balance, ds, started = account, 0, 0, deposits[account], true
		}
		r.Purchases++
		who := PurchaseID(account, number)
		if number != last+1 {
			r.bad("account %q: purchase %d follows purchase %d", account, number, last)
		}
		last = number
		credit(number - 1)
		if before != balance {
			r.bad("purchase %s: balance before %s, the account held %s", who, before, balance)
		}
		if after != before-staked+prize {
			r.bad("purchase %s: %s - %s + %s is not %s", who, before, staked, prize, after)
		}
		if before < staked {
			r.bad("purchase %s: a stake of %s on a balance of %s", who, staked, before)
		}
		balance = after
		key, err := game.ReadSeqKey(g, stake)
		var gm lottery.Game
		if err == nil {
			gm, err = lottery.FindSeq(key)
		}
		if err != nil {
			r.bad("purchase %s: %v", who, err)
			continue
		}
		if want, _ := game.CentsOf(key.Stake); staked != want {
			r.bad("purchase %s: %s staked on a unit of %s", who, staked, key)
		}
		if !block.Valid {
			r.Forced++
			if !s.emission.QA {
				r.bad("purchase %s: forced unit %s in the house's emission, which sells none", who, text.Printable(unit))
			}
			l, err := lottery.Parse([]byte(layout))
			if err != nil || l.Game() != gm.Name || l.Score().Cents() != prize {
				r.bad("purchase %s: forced unit %s does not pay its recorded %s", who, text.Printable(unit), prize)
			}
			// Its name is GAME:STAKE:LABEL:N, as lottery.Sold.Name writes it.
			id, forced, err := lottery.ParseName(unit)
			if err != nil || forced == nil || id.Seq().String() != key.String() || !label.Valid || forced.Label != label.String || forced.Serial != serial {
				r.bad("purchase %s: forced unit %s is not named by its game, stake, label and rank", who, text.Printable(unit))
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: reading its purchases: %w", err)
	}
	end()
	for name, a := range accounts { // accounts that never bought
		sum := total(deposits[name])
		if a.purchases != 0 || a.balance != sum || a.deposited != sum {
			r.bad("account %q: balance %s, deposited %s, %d purchases; its deposits give %s and none were recorded", name, a.balance, a.deposited, a.purchases, sum)
		}
	}
	return nil
}

// total adds deposits up.
func total(ds []deposit) game.Cents {
	var sum game.Cents
	for _, d := range ds {
		sum += d.amount
	}
	return sum
}

// deposit is a credit to an account, after its purchase number after.
type deposit struct {
	n, after int
	amount   game.Cents
}

// sameTable reports whether two lot tables are the same.
func sameTable(a, b *game.Table) bool {
	if a.Units != b.Units || len(a.Lots) != len(b.Lots) {
		return false
	}
	for i, l := range a.Lots {
		if !l.Prize.Equal(b.Lots[i].Prize) || l.Count != b.Lots[i].Count {
			return false
		}
	}
	return true
}
