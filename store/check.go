package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"tapis/game"
	"tapis/ledger"
)

// Check checks the store has not changed under this seller: the emission's
// row against its seal, the blocks on sale against their seeds, each
// account it holds against the last record it wrote of it, its last head
// still in place. What it finds is a *TamperedError, and from then on the
// store sells nothing. A database that does not answer is no tampering: it
// is checked again next time; a row that no longer reads is. Where the
// engine tells that no other connection committed since the last check
// read everything (SQLite), nothing was changed through the database, and
// the store is read again only every checkAtLeast: a server sitting with
// its players reads nothing most seconds.
func (s *SQL) Check(ctx context.Context) error {
	if err := s.tamperedErr(); err != nil {
		return err
	}
	if !s.key.Valid() {
		return nil // a reader sells nothing
	}
	mark, told := s.engine.changes(ctx, s)
	if told && s.lastCheck.unchanged(mark, s.now()) {
		return nil
	}
	err := s.readWhole(ctx)
	if errors.Is(err, errUnread) {
		return nil
	}
	if err == nil && told {
		s.lastCheck.read(mark, s.now())
	}
	return err
}

// checkAtLeast is how often the store is read whole by Check, even when
// the engine says no one else committed: how long its word is taken.
const checkAtLeast = 30 * time.Second

// errUnread is a check's failure to read the store: no tampering, and the
// store is read again at the next check.
var errUnread = errors.New("store: the check could not read the store")

// unread is a check's failure to read what: a value that no longer reads
// as its column's type says is a change (SQLite keeps whatever an insider
// writes in a column, 'x' for a number), where the database not answering
// is errUnread.
func (s *SQL) unread(err error, what string) error {
	var changed *ChangedRowError
	if errors.As(Explain(err), &changed) {
		return s.tamper(fmt.Sprintf("%s no longer reads: %v", what, changed))
	}
	return errUnread
}

// checkMark is the mark of the engine's changes (engine.changes) when a
// check last read the whole store and found it as it should be.
type checkMark struct {
	mu   sync.Mutex
	mark changeMark
	at   time.Time // zero: none yet
}

// unchanged reports whether the store is as the last check found it: no
// change since, and that check less than checkAtLeast ago.
func (c *checkMark) unchanged(mark changeMark, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.at.IsZero() && c.mark == mark && now.Sub(c.at) < checkAtLeast
}

// read records a check that read the whole store at mark.
func (c *checkMark) read(mark changeMark, now time.Time) {
	c.mu.Lock()
	c.mark, c.at = mark, now
	c.mu.Unlock()
}

// readWhole reads the whole store as Check does; errUnread when the
// database did not answer.
func (s *SQL) readWhole(ctx context.Context) error {
	if err := s.checkEmission(ctx); err != nil {
		return err
	}
	if err := s.checkBlocks(ctx); err != nil {
		return err
	}
	if err := s.checkAccounts(ctx); err != nil {
		return err
	}
	if last, ok := s.LastHead(); ok {
		var hash []byte
		err := dbRunner{s}.row(ctx, selectHeadHash, last.N).Scan(&hash)
		if err != nil && !isNoRows(err) {
			return s.unread(err, fmt.Sprintf("head %d, which this seller signed,", last.N))
		}
		if !bytes.Equal(hash, last.Hash[:]) {
			return s.tamper(fmt.Sprintf("head %d, which this seller signed, was removed or changed", last.N))
		}
	}
	return nil
}

// selectHeadHash reads a head's hash.
const selectHeadHash = `SELECT hash FROM heads WHERE n = $1`

// checkEmission checks the emission's row against its seal: verified once,
// and again only when the row is not the one verified.
func (s *SQL) checkEmission(ctx context.Context) error {
	row, err := readEmission(ctx, dbRunner{s})
	if isNoRows(err) {
		return s.tamper("the emission's row was removed")
	}
	if err != nil {
		return s.unread(err, "the emission's row")
	}
	if row.seed != s.emission.seed.String() {
		return s.tamper("the emission's master seed was changed")
	}
	s.sealed.mu.Lock()
	same := s.sealed.row != nil && s.sealed.row.same(row)
	s.sealed.mu.Unlock()
	if same {
		return nil
	}
	if _, problems := row.sealProblems(s.emission.seed, s.key.Public()); len(problems) > 0 {
		return s.tamper(problems[0])
	}
	s.sealed.mu.Lock()
	s.sealed.row = &row
	s.sealed.mu.Unlock()
	return nil
}

