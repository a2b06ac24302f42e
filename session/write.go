package session

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
func (l *local) endLine() error {
	last := make([]byte, 1)
	if l.size == 0 {
		return nil
	}
	if _, err := l.file.ReadAt(last, l.size-1); err != nil || last[0] == '\n' {
		return err
	}
	if _, err := l.file.Write([]byte("\n")); err != nil {
		return l.cutBack(&JournalError{Op: "ending its last line", Err: err})
	}
	if err := l.file.Sync(); err != nil {
		return l.cutBack(&JournalError{Op: "syncing to disk", Err: err})
	}
	l.size++
	return nil
}

// journalBuy writes a purchase's line, synced, when there is a journal.
func (l *local) journalBuy(seq int, sold lottery.Sold, forced bool, stake, before decimal.Decimal, at time.Time) error {
	if l.file == nil {
		return nil
	}
	layout, err := sold.Layout.MarshalJSON()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	after := before.Sub(stake).Add(sold.Unit.Prize)
	return l.append(Record{Kind: KindBuy, Time: at, Seq: seq, Unit: sold.Name(), Forced: forced,
		Stake: stake.String(), Prize: sold.Unit.Prize.String(), Before: before.String(), After: after.String(), Layout: layout})
}

// append writes a record, after the records waiting to be written, and
// syncs the journal to disk. A record the file cannot take leaves it exactly
// as it was: cut back to its last whole line. An empty record writes only
// what waits. A record without a time is stamped with the time of writing.
func (l *local) append(r Record) error {
	if l.file == nil {
		return nil
	}
	if l.broken != nil {
		return l.broken
	}
	now := l.now().UTC()
	var b bytes.Buffer
	enc := json.NewEncoder(&b) // one line a record, with its newline
	records := l.later
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
	if _, err := l.file.Write(b.Bytes()); err != nil {
		return l.cutBack(&JournalError{Op: "writing", Err: err})
	}
	if err := l.file.Sync(); err != nil {
		return l.cutBack(&JournalError{Op: "syncing to disk", Err: err})
	}
	l.size += int64(b.Len())
	l.lines += len(records)
	l.later = nil
	return nil
}

// cutBack cuts the journal back to its last whole record after a failed
// write, so that no partial line stays for the next record to follow. When
// even that fails, the journal takes nothing more: what it holds stays
// readable up to its last whole line, which resuming then reads.
func (l *local) cutBack(err *JournalError) error {
	if terr := l.file.Truncate(l.size); terr != nil {
		l.broken = fmt.Errorf("%w (and cutting the journal back to its last whole line: %v; it takes nothing more until the game is started again)", err, terr)
		return l.broken
	}
	if _, serr := l.file.Seek(l.size, io.SeekStart); serr != nil {
		l.broken = fmt.Errorf("%w (and going back to its last whole line: %v; it takes nothing more until the game is started again)", err, serr)
		return l.broken
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
