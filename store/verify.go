package store

import (
	"context"
	"database/sql"
	"fmt"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
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

	// SealProblems name what breaks the emission's seal, or what of its
	// row differs from its sealed copy (they are in Problems too); none
	// when the emission reads as it was sealed.
	SealProblems []string
	// Key is the key every signature was checked against: the house's as
	// the auditor gave it (KeyGiven: Options.HouseKey, verify --key), or
	// else the one the emission was sealed with, which proves only that
	// the store agrees with itself.
	Key      ledger.PublicKey
	KeyGiven bool
	Heads    int64 // the heads signed in the store
	LastHead int64 // the number of its last head
	Records  int64 // the deposits and purchases of the accounts' chains
	Covered  int64 // of those, covered by a head: its signature stands for theirs
	Signed   int64 // the others, each checked against its own signature

	// What was given to check against the store (VerifyGiven): heads and
	// receipts, and those of them found as the store holds them.
	GivenHeads, GivenReceipts int64
	FoundHeads, FoundReceipts int64
	// Foreign counts the heads and receipts given of another emission
	// (their seal another's): nothing of this store, left unchecked.
	Foreign int64
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
	closed      int64 // when its last unit was sold; 0 while on sale
	seed        game.BlockSeed
	next        int64   // the next serial expected while its purchases are read
	order       []uint8 // its draw order, while its purchases are read
	table       *game.Table
	g           lottery.Game
}

// Verify checks the whole store, as VerifyGiven does, given nothing.
func (s *SQL) Verify(ctx context.Context) (Report, error) {
	return s.VerifyGiven(ctx, ledger.Tokens{})
}

// VerifyGiven checks the whole store: the emission against its seal; every
// block's commitment and revealed seed are its own (dealt from the house
// seed) and signed; every purchase's unit is the one its block's seed
// gives at its serial, lot and layout, each block's serials are sold once
// each with none missing, no sale precedes its block's commitment; every
// account's deposits and purchases follow one another in a chain of
// hashes from the emission's seal, its balance following from them one
// by one; each record and each mark is covered by a signed head or carries
// the house's signature; the heads follow one another from the seal, each
// signed, and the store still holds every record they cover. The heads
// and receipts given (an auditor's, a player's: verify --heads) are
// checked against the store's: a history rewritten or rolled back since,
// even by an insider holding the house's key, is shown by them.
//
// It reads the purchases in order, in memory bounded by one block's draw
// order, the accounts and their deposits, and what the heads and the
// tokens given name (see ledgerCheck).
//
// It reads one snapshot of the store, in a read-only transaction, so that
// sellers may go on selling meanwhile: on SQLite a reader in WAL mode, which
// holds no lock against them; on PostgreSQL a repeatable read.
func (s *SQL) VerifyGiven(ctx context.Context, given ledger.Tokens) (Report, error) {
	tx, done, err := s.engine.snapshot(ctx, s)
	if err != nil {
		return Report{}, err
	}
	defer done()
	return s.verifyIn(ctx, tx, given)
}

// verifyIn verifies the store as q reads it.
func (s *SQL) verifyIn(ctx context.Context, q querier, given ledger.Tokens) (Report, error) {
	var r Report
	for _, key := range s.emission.Sequences() {
		t, _ := s.emission.Table(key)
		g, _ := lottery.FindSeq(key)
		if reg, err := g.Table(key.Stake); err != nil || !sameTable(t, reg) {
			r.OwnTables = append(r.OwnTables, fmt.Sprintf("%s (%d units a block)", key, t.Units))
		}
	}
	if err := s.verifySeal(ctx, q, &r); err != nil {
		return r, err
	}
	c := s.newLedgerCheck(&r)
	if err := s.signedSeal(ctx, q, &r, c); err != nil {
		return r, err
	}
	c.receipts(&r, given.Receipts)
	if err := s.verifyHeads(ctx, q, &r, c, given.Heads); err != nil {
		return r, err
	}
	blocks, err := s.verifyBlocks(ctx, q, &r, c)
	if err != nil {
		return r, err
	}
	if err := s.verifyUnits(ctx, q, &r, blocks); err != nil {
		return r, err
	}
	if err := s.verifyAccounts(ctx, q, &r, c); err != nil {
		return r, err
	}
	c.unheld(&r)
	return r, nil
}

// verifySeal checks the emission's row against its seal, and the schema's
// version as the store records it for the tapis before goose.
func (s *SQL) verifySeal(ctx context.Context, q querier, r *Report) error {
	var row emissionRow
	if err := row.scan(q.QueryRowContext(ctx, selectEmission)); err != nil {
		return fmt.Errorf("store %s: reading its emission: %w", s.where, err)
	}
	seed, err := game.ParseSeed(row.seed)
	if err != nil {
		r.SealProblems = append(r.SealProblems, fmt.Sprintf("the emission's master seed does not read: %v", err))
	}
	_, problems := row.sealProblems(seed, s.houseKey)
	r.SealProblems = append(r.SealProblems, problems...)
	for _, p := range r.SealProblems {
		r.bad("%s", p)
	}
	var v int
	if err := q.QueryRowContext(ctx, `SELECT version FROM `+legacyTable).Scan(&v); err != nil {
		r.bad("the store's schema version, kept for the tapis before goose, does not read: %v", oneLine{err})
	} else if v != SchemaVersion {
		r.bad("the store's schema version is %d in %s, its migrations say %d: changed by hand", v, legacyTable, SchemaVersion)
	}
	return nil
}

func (s *SQL) verifyBlocks(ctx context.Context, q querier, r *Report, c *ledgerCheck) (map[string]*blockRow, error) {
	rows, err := q.QueryContext(ctx, `SELECT game, stake, number, units, sold, commitment, seed, opened, closed, opened_sig, closed_sig
		FROM blocks ORDER BY game, stake, number`)
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
		var openedSig, closedSig []byte
		if err := rows.Scan(&g, &stake, &b.id.Block, &b.units, &b.sold, &b.commitment, &seed, &b.opened, &closed, &openedSig, &closedSig); err != nil {
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
		b.seed = bs
		if b.commitment != bs.CommitmentHex(b.id) {
			r.bad("block %s: commitment %s is not its seed's", b.id, b.commitment)
		}
		opened := ledger.BlockOpened{Block: b.id.String(), Units: b.units, Commitment: b.commitment, At: b.opened}
		c.signed(r, "block "+b.id.String()+"'s opening", opened.Hash(c.seal), openedSig)
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
			shut := ledger.BlockClosed{Block: b.id.String(), Seed: seed.String, At: closed.Int64}
			c.signed(r, "block "+b.id.String()+"'s closing", shut.Hash(c.seal), closedSig)
		case closed.Valid || b.sold == b.units:
			r.bad("block %s: sold out (%d of %d) without its seed revealed", b.id, b.sold, b.units)
		}
		blocks[b.id.String()] = b
	}
	return blocks, rows.Err()
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
