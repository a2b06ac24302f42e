package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
)

// endLine ends the journal's last record with its newline, when a crash
// left it whole but without one.
func (s *Store) endLine() error {
	last := make([]byte, 1)
	if s.size == 0 {
		return nil
	}
	if _, err := s.file.ReadAt(last, s.size-1); err != nil || last[0] == '\n' {
		return err
	}
	if _, err := s.file.Write([]byte("\n")); err != nil {
		return s.cutBack(&JournalError{Op: "ending its last line", Err: err})
	}
	if err := s.file.Sync(); err != nil {
		return s.cutBack(&JournalError{Op: "syncing to disk", Err: err})
	}
	s.size++
	return nil
}

// journalBuy writes a purchase's line, signed and synced, when there is
// a journal. It returns the line's place in the chain, and the purchase's
// receipt: nil without a journal.
func (s *Store) journalBuy(g lottery.Game, seq int, sold lottery.Sold, forced bool, stake, before decimal.Decimal, at time.Time) (chainLink, *ledger.Receipt, error) {
	if s.file == nil {
		return chainLink{}, nil, nil
	}
	layout, err := sold.Layout.MarshalJSON()
	if err != nil {
		return chainLink{}, nil, fmt.Errorf("journal: %w", err)
	}
	after := before.Sub(stake).Add(sold.Unit.Prize)
	tier := hashTier(s.table(g, sold.Unit.ID.Stake), sold.Unit.Prize)
	rec, err := purchaseRecord(s.account, seq, sold, stake, before, after, at, tier, layout)
	if err != nil {
		return chainLink{}, nil, fmt.Errorf("journal: %w", err)
	}
	link, err := s.append(entry{rec: Record{Kind: KindBuy, Time: at, Seq: seq, Unit: sold.Name(), Forced: forced, Tier: tier,
		Stake: stake.String(), Prize: sold.Unit.Prize.String(), Before: before.String(), After: after.String(), Layout: layout},
		purchase: &rec})
	if err != nil {
		return chainLink{}, nil, err
	}
	link.tier = tier
	r := ledger.NewReceipt(rec, int64(seq)+1, s.sealHash, link.prev, link.hash, link.sig, s.key.Public())
	return link, &r, nil
}

// purchaseRecord is a purchase as its line's hash covers it, and its
// receipt holds it: the unit's name, its block and serial (a forced unit's
// label and rank), its tier (hashTier), the amounts in cents, the layout as
// the line writes it, the time of the sale.
func purchaseRecord(account string, number int, sold lottery.Sold, stake, before, after decimal.Decimal, at time.Time, tier int, layout []byte) (ledger.Purchase, error) {
	p := ledger.Purchase{Account: account, Number: number, Unit: sold.Name(), Tier: tier, Layout: string(layout), At: at.UnixNano()}
	if sold.Forced != nil {
		p.Label, p.Serial = sold.Forced.Label, sold.Forced.Serial
	} else {
		p.Block, p.Serial = sold.Unit.ID.Block, sold.Unit.ID.Serial
	}
	for _, a := range []struct {
		name string
		d    decimal.Decimal
		to   *game.Cents
	}{{"stake", stake, &p.Stake}, {"prize", sold.Unit.Prize, &p.Prize}, {"balance before", before, &p.Before}, {"balance after", after, &p.After}} {
		c, ok := game.CentsOf(a.d)
		if !ok {
			return p, fmt.Errorf("purchase %d: %s %s is not a whole number of cents", number, a.name, a.d)
		}
		*a.to = c
	}
	return p, nil
}

// table returns the lot table of a game at a stake, as the store's tables
// give it, or nil: kept once asked for.
func (s *Store) table(g lottery.Game, stake decimal.Decimal) *game.Table {
	key := g.Seq(stake).String()
	if t, ok := s.cache[key]; ok {
		return t
	}
	t, err := s.tables(g, stake)
	if err != nil {
		t = nil
	}
	s.cache[key] = t
	return t
}

