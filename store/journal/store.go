package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/internal/ring"
	"tapis/ledger"
	"tapis/store"
	"tapis/wallet"
)

// Options opens a Store.
type Options struct {
	Path    string           // the journal's; empty keeps everything in memory
	Seed    game.Seed        // the master seed of a new journal, or of the memory
	SeedSet bool             // the seed was given: a journal of another seed is refused
	Balance decimal.Decimal  // the starting balance of a new journal, or of the memory
	Account string           // the one account the store holds
	Limit   int              // how many recent purchases it keeps, to answer Account and retries; none when 0
	QA      bool             // a journal holding forced (QA) units is taken up
	Tables  store.Tables     // nil for the regulations'
	Now     func() time.Time // the clock that stamps the records; nil for time.Now
	// Key is the house's signing key of a journal, else the one in
	// KeyFile (made there, with its public half beside it, for a new
	// journal). A journal on a file needs one: it seals its start record
	// and signs every line with it, and each purchase's receipt
	// (Receipts, Receipt.Signed); a journal sealed by another key is
	// refused. The memory (Path "") signs nothing, whatever is given: it
	// keeps no receipts, and its Sell returns none.
	Key     ledger.Key
	KeyFile string
}

// Store is the store of one account kept by this process alone: in
// memory, or in a JSON-lines journal that it holds locked, to which every
// purchase is written and synced before Sell returns. It draws its units
// from a shop of its own, dealt from the master seed it holds, and settles
// them in a wallet of its own: the local game's store, that needs no
// database.
type Store struct {
	mu        sync.Mutex
	account   string
	shop      *lottery.Shop
	wallet    *wallet.Wallet
	file      *os.File // the journal, open for appending; nil without one
	size      int64    // the length of its whole records: a failed write is cut back to it
	lines     int      // how many records it holds
	broken    error    // why the journal takes no more records, once cutting back failed
	seed      game.Seed
	tables    store.Tables
	committed map[string]bool
	now       func() time.Time
	resumed   bool                   // the journal held an earlier run when it was opened
	deposited decimal.Decimal        // the starting balance, and the deposits made in memory since
	recent    ring.Ring[purchase]    // the last purchases, journal included
	pending   pendingUnits           // the purchases not shown yet, journal included
	later     []entry                // records of things done that the journal could not take yet: reveals, shown
	revealed  []store.Reveal         // the blocks exhausted and their seeds
	note      string                 // what opening the journal had to say (a torn last line)
	torn      int                    // the journal's last line, cut short by a crash and dropped, or 0
	key       ledger.Key             // the house's signing key; none in memory
	sealHash  ledger.Hash            // the hash of the journal's seal, as its start record holds it
	head      ledger.Hash            // the link of the journal's last line (lineLink): what the next one follows
	qa        bool                   // sealed as a QA journal: it sells forced units
	cache     map[string]*game.Table // the lot tables asked for, by sequence (table)
}

var _ store.Store = (*Store)(nil)