// sealedRow is the emission's row as its seal was last verified, and the
// blocks on sale whose commitments were.
type sealedRow struct {
	mu     sync.Mutex
	row    *emissionRow
	blocks map[onSaleRow]bool
}

// onSaleRow is a block on sale as a check read it.
type onSaleRow struct {
	game, stake string
	number      int64
	commitment  string
}

// selectOnSale reads the blocks on sale and their commitments.
const selectOnSale = `SELECT game, stake, number, commitment FROM blocks WHERE closed IS NULL`

// checkBlocks checks the commitment of every block on sale is its seed's,
// worked out again only for a row not verified as it is; errUnread when
// the database did not answer.
func (s *SQL) checkBlocks(ctx context.Context) error {
	rows, err := dbRunner{s}.query(ctx, selectOnSale)
	if err != nil {
		return errUnread
	}
	defer rows.Close()
	s.sealed.mu.Lock()
	verified := s.sealed.blocks
	s.sealed.mu.Unlock()
	seen := make(map[onSaleRow]bool, len(verified))
	for rows.Next() {
		var b onSaleRow
		if err := rows.Scan(&b.game, &b.stake, &b.number, &b.commitment); err != nil {
			return s.unread(err, "a block on sale")
		}
		if !verified[b] {
			if err := s.checkCommitment(b.game, b.stake, b.number, b.commitment); err != nil {
				return err
			}
		}
		seen[b] = true
	}
	if rows.Err() != nil {
		return errUnread
	}
	s.sealed.mu.Lock()
	s.sealed.blocks = seen
	s.sealed.mu.Unlock()
	return nil
}

// checkCommitment checks a block's recorded commitment is its seed's.
func (s *SQL) checkCommitment(g, stake string, n int64, commitment string) error {
	key, err := game.ReadSeqKey(g, stake)
	if err != nil {
		return s.tamper(fmt.Sprintf("a block of %q at %q, which the emission does not sell, was added", g, stake))
	}
	id := key.Block(n)
	if commitment != s.emission.seed.Block(key.Game, key.Stake, n).CommitmentHex(id) {
		return s.tamper(fmt.Sprintf("block %s: its commitment was changed", id))
	}
	return nil
}

// checkAccounts checks each account this seller holds ends with the last
// record it wrote of it, checkChunk accounts a query: a server holding
// 200 players' accounts reads them in a few statements every check, not
// in two each.
func (s *SQL) checkAccounts(ctx context.Context) error {
	s.book.mu.Lock()
	var known []knownRecord
	for a, k := range s.book.known {
		if !s.leases.holding(a) {
			delete(s.book.known, a)
			continue
		}
		known = append(known, k)
	}
	s.book.mu.Unlock()
	for len(known) > 0 {
		chunk := known[:min(len(known), checkChunk)]
		known = known[len(chunk):]
		if err := s.checkHeads(ctx, chunk); err != nil {
			return err
		}
		if err := s.checkLastPurchases(ctx, chunk); err != nil {
			return err
		}
	}
	return nil
}

// checkChunk is how many accounts one check's query reads.
const checkChunk = 100

// checkHeads checks each account's row still ends its chain with the
// record this seller wrote last.
func (s *SQL) checkHeads(ctx context.Context, known []knownRecord) error {
	args := make([]any, len(known))
	marks := make([]string, len(known))
	for i, k := range known {
		args[i], marks[i] = k.Account, fmt.Sprintf("$%d", i+1)
	}
	rows, err := s.db.QueryContext(ctx, s.engine.q(`SELECT name, seq, head FROM accounts WHERE name IN (`+strings.Join(marks, ", ")+`)`), args...)
	if err != nil {
		return errUnread
	}
	defer rows.Close()
	type head struct {
		seq  int64
		hash []byte
	}
	found := make(map[string]head, len(known))
	for rows.Next() {
		var name string
		var h head
		if err := rows.Scan(&name, &h.seq, &h.hash); err != nil {
			return s.unread(err, "an account's row")
		}
		found[name] = h
	}
	if rows.Err() != nil {
		return errUnread
	}
	for _, k := range known {
		h, ok := found[k.Account]
		switch {
		case !ok:
			return s.tamper(fmt.Sprintf("account %q was deleted", k.Account))
		case h.seq < k.Seq || h.seq == k.Seq && !bytes.Equal(h.hash, k.Hash[:]):
			return s.tamper(fmt.Sprintf("account %q: its history no longer ends with record %d, which this seller wrote", k.Account, k.Seq))
		}
	}
	return nil
}