// entry is a record to be written, with what its hash is made of besides
// its fields, read already: a purchase's record, the start balance in
// cents.
type entry struct {
	rec      Record
	purchase *ledger.Purchase
	balance  game.Cents
}

// hash returns the hash of the entry's line after the line whose hash is
// prev, as chain.go describes and the scan computes it again.
func (s *Store) hash(e *entry, prev ledger.Hash) ledger.Hash {
	r := &e.rec
	switch r.Kind {
	case KindStart:
		return depositHash(s.sealHash, prev, s.account, e.balance, r.Time)
	case KindBuy:
		return purchaseHash(s.sealHash, prev, *e.purchase)
	case KindShown:
		return shownHash(prev, s.account, r.Unit)
	case KindCommit:
		return commitHash(prev, r.Block, r.Units, r.Commitment, r.Time)
	case KindReveal:
		return revealHash(prev, r.Block, r.BlockSeed, r.Time)
	}
	panic("journal: no hash for a record of kind " + r.Kind) // this file writes no other
}

// append writes an entry, after the entries waiting to be written, each a
// link of the chain signed with the house's key, and syncs the journal to
// disk. A record the file cannot take leaves it exactly as it was (cut
// back to its last whole line), and the chain where it was. An empty
// entry writes only what waits. A record without a time is stamped with
// the time of writing. It returns the last line's place in the chain.
func (s *Store) append(e entry) (chainLink, error) {
	if s.file == nil {
		return chainLink{}, nil
	}
	if s.broken != nil {
		return chainLink{}, s.broken
	}
	now := s.now().UTC()
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // one line a record, with its newline
	enc.SetEscapeHTML(false)   // a layout as its MarshalJSON wrote it: what its hash covers
	n := len(s.later)          // the entries waiting, then e
	if e.rec.Kind != "" {
		n++
	}
	head := s.head
	var last chainLink
	for i := range n {
		en := e
		if i < len(s.later) {
			en = s.later[i]
		}
		if en.rec.Time.IsZero() { // a purchase carries its own time
			en.rec.Time = now
		}
		hash := s.hash(&en, head)
		sig := s.key.Sign(hash)
		en.rec.Prev, en.rec.Sig = head.String(), sig.String()
		if err := enc.Encode(en.rec); err != nil {
			return chainLink{}, fmt.Errorf("journal: %w", err)
		}
		last = chainLink{set: true, prev: head, hash: hash, sig: sig}
		head = lineLink(hash, sig)
	}
	if b.Len() == 0 {
		return chainLink{}, nil
	}
	if _, err := s.file.Write(b.Bytes()); err != nil {
		return chainLink{}, s.cutBack(&JournalError{Op: "writing", Err: err})
	}
	if err := s.file.Sync(); err != nil {
		return chainLink{}, s.cutBack(&JournalError{Op: "syncing to disk", Err: err})
	}
	s.size += int64(b.Len())
	s.lines += n
	s.head = head
	s.later = nil
	return last, nil
}

// cutBack cuts the journal back to its last whole record after a failed
// write, so that no partial line stays for the next record to follow. When
// even that fails, the journal takes nothing more: what it holds stays
// readable up to its last whole line, which resuming then reads.
func (s *Store) cutBack(err *JournalError) error {
	if terr := s.file.Truncate(s.size); terr != nil {
		s.broken = fmt.Errorf("%w (and cutting the journal back to its last whole line: %v; it takes nothing more until the game is started again)", err, terr)
		return s.broken
	}
	if _, serr := s.file.Seek(s.size, io.SeekStart); serr != nil {
		s.broken = fmt.Errorf("%w (and going back to its last whole line: %v; it takes nothing more until the game is started again)", err, serr)
		return s.broken
	}
	return err
}

// JournalError is a record the journal could not take: the purchase it
// belonged to did not happen.
type JournalError struct {
	Op  string // what failed: writing, syncing to disk
	Err error
}

// Error writes "journal: OP: ERR".
func (e *JournalError) Error() string { return "journal: " + e.Op + ": " + e.Err.Error() }

// Unwrap returns the error of the file system.
func (e *JournalError) Unwrap() error { return e.Err }