// Open opens the store of o: in memory without a path, or on its journal.
// A journal that exists is taken up where it was left (its balance, its
// history, every block's position); one that does not read, of another
// format, belongs to another seed than o's when o.SeedSet, sealed by
// another key than the house's, or holds forced units without o.QA is
// refused and left as it is; a last line cut short by a crash is dropped
// (Resumed tells it). A new journal is created readable by its owner
// alone (it holds its master seed), sealed with the house's key: a QA
// journal when o.QA, which alone sells forced units.
func Open(o Options) (*Store, error) {
	if o.Account == "" {
		return nil, errors.New("a journal store holds one account: none was named")
	}
	if o.Tables == nil {
		o.Tables = RegulationTables
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Store{account: o.Account, seed: o.Seed, tables: o.Tables, committed: map[string]bool{},
		now: o.Now, cache: map[string]*game.Table{}}
	if o.Path == "" {
		return s, s.fresh(o)
	}
	// A new journal's key is found (or made) before the journal is; an
	// existing journal's once it is read: what it is comes first.
	if info, err := os.Stat(o.Path); err != nil || info.Size() == 0 {
		if s.key, err = houseKey(o, true); err != nil {
			return nil, fmt.Errorf("journal %s: %w", o.Path, err)
		}
	}
	// The journal holds its master seed, from which every unit is dealt:
	// its owner alone reads it.
	f, err := os.OpenFile(o.Path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := store.PrivateMode("journal", o.Path, info.Mode()); err != nil {
		f.Close()
		return nil, err
	}
	if err := lock(f, o.Path); err != nil {
		f.Close()
		return nil, err
	}
	s.file = f
	if info.Size() == 0 {
		if !s.key.Valid() { // emptied since it was looked at
			if s.key, err = houseKey(o, true); err != nil {
				f.Close()
				return nil, fmt.Errorf("journal %s: %w", o.Path, err)
			}
		}
		if err := s.fresh(o); err != nil {
			f.Close()
			return nil, err
		}
		if err := s.begin(o); err != nil {
			f.Close()
			return nil, err
		}
		return s, nil
	}
	if err := s.resume(o, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal %s: %w", o.Path, err)
	}
	return s, nil
}

// houseKey returns the key a journal signs with: the one given, or the one
// in the key file, made there when create is set.
func houseKey(o Options, create bool) (ledger.Key, error) {
	k, err := ledger.Resolve(o.Key, o.KeyFile, create)
	if errors.Is(err, ledger.ErrNoKey) {
		return k, errors.New("a journal needs the house's key, to sign every line (--house-key FILE)")
	}
	return k, err
}

// begin writes a new journal's start record: its format, master seed,
// starting balance (the account's first deposit) and account, and the
// seal, signed, of what fixes its game: the seed's commitment, the lot
// tables, QA or the house's, one block open a sequence, when it was made,
// the house's public key.
func (s *Store) begin(o Options) error {
	balance, ok := game.CentsOf(o.Balance)
	if !ok {
		return fmt.Errorf("journal: starting balance %s is not a whole number of cents", o.Balance)
	}
	tables, err := store.SealedTables(o.Tables)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	at := s.now().UTC()
	seal := ledger.Seal{Format: ledger.Format, Commitment: o.Seed.Commitment(), Tables: tables, QA: o.QA, OpenBlocks: 1,
		Created: at.UnixNano(), Key: s.key.Public()}
	s.sealHash, s.qa = seal.Hash(), o.QA
	sealed, err := json.Marshal(seal)
	if err != nil {
		return fmt.Errorf("journal: sealing it: %w", err)
	}
	s.head = ledger.Genesis(s.sealHash, o.Account)
	_, err = s.append(entry{rec: Record{Kind: KindStart, Time: at, Version: Version, Seed: o.Seed.String(), Balance: o.Balance.String(),
		Account: o.Account, Seal: sealed, SealSig: s.key.Sign(s.sealHash).String()}, balance: balance})
	return err
}

// fresh starts the store's wallet and shop: nothing was bought yet.
func (s *Store) fresh(o Options) error {
	w, err := wallet.New(o.Balance)
	if err != nil {
		return err
	}
	s.wallet = w
	s.recent = ring.Ring[purchase]{Limit: o.Limit}
	s.deposited = o.Balance
	s.shop = lottery.NewShopWith(o.Seed, s.tableOf)
	return nil
}

func (s *Store) tableOf(g lottery.Game, stake decimal.Decimal) (*game.Table, error) {
	return s.tables(g, stake)
}

// resume reads the journal and takes the store up from it.
func (s *Store) resume(o Options, f *os.File) error {
	var found problems
	st, jr, err := check(f, o.Tables, o.Limit, &found)
	if err != nil {
		return err
	}
	if st.other {
		return &FormatError{Version: st.version}
	}
	if found.n > 0 {
		return found.first // the first, as verify lists them
	}
	if s.key, err = houseKey(o, false); err != nil {
		return err
	}
	if !st.seal.Key.Equal(s.key.Public()) {
		return fmt.Errorf("it was sealed by the key %s, not the house's %s: open it with the key that sealed it (--house-key)",
			st.seal.Key.Fingerprint(), s.key.Public().Fingerprint())
	}
	if st.account != o.Account {
		return fmt.Errorf("it holds the purchases of account %q, not %q", st.account, o.Account)
	}
	if o.SeedSet && st.Seed != o.Seed {
		return fmt.Errorf("it belongs to another seed than %s", o.Seed)
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
		s.note = fmt.Sprintf("line %d was cut short by a crash: read up to line %d", torn, torn-1)
		s.torn = torn
	}
	s.lines = st.lines
	if s.size, err = f.Seek(0, io.SeekEnd); err != nil {
		return err
	}
	if err := s.endLine(); err != nil {
		return err
	}
	s.seed = st.Seed
	s.sealHash, s.head, s.qa = st.sealHash, st.links.head, st.qa
	s.deposited = st.Start
	if s.wallet, err = wallet.Restore(st.Balance, st.Seq); err != nil {
		return err
	}
	s.recent = st.recent
	s.pending = pendingOf(st.Pending)
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
		if id, err := game.ParseBlockID(b); err == nil { // each read as tapis writes it (the scan checks)
			s.revealed = append(s.revealed, store.Reveal{Block: id, Seed: seed})
		}
	}
	s.resumed = true
	return nil
}

// Resumed reports whether the store took up an earlier run (a journal
// that held one), and what reading it had to say: a note, and the last
// line, cut short by a crash and dropped, or 0. A session tells the player.
func (s *Store) Resumed() (resumed bool, note string, torn int) {
	return s.resumed, s.note, s.torn
}

// Kept reports whether what the store holds outlives the process: on a
// journal it does; in memory, everything ends with it.
func (s *Store) Kept() bool { return s.file != nil }

// LineOf returns the journal line that records the purchase of a unit the
// store keeps (recent, or not shown yet), or 0: what the history shows.
func (s *Store) LineOf(unit string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil && !s.resumed {
		return 0 // no purchase of it has a line
	}
	u, _ := s.byUnit(unit)
	return u.Line
}

// Wallet returns the store's wallet, for a caller that has the store to
// itself (QA tools, tests): its Balance and Seq move with each purchase.
func (s *Store) Wallet() *wallet.Wallet {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.wallet
}

// Shop returns the shop the store deals its units from, for a caller that
// has the store to itself.
func (s *Store) Shop() *lottery.Shop {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shop
}

// Seed returns the master seed the store deals from: the journal's, when
// it was taken up. QA shows it, to play the same units again.
func (s *Store) Seed() game.Seed { return s.seed }

// Restart gives the store a fresh wallet of balance, with no recent or
// unshown units, the shop going on where it was: the kiosk's next visitor.
// A journal keeps its wallet: it holds no deposit to restart from.
func (s *Store) Restart(balance decimal.Decimal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file != nil {
		return errors.New("a session on a journal keeps its wallet")
	}
	w, err := wallet.New(balance)
	if err != nil {
		return err
	}
	s.wallet, s.deposited = w, balance
	s.recent = ring.Ring[purchase]{Limit: s.recent.Limit}
	s.pending = pendingUnits{}
	return nil
}

// Close writes what waits to be written, if the journal takes it now, and
// closes the journal.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return nil
	}
	_, late := s.append(entry{})
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
