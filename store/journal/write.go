package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
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

// journalBuy writes a purchase's line, synced, when there is a journal.
func (s *Store) journalBuy(seq int, sold lottery.Sold, forced bool, stake, before decimal.Decimal, at time.Time) error {
	if s.file == nil {
		return nil
	}
	layout, err := sold.Layout.MarshalJSON()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	after := before.Sub(stake).Add(sold.Unit.Prize)
	return s.append(Record{Kind: KindBuy, Time: at, Seq: seq, Unit: sold.Name(), Forced: forced,
		Stake: stake.String(), Prize: sold.Unit.Prize.String(), Before: before.String(), After: after.String(), Layout: layout})
}

// append writes a record, after the records waiting to be written, and
// syncs the journal to disk. A record the file cannot take leaves it exactly
// as it was: cut back to its last whole line. An empty record writes only
// what waits. A record without a time is stamped with the time of writing.
func (s *Store) append(r Record) error {
	if s.file == nil {
		return nil
	}
	if s.broken != nil {
		return s.broken
	}
	now := s.now().UTC()
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // one line a record, with its newline
	records := s.later
	if r.Kind != "" {
		records = append(records[:len(records):len(records)], r)
	}
	for _, rec := range records {
		if rec.Time.IsZero() { // a purchase carries its own time
			rec.Time = now
		}
		if err := enc.Encode(rec); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
	}
	if b.Len() == 0 {
		return nil
	}
	if _, err := s.file.Write(b.Bytes()); err != nil {
		return s.cutBack(&JournalError{Op: "writing", Err: err})
	}
	if err := s.file.Sync(); err != nil {
		return s.cutBack(&JournalError{Op: "syncing to disk", Err: err})
	}
	s.size += int64(b.Len())
	s.lines += len(records)
	s.later = nil
	return nil
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
