package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/wallet"
)

// Options opens a session.
type Options struct {
	Seed    game.Seed
	SeedSet bool            // the seed was given: a journal of another seed is refused
	Balance decimal.Decimal // the starting balance of a new session
	Journal string          // the journal's path; empty keeps everything in memory
	Limit   int             // how many recent units the session keeps (Recent); 200 when 0
	QA      bool            // a QA session: a journal holding forced units is taken up
	Tables  Tables          // nil for the regulations' tables
	Now     func() time.Time
}

// Session is a player's session: what sells, what pays, and what records.
// Its methods may be called from several goroutines (a purchase runs off
// the screen's update loop while the screen reads the balance), except
// Wallet and Shop, whose values are for a caller that has the session to
// itself.
type Session struct {
	mu        sync.Mutex
	shop      *lottery.Shop
	wallet    *wallet.Wallet
	file      *os.File // the journal, open for appending; nil without one
	size      int64    // the length of its whole records: a failed write is cut back to it
	lines     int      // how many records it holds
	broken    error    // why the journal takes no more records, once cutting back failed
	seed      game.Seed
	tables    Tables
	committed map[string]bool
	now       func() time.Time
	restored  *State            // what the journal held when the session opened
	recent    recentUnits       // the last units bought, journal included
	later     []Record          // records of things done that the journal could not take yet: reveals, shown
	revealed  map[string]string // block → its seed, once exhausted
	origin    decimal.Decimal   // the balance the session started from
	Note      string            // what opening the journal had to say (a torn last line)
	Torn      int               // the journal's last line, cut short by a crash and dropped, or 0
}