// checkLastPurchases hashes again, from its row, the purchase this seller
// recorded last of each account: the hash it wrote, unless a prize, a
// layout, a time or its place was changed since.
func (s *SQL) checkLastPurchases(ctx context.Context, known []knownRecord) error {
	var args []any
	var terms []string
	want := make(map[string]knownRecord, len(known))
	for _, k := range known {
		if k.number == 0 {
			continue
		}
		want[k.Account] = k
		terms = append(terms, fmt.Sprintf("($%d, CAST($%d AS INTEGER))", len(args)+1, len(args)+2))
		args = append(args, k.Account, k.number)
	}
	if len(terms) == 0 {
		return nil
	}
	// The pairs as a list of rows, matched on the purchases' key: a
	// hundred terms OR'd together cost SQLite more to parse and plan than
	// the rows cost to read.
	rows, err := s.db.QueryContext(ctx, s.engine.q(`SELECT account, `+receiptColumns+` FROM purchases WHERE (account, number) IN (VALUES `+strings.Join(terms, ", ")+`)`), args...)
	if err != nil {
		return errUnread
	}
	defer rows.Close()
	for rows.Next() {
		rec, c, err := scanRecorded(rows)
		if err != nil {
			return s.unread(err, "a purchase's row")
		}
		k, ok := want[rec.Account]
		if !ok || rec.Number != k.number {
			continue
		}
		delete(want, rec.Account)
		var prev ledger.Hash
		if copy(prev[:], c.prev); len(c.prev) != len(prev) || !bytes.Equal(c.hash, k.Hash[:]) ||
			ledger.Link(s.emission.SealHash, prev, c.seq.Int64, rec) != k.Hash {
			return s.tamper(fmt.Sprintf("account %q: its purchase %d, which this seller recorded, was changed", k.Account, k.number))
		}
	}
	if rows.Err() != nil {
		return errUnread
	}
	for _, k := range want {
		return s.tamper(fmt.Sprintf("account %q: its purchase %d, which this seller recorded, was removed", k.Account, k.number))
	}
	return nil
}

// scanRecorded reads a purchase's row selected as account and then
// receiptColumns: its record and where it stands in its account's chain.
func scanRecorded(rows *sql.Rows) (ledger.Purchase, chainColumns, error) {
	var rec ledger.Purchase
	var c chainColumns
	var block sql.NullInt64
	var label sql.NullString
	if err := rows.Scan(append([]any{&rec.Account}, recordColumns(&rec, &c, &block, &label)...)...); err != nil {
		return rec, c, err
	}
	rec.Block, rec.Label = block.Int64, label.String
	return rec, c, nil
}

// checkedBlocks are the blocks whose commitment a seller checked as it
// first sold from them.
type checkedBlocks struct {
	mu   sync.Mutex
	seen map[string]bool
}

// firstSale checks a block's commitment, read in the sale's transaction,
// the first time this seller sells from it.
func (s *SQL) firstSale(ctx context.Context, r runner, id game.BlockID) error {
	s.checked.mu.Lock()
	seen := s.checked.seen[id.String()]
	s.checked.mu.Unlock()
	if seen {
		return nil
	}
	var commitment string
	if err := r.row(ctx, `SELECT commitment FROM blocks WHERE game = $1 AND stake = $2 AND number = $3`,
		id.Game, id.Stake.String(), id.Block).Scan(&commitment); err != nil {
		return fmt.Errorf("store: reading block %s: %w", id, err)
	}
	if err := s.checkCommitment(id.Game, id.Stake.String(), id.Block, commitment); err != nil {
		return err
	}
	s.checked.mu.Lock()
	if s.checked.seen == nil || len(s.checked.seen) > 1024 {
		s.checked.seen = map[string]bool{}
	}
	s.checked.seen[id.String()] = true
	s.checked.mu.Unlock()
	return nil
}

// knownRecord is the last record a seller wrote of an account: its place
// and hash, and its purchase number (0 for a deposit).
type knownRecord struct {
	ledger.AccountHead
	number  int
	balance game.Cents // the account's balance once it was written
}

// isNoRows reports whether a row was not found.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
