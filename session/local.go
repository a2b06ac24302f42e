package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/store"
	"tapis/wallet"
)

// DefaultAccount is the account of a session that names none: the local
// game's one player.
const DefaultAccount = "local"

// local is the store of a session kept by this process alone, for one
// account: in memory, or in a JSON-lines journal that it holds locked, to
// which every purchase is written and synced before Sell returns. It draws
// its units from its own shop, dealt from the master seed it holds.
type local struct {
	mu        sync.Mutex
	account   string
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
	restored  *State            // what the journal held when it was opened
	deposited decimal.Decimal   // the starting balance, and the deposits made in memory since
	recent    recentUnits       // the last purchases, journal included
	pending   pendingUnits      // the purchases not shown yet, journal included
	later     []Record          // records of things done that the journal could not take yet: reveals, shown
	revealed  map[string]string // block → its seed, once exhausted
	note      string            // what opening the journal had to say (a torn last line)
	torn      int               // the journal's last line, cut short by a crash and dropped, or 0
}

var _ store.Store = (*local)(nil)

// openLocal opens the memory store of o, or its journal's: one that exists
// is taken up where it was left, one that does not read or belongs to
// another seed is refused and left as it is, and a last line cut short by
// a crash is dropped. o's defaults are set.
func openLocal(o Options) (*local, error) {
	l := &local{account: o.Account, seed: o.Seed, tables: o.Tables, committed: map[string]bool{},
		revealed: map[string]string{}, now: o.Now}
	if o.Journal == "" {
		return l, l.fresh(o)
	}
	// The journal holds its master seed, from which every unit is dealt:
	// its owner alone reads it.
	f, err := os.OpenFile(o.Journal, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := store.PrivateMode("journal", o.Journal, info.Mode()); err != nil {
		f.Close()
		return nil, err
	}
	if err := lock(f, o.Journal); err != nil {
		f.Close()
		return nil, err
	}
	l.file = f
	if info.Size() == 0 {
		if err := l.fresh(o); err != nil {
			f.Close()
			return nil, err
		}
		if err := l.append(Record{Kind: KindStart, Version: Version, Seed: strconv.FormatUint(uint64(o.Seed), 10), Balance: o.Balance.String()}); err != nil {
			f.Close()
			return nil, err
		}
		return l, nil
	}
	if err := l.resume(o, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal %s: %w", o.Journal, err)
	}
	return l, nil
}

func (l *local) fresh(o Options) error {
	w, err := wallet.New(o.Balance)
	if err != nil {
		return err
	}
	l.wallet = w
	l.recent = recentUnits{limit: o.Limit}
	l.deposited = o.Balance
	l.shop = lottery.NewShopWith(o.Seed, l.tableOf)
	return nil
}

func (l *local) tableOf(g lottery.Game, stake decimal.Decimal) (*game.Table, error) {
	return l.tables(g, stake)
}

// resume reads the journal and takes the store up from it.
func (l *local) resume(o Options, f *os.File) error {
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
		l.note = fmt.Sprintf("line %d was cut short by a crash: read up to line %d", torn, torn-1)
		l.torn = torn
	}
	l.lines = st.lines
	if l.size, err = f.Seek(0, io.SeekEnd); err != nil {
		return err
	}
	if err := l.endLine(); err != nil {
		return err
	}
	l.seed = st.Seed
	l.deposited = st.Start
	if l.wallet, err = wallet.Restore(st.Balance, st.Seq); err != nil {
		return err
	}
	l.recent = st.recent
	l.pending = pendingOf(st.Pending) // its own: Restored().Pending stays as read
	l.shop = lottery.NewShopWith(st.Seed, l.tableOf)
	for _, id := range st.Last {
		g, err := lottery.FindSeq(id.Seq())
		if err != nil {
			return err
		}
		if err := l.shop.Resume(g, id); err != nil {
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
		l.shop.ResumeForced(g, k.Stake, n)
	}
	for b := range st.Commits {
		l.committed[b] = true
	}
	for b, seed := range st.Reveals {
		l.revealed[b] = seed
	}
	l.restored = st
	return nil
}

// holds checks that an account is the store's.
func (l *local) holds(account string) error {
	if account != l.account {
		return fmt.Errorf("account %q (this session's is %q): %w", account, l.account, store.ErrNoAccount)
	}
	return nil
}

// Sell sells the account's next purchase, as sell does. A purchase of a
// number already made is returned again (Receipt.Again) while the store
// keeps it among its recent or unshown units, which the journal holds too.
func (l *local) Sell(ctx context.Context, p store.Purchase) (store.Receipt, error) {
	if err := ctx.Err(); err != nil {
		return store.Receipt{}, err
	}
	if err := l.holds(p.Account); err != nil {
		return store.Receipt{}, err
	}
	for _, unit := range p.Shown { // recorded before the purchase, as they happened
		if err := l.Shown(ctx, p.Account, unit); err != nil {
			return store.Receipt{}, err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if next := l.wallet.Seq() + 1; p.Number != next {
		return l.again(p, next)
	}
	u, err := l.sell(p.Game, p.Stake, p.Force, p.Label)
	if err != nil {
		return store.Receipt{}, err
	}
	return store.Receipt{Op: u.Op, Sold: u.Sold, At: u.Time}, nil // not shown yet
}

// again returns a purchase made before, as it was, when p asks for it.
func (l *local) again(p store.Purchase, next int) (store.Receipt, error) {
	if p.Number < 1 || p.Number >= next {
		return store.Receipt{}, fmt.Errorf("purchase %s, where %s comes next: %w", p.ID(), store.PurchaseID(p.Account, next), store.ErrOutOfTurn)
	}
	u, ok := l.played(p.Number)
	if !ok {
		return store.Receipt{}, fmt.Errorf("purchase %s is older than the ones kept in memory: %w", p.ID(), store.ErrOutOfTurn)
	}
	stake := p.Stake
	if p.Force != nil {
		stake = p.Force.Stake(stake)
	}
	if u.Sold.Unit.ID.Game != p.Game.Name || !u.Op.Stake.Equal(stake) || u.Op.Forced != (p.Force != nil) {
		return store.Receipt{}, fmt.Errorf("purchase %s was unit %s: %w", p.ID(), u.Op.Unit, store.ErrOtherPurchase)
	}
	return l.receipt(u, true), nil
}

// played returns the purchase of a number, if the store keeps it: among
// the recent purchases, newest first, or the ones not shown yet.
func (l *local) played(number int) (Played, bool) {
	r := &l.recent
	for i := range r.units {
		k := (r.next - 1 - i + 2*len(r.units)) % len(r.units)
		if r.units[k].Op.Seq == number {
			return r.units[k], true
		}
	}
	for _, u := range l.pending.units {
		if u.Op.Seq == number && u.Op.Unit != "" {
			return u, true
		}
	}
	return Played{}, false
}

// lineOf returns the journal line of a purchase the store keeps, or 0.
func (l *local) lineOf(number int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil && l.restored == nil {
		return 0 // no purchase of it has a line
	}
	u, _ := l.played(number)
	return u.Line
}

// receipt returns a purchase as the store answers it.
func (l *local) receipt(u Played, again bool) store.Receipt {
	return store.Receipt{Op: u.Op, Sold: u.Sold, At: u.Time, Shown: !l.pending.has(u.Op.Unit), Again: again}
}

// sell buys a unit of a game at a stake: one from its block, or the forced
// unit f (with label QA or DEMO) when f is not nil. The stake is debited
// and the prize credited in one wallet operation (ruling G3), and the
// purchase is written to the journal and synced to disk before sell
// returns, so before anything is revealed. When the journal cannot be
// written, the purchase does not happen. A forced layout is played at its
// own stake (Force.Stake). The unit joins the recent and unshown ones.
func (l *local) sell(g lottery.Game, stake decimal.Decimal, f *lottery.Force, label string) (Played, error) {
	if f != nil {
		stake = f.Stake(stake)
	}
	// Read before the wallet's lock is taken: the store's own is held.
	before, seq := l.wallet.Balance(), l.wallet.Seq()+1
	undo := func() {}
	if l.file != nil { // only a journal can refuse a sale once it is drawn
		var err error
		if undo, err = l.shop.Mark(g, stake); err != nil {
			return Played{}, err
		}
	}
	var (
		sold lottery.Sold
		at   time.Time
		line int
	)
	op, err := l.wallet.Buy(stake, func() (wallet.Sale, error) {
		var err error
		if f != nil {
			sold, err = l.shop.Force(g, stake, *f, label)
		} else {
			err = l.commit(g, stake)
			if err == nil {
				sold, err = l.shop.Sell(g, stake)
			}
		}
		if err == nil {
			at = l.now().UTC()
			err = l.journalBuy(seq, sold, f != nil, stake, before, at)
			line = l.lines // its record is the last written, when there is a journal
		}
		if err != nil {
			undo() // the blocks stay where they were: the unit is sold next time
			return wallet.Sale{}, err
		}
		return wallet.Sale{Unit: sold.Name(), Forced: f != nil, Prize: sold.Unit.Prize}, nil
	})
	if err != nil {
		return Played{}, err
	}
	u := Played{Op: op, Sold: sold, Time: at, Line: line}
	l.recent.add(u)
	l.pending.add(u)
	if f == nil {
		l.revealExhausted(g, stake, sold.Unit)
	}
	return u, nil
}

// commit writes the commitment of the block the next unit comes from, if it
// was not written yet.
func (l *local) commit(g lottery.Game, stake decimal.Decimal) error {
	b, err := l.shop.Ready(g, stake)
	if err != nil {
		return err
	}
	if l.file == nil {
		return nil
	}
	name := g.Seq(stake).Block(b.Number()).String()
	if l.committed[name] {
		return nil
	}
	if err := l.append(Record{Kind: KindCommit, Block: name, Commitment: b.Seed().CommitmentHex()}); err != nil {
		return err
	}
	l.committed[name] = true
	return nil
}

// revealExhausted publishes the seed of a block once its last unit is sold.
// The purchase is done by then: a reveal the journal cannot take now is
// written before its next record.
func (l *local) revealExhausted(g lottery.Game, stake decimal.Decimal, u game.Unit) {
	b, err := l.shop.Block(g, stake)
	if err != nil || b.Number() != u.ID.Block || b.Remaining() > 0 {
		return
	}
	block := u.ID.BlockID().String()
	l.revealed[block] = u.Seed.String()
	if l.file != nil {
		l.later = append(l.later, Record{Kind: KindReveal, Block: block, BlockSeed: u.Seed.String()})
		l.append(Record{}) // only what waits, if the journal takes it
	}
}

// Shown records that a unit was fully revealed. It was: a record the
// journal cannot take now is written before its next one, or when the
// store closes.
func (l *local) Shown(_ context.Context, account, unit string) error {
	if err := l.holds(account); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending.drop(unit)
	r := Record{Kind: KindShown, Unit: unit}
	err := l.append(r)
	if err != nil && l.file != nil {
		l.later = append(l.later, r)
	}
	return err
}

// Deposit credits the account in memory. A journal holds no deposit: on
// one, Deposit is refused.
func (l *local) Deposit(_ context.Context, account string, amount decimal.Decimal) error {
	if err := l.holds(account); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		return fmt.Errorf("depositing %s: a journal holds no deposit", amount)
	}
	if err := l.wallet.Deposit(amount); err != nil {
		return err
	}
	l.deposited = l.deposited.Add(amount)
	return nil
}

// Account returns the account: its balance, the starting balance and the
// memory's deposits, its purchases, those not shown yet and the last
// recent of them (at most the store's limit).
func (l *local) Account(_ context.Context, name string, recent int) (store.Account, error) {
	if err := l.holds(name); err != nil {
		return store.Account{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	a := store.Account{Name: l.account, Balance: l.wallet.Balance(), Deposited: l.deposited, Purchases: l.wallet.Seq()}
	for _, u := range l.pending.list() {
		a.Pending = append(a.Pending, l.receipt(u, false))
	}
	kept := l.recent.list()
	for _, u := range kept[max(0, len(kept)-recent):] {
		a.Recent = append(a.Recent, l.receipt(u, false))
	}
	return a, nil
}

// Block returns where the block a game and stake sell next stands.
func (l *local) Block(_ context.Context, seq game.SeqKey) (store.BlockStatus, error) {
	g, err := lottery.Find(seq.Game)
	if err != nil {
		return store.BlockStatus{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, err := l.shop.Peek(g, seq.Stake)
	if err != nil {
		return store.BlockStatus{}, err
	}
	st := store.BlockStatus{Number: b.Number(), Sold: b.Sold(), Remaining: b.Remaining(),
		Losing: b.Table().Losing(), Commitment: b.Seed().Commitment()}
	for i := range b.Table().Tiers() {
		st.Left = append(st.Left, b.Left(i))
	}
	return st, nil
}

// Revealed returns the seeds of the blocks exhausted so far, by block.
func (l *local) Revealed(context.Context) (map[string]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.revealed), nil
}

// restart gives the store a fresh wallet of balance, with no recent or
// unshown units, the shop going on where it was: the kiosk's next visitor.
// A journal keeps its wallet.
func (l *local) restart(balance decimal.Decimal) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		return errors.New("a session on a journal keeps its wallet")
	}
	w, err := wallet.New(balance)
	if err != nil {
		return err
	}
	l.wallet, l.deposited = w, balance
	l.recent = recentUnits{limit: l.recent.limit}
	l.pending = pendingUnits{}
	return nil
}

// Close writes what waits to be written, if the journal takes it now, and
// closes the journal.
func (l *local) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		return nil
	}
	late := l.append(Record{})
	err := l.file.Close()
	if err == nil {
		err = late
	}
	l.file = nil
	if err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}