// Open starts a session. With a journal that exists, it takes the session up
// where the journal left it: the balance, the history, and every block's
// position; the units bought but never shown are in Restored().Pending. A
// journal that does not read, or belongs to another seed, is refused and
// left as it is. A last line cut short by a crash is dropped.
func Open(o Options) (*Session, error) {
	if o.Tables == nil {
		o.Tables = RegulationTables
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Limit <= 0 {
		o.Limit = 200
	}
	s := &Session{seed: o.Seed, tables: o.Tables, committed: map[string]bool{}, revealed: map[string]string{}, now: o.Now}
	if o.Journal == "" {
		return s, s.fresh(o)
	}
	f, err := os.OpenFile(o.Journal, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := lock(f, o.Journal); err != nil {
		f.Close()
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	s.file = f
	if info.Size() == 0 {
		if err := s.fresh(o); err != nil {
			f.Close()
			return nil, err
		}
		if err := s.append(Record{Kind: KindStart, Version: Version, Seed: strconv.FormatUint(uint64(o.Seed), 10), Balance: o.Balance.String()}); err != nil {
			f.Close()
			return nil, err
		}
		return s, nil
	}
	if err := s.resume(o, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal %s: %w", o.Journal, err)
	}
	return s, nil
}

func (s *Session) fresh(o Options) error {
	w, err := wallet.New(o.Balance)
	if err != nil {
		return err
	}
	s.wallet = w
	s.recent = recentUnits{limit: o.Limit}
	s.origin = o.Balance
	s.shop = lottery.NewShopWith(o.Seed, s.tableOf)
	return nil
}

func (s *Session) tableOf(g lottery.Game, stake decimal.Decimal) (*game.Table, error) {
	return s.tables(g, stake)
}

// resume reads the journal and takes the session up from it.
func (s *Session) resume(o Options, f *os.File) error {
	var found problems
	st, jr, err := check(f, o.Tables, o.Limit, &found)
	if err != nil {
		return err
	}
	if found.n > 0 {
		return found.first // the first, as verify lists them
	}
	if o.SeedSet && st.Seed != o.Seed {
		return fmt.Errorf("it belongs to another seed than %d", o.Seed)
	}
	if n := st.forcedUnits(); n > 0 && !o.QA {
		unit := "units"
		if n == 1 {
			unit = "unit"
		}
		return fmt.Errorf("it holds %d forced (QA) %s: take it up with --qa", n, unit)
	}
	if torn := jr.torn; torn > 0 {
		// What follows the last whole record never finished writing.
		if err := f.Truncate(jr.good); err != nil {
			return fmt.Errorf("dropping the torn line %d: %w", torn, err)
		}
		s.Note = fmt.Sprintf("line %d was cut short by a crash: read up to line %d", torn, torn-1)
		s.Torn = torn
	}
	s.lines = st.lines
	if s.size, err = f.Seek(0, io.SeekEnd); err != nil {
		return err
	}
	if err := s.endLine(); err != nil {
		return err
	}
	s.seed = st.Seed
	s.origin = st.Start
	if s.wallet, err = wallet.Restore(st.Balance, st.Seq); err != nil {
		return err
	}
	s.recent = st.recent
	s.shop = lottery.NewShopWith(st.Seed, s.tableOf)
	for _, id := range st.Last {
		g, err := lottery.FindSeq(id.Seq())
		if err != nil {
			return err
		}
		if err := s.shop.Resume(g, id); err != nil {
			return err
		}
	}
	for key, n := range st.Forced {
		k, err := game.ParseSeqKey(key)
		if err != nil {
			return err
		}
		g, err := lottery.FindSeq(k)
		if err != nil {
			return err
		}
		s.shop.ResumeForced(g, k.Stake, n)
	}
	for b := range st.Commits {
		s.committed[b] = true
	}
	for b, seed := range st.Reveals {
		s.revealed[b] = seed
	}
	s.restored = st
	return nil
}

// endLine ends the journal's last record with its newline, when a crash
// left it whole but without one.
func (s *Session) endLine() error {
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

// Buy buys a unit of a game at a stake: one from its block, or the forced
// unit f (with label QA or DEMO) when f is not nil. The stake is debited
// and the prize credited in one wallet operation (ruling G3), and the
// purchase is written to the journal and synced to disk before Buy returns,
// so before anything is revealed. When the journal cannot be written, the
// purchase does not happen. A forced layout is played at its own stake
// (Force.Stake). The unit joins Recent.
func (s *Session) Buy(g lottery.Game, stake decimal.Decimal, f *lottery.Force, label string) (lottery.Sold, wallet.Operation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f != nil {
		stake = f.Stake(stake)
	}
	// Read before the wallet's lock is taken: the session's own is held.
	before, seq := s.wallet.Balance(), s.wallet.Seq()+1
	undo := func() {}
	if s.file != nil { // only a journal can refuse a sale once it is drawn
		var err error
		if undo, err = s.shop.Mark(g, stake); err != nil {
			return lottery.Sold{}, wallet.Operation{}, err
		}
	}
	var (
		sold lottery.Sold
		at   time.Time
		line int
	)
	op, err := s.wallet.Buy(stake, func() (wallet.Sale, error) {
		var err error
		if f != nil {
			sold, err = s.shop.Force(g, stake, *f, label)
		} else {
			err = s.commit(g, stake)
			if err == nil {
				sold, err = s.shop.Sell(g, stake)
			}
		}
		if err == nil {
			at = s.now().UTC()
			err = s.journalBuy(seq, sold, f != nil, stake, before, at)
			line = s.lines // its record is the last written, when there is a journal
		}
		if err != nil {
			undo() // the blocks stay where they were: the unit is sold next time
			return wallet.Sale{}, err
		}
		return wallet.Sale{Unit: sold.Name(), Forced: f != nil, Prize: sold.Unit.Prize}, nil
	})
	if err != nil {
		return lottery.Sold{}, wallet.Operation{}, err
	}
	s.recent.add(Played{Op: op, Sold: sold, Time: at, Line: line})
	if f == nil {
		s.revealExhausted(g, stake, sold.Unit)
	}
	return sold, op, nil
}

// journalBuy writes a purchase's line, synced, when there is a journal.
func (s *Session) journalBuy(seq int, sold lottery.Sold, forced bool, stake, before decimal.Decimal, at time.Time) error {
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

// commit writes the commitment of the block the next unit comes from, if it
// was not written yet.
func (s *Session) commit(g lottery.Game, stake decimal.Decimal) error {
	b, err := s.shop.Ready(g, stake)
	if err != nil {
		return err
	}
	if s.file == nil {
		return nil
	}
	name := g.Seq(stake).Block(b.Number()).String()
	if s.committed[name] {
		return nil
	}
	if err := s.append(Record{Kind: KindCommit, Block: name, Commitment: b.Seed().CommitmentHex()}); err != nil {
		return err
	}
	s.committed[name] = true
	return nil
}

// revealExhausted publishes the seed of a block once its last unit is sold.
// The purchase is done by then: a reveal the journal cannot take now is
// written before its next record.
func (s *Session) revealExhausted(g lottery.Game, stake decimal.Decimal, u game.Unit) {
	b, err := s.shop.Block(g, stake)
	if err != nil || b.Number() != u.ID.Block || b.Remaining() > 0 {
		return
	}
	block := u.ID.BlockID().String()
	s.revealed[block] = u.Seed.String()
	if s.file != nil {
		s.later = append(s.later, Record{Kind: KindReveal, Block: block, BlockSeed: u.Seed.String()})
		s.append(Record{}) // only what waits, if the journal takes it
	}
}

// Commitment returns the block the next unit of a game and stake comes from
// and its commitment, the SHA-256 of its seed in hex, published before its
// first sale.
func (s *Session) Commitment(g lottery.Game, stake decimal.Decimal) (int64, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.shop.Peek(g, stake)
	if err != nil {
		return 0, "", err
	}
	return b.Number(), b.Seed().CommitmentHex(), nil
}

// Shown records that a unit was fully revealed. It was: a record the
// journal cannot take now is written before its next one, or when the
// session closes.
func (s *Session) Shown(unit string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := Record{Kind: KindShown, Unit: unit}
	err := s.append(r)
	if err != nil && s.file != nil {
		s.later = append(s.later, r)
	}
	return err
}

// Restart gives the session a fresh wallet of balance, with no recent
// units, the shop going on where it was: the kiosk's next visitor. A
// session on a journal keeps its wallet.
func (s *Session) Restart(balance decimal.Decimal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file != nil {
		return errors.New("a session on a journal keeps its wallet")
	}
	w, err := wallet.New(balance)
	if err != nil {
		return err
	}
	s.wallet, s.origin = w, balance
	s.recent = recentUnits{limit: s.recent.limit}
	return nil
}

// append writes a record, after the records waiting to be written, and
// syncs the journal to disk. A record the file cannot take leaves it exactly
// as it was: cut back to its last whole line. An empty record writes only
// what waits. A record without a time is stamped with the time of writing.
func (s *Session) append(r Record) error {
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
func (s *Session) cutBack(err *JournalError) error {
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

// Close writes what waits to be written, if the journal takes it now, and
// closes the journal.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return nil
	}
	late := s.append(Record{})
	err := s.file.Close()
	if err == nil {
		err = late
	}
	s.file = nil
	if err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}
