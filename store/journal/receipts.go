package journal

import (
	"context"
	"errors"
	"fmt"
	"io"

	"tapis/ledger"
	"tapis/store"
)

// Receipts returns the receipt of every purchase of the account, oldest
// first, as the journal's lines hold them: the same ledger.Receipt the SQL
// store gives (Receipt.Check checks each against the house's public key),
// its Prev the hash of the line before the purchase's (chain.go). The
// journal is read again from its start, checked as Verify checks it, and
// each receipt checked before it is returned: a journal that no longer
// checks, or a line whose own signature is not the house key's, gives an
// error naming the line and no receipt. A store in memory signs nothing
// and keeps no receipts: it answers an error.
func (s *Store) Receipts(ctx context.Context, account string) ([]ledger.Receipt, error) {
	if err := s.holds(account); err != nil {
		return nil, err
	}
	s.mu.Lock()
	f, size := s.file, s.size
	s.mu.Unlock()
	if f == nil {
		return nil, errors.New("a game in memory signs nothing: it keeps no receipts (a journal, --journal FILE, does)")
	}
	// The journal only grows past size while it is read: a failed write is
	// cut back to its last whole line, never before.
	return readReceipts(ctx, io.NewSectionReader(f, 0, size), s.tables)
}

// ReadReceipts reads the receipts of a journal's purchases, oldest first,
// from r, without opening the journal: nothing written, no lock, no key
// but the public one sealed in it, against which each is checked, as
// Receipts does. tables are those it was made with (nil for the
// regulation's). tapis receipt --journal reads a journal with it.
func ReadReceipts(ctx context.Context, r io.Reader, tables store.Tables) ([]ledger.Receipt, error) {
	return readReceipts(ctx, r, tables)
}

func readReceipts(ctx context.Context, r io.Reader, tables store.Tables) ([]ledger.Receipt, error) {
	if tables == nil {
		tables = RegulationTables
	}
	var found problems
	var read []lineReceipt
	st := newState(tables, 0, &found)
	st.receipts = &read
	if _, _, err := st.run(r); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if found.n > 0 {
		return nil, fmt.Errorf("journal: %w", found.first)
	}
	key := st.links.key
	out := make([]ledger.Receipt, 0, len(read))
	for _, r := range read {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := r.receipt.Check(key); err != nil {
			return nil, fmt.Errorf("journal: line %d: the receipt of purchase %d: %w", r.line, r.receipt.Number, err)
		}
		out = append(out, r.receipt)
	}
	return out, nil
}

// lineReceipt is a purchase's receipt and the line that holds it.
type lineReceipt struct {
	line    int
	receipt ledger.Receipt
}
