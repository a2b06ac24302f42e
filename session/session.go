// Package session keeps a player's session: an account buying from a
// store (store.Store), and what the screens and tools read of it: the
// balance, what is spendable, the run's totals, the recent units. It
// knows a store only by what it does: what only some stores do is asked
// through small interfaces, never of a store's type. Open opens the store
// the options name (the SQL store, or the local game's journal.Store);
// OpenOn buys from any.
package session

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/internal/ring"
	"tapis/ledger"
	"tapis/store"
	"tapis/store/journal"
	"tapis/wallet"
)

// DefaultAccount is the account of a session that names none: the local
// game's one player.
const DefaultAccount = "local"

// Tables gives the lot table of a game at a stake: the regulation's, or
// smaller blocks in tests.
type Tables = store.Tables

// Options opens a session.
type Options struct {
	Seed    game.Seed
	SeedSet bool            // the seed was given: a journal of another seed is refused
	Balance decimal.Decimal // the starting balance of a new session, and of an account OpenOn creates
	Journal string          // the journal's path; empty keeps everything in memory
	Store   string          // a shared store (sqlite:PATH, PATH.db, postgres://…) instead of memory or a journal
	Account string          // the account the session buys for; DefaultAccount when empty
	// OpenBlocks is how many blocks of each game and stake a new store
	// sells side by side (store.DefaultOpenBlocks when 0); a store keeps
	// what it was created with.
	OpenBlocks int
	Limit      int  // how many recent units the session keeps (Recent); 200 when 0
	QA         bool // a QA session: a journal holding forced units is taken up; a store created as a QA store (or one asked for)
	// Guest makes the account a guest's (serve's keyless player, whose
	// name is new): OpenOn creates nothing; the store opens the account,
	// marked a guest's, before its first purchase, and Close removes it
	// if it bought nothing. The store must open guests (GuestOpener).
	Guest  bool
	Tables Tables // nil for the regulations' tables
	Now    func() time.Time
	// Key is the house's signing key for a store or a journal, else the
	// one in KeyFile (made there for a new store or journal).
	Key     ledger.Key
	KeyFile string
	// OnTamper is told once when a shared store finds it was changed
	// under this session's seller: from then on it sells nothing
	// (store.ErrTampered).
	OnTamper func(error)
}

// Session is a player's session: one account buying from a store, and what
// the screens and tools read of it (the balance, the totals of this run,
// the recent units). Its methods may be called from several goroutines (a
// purchase runs off the screen's update loop while the screen reads the
// balance), except Wallet and Shop, whose values are for a caller that has
// the session to itself.
type Session struct {
	st       store.Store
	account  string
	buying   sync.Mutex // held through a purchase: each takes the account's next number
	mu       sync.Mutex // guards what follows
	next     int        // the account's next purchase number
	balance  decimal.Decimal
	origin   decimal.Decimal
	played   int               // the purchases of this run
	staked   decimal.Decimal   // and their stakes
	won      decimal.Decimal   // and their prizes
	recent   ring.Ring[Played] // the last units bought, the store's included
	unseen   unseenPrizes      // the prizes of the units bought and not shown yet
	paying   decimal.Decimal   // the stake of the purchase under way, until its answer
	restored *State            // what the store held of the account when the session opened
	attempt  string            // the token of the purchase under way, kept for its retries (guarded by buying)
	guest    GuestOpener       // the store, for a guest's session; nil otherwise
	opened   bool              // a guest's account is in the store (guarded by buying)
	lease    *store.Lease      // the account held for this session, on a store that holds them
	Note     string            // what opening the store had to say (a journal's torn last line)
	Torn     int               // the journal's last line, cut short by a crash and dropped, or 0
}

// Open starts a session for o.Account on the store the options name, and
// then OpenOn it. Without o.Store, it is the local game's store
// (journal.Store): in memory, or on o.Journal. With a journal that
// exists, it takes the session up where the journal left it: the balance,
// the history, and every block's position; the units bought but never
// shown are in Restored().Pending. A journal that does not read, or
// belongs to another seed, is refused and left as it is. A last line cut
// short by a crash is dropped, and said in Note.
//
// With o.Store, the session buys for o.Account from that shared store,
// whose emission is created on its first use (from o.Seed when o.SeedSet,
// o.OpenBlocks and o.Tables) and kept in it.
func Open(o Options) (*Session, error) {
	o = o.withDefaults()
	st, err := openStore(o)
	if err != nil {
		return nil, err
	}
	s, err := OpenOn(st, o.Account, o)
	if err != nil {
		st.Close()
		return nil, err
	}
	return s, nil
}

// openStore opens the store o names: the shared store o.Store, or the
// local game's, in memory or on o.Journal.
func openStore(o Options) (store.Store, error) {
	if o.Store == "" {
		return journal.Open(journal.Options{Path: o.Journal, Seed: o.Seed, SeedSet: o.SeedSet, Balance: o.Balance,
			Account: o.Account, Limit: o.Limit, QA: o.QA, Tables: o.Tables, Now: o.Now, Key: o.Key, KeyFile: o.KeyFile})
	}
	if o.Journal != "" {
		return nil, errors.New("a session keeps a journal or a store, not both")
	}
	ctx, cancel := deadline()
	defer cancel()
	return store.Open(ctx, o.Store, store.Options{Seed: o.Seed, SeedSet: o.SeedSet, QA: o.QA,
		OpenBlocks: o.OpenBlocks, Tables: o.Tables, Now: o.Now, Key: o.Key, KeyFile: o.KeyFile, OnTamper: o.OnTamper})
}

// OpenOn starts a session for an account on a store: the account, created
// with o.Balance if the store does not hold it yet, buys from the store;
// the units it bought and never showed are in Restored().Pending, and its
// last purchases in Recent. The session takes the store: Close closes it.
// When OpenOn fails, the store is the caller's to close. Of o, only
// Balance and Limit are read (and the account, when empty).
//
// A store that holds accounts (store.Holder) is asked to hold the
// account for this session until it closes: another seller of it, in any
// process, is refused with a *store.InUseError before anything is read
// or sold.
func OpenOn(st store.Store, account string, o Options) (*Session, error) {
	o = o.withDefaults()
	if account == "" {
		account = o.Account
	}
	if h, ok := st.(accountHolder); ok && !o.Guest {
		return openHeld(h, st, account, o)
	}
	var lease *store.Lease
	if h, ok := st.(store.Holder); ok {
		ctx, cancel := deadline()
		l, err := h.Hold(ctx, account)
		cancel()
		if err != nil {
			return nil, err
		}
		lease = l
	}
	s, err := openOn(st, account, o)
	if err != nil {
		if lease != nil {
			lease.Release() //nolint:errcheck // the error said is the opening's
		}
		return nil, err
	}
	s.lease = lease
	return s, nil
}

// openOn is OpenOn, the account held.
func openOn(st store.Store, account string, o Options) (*Session, error) {
	s := newSession(st, account, o)
	if o.Guest { // a new name: nothing to read, nothing written yet
		g, ok := st.(GuestOpener)
		if !ok {
			return nil, fmt.Errorf("account %s: the store opens no guests", account)
		}
		s.guest = g
		return s, nil
	}
	ctx, cancel := deadline()
	defer cancel()
	a, err := st.Account(ctx, account, o.Limit)
	created := false
	if errors.Is(err, store.ErrNoAccount) {
		if opener, ok := st.(accountOpener); ok { // sellers opening it at once credit it once
			created, err = opener.OpenAccount(ctx, account, o.Balance)
		} else {
			err, created = st.Deposit(ctx, account, o.Balance), true
		}
		if err != nil {
			return nil, fmt.Errorf("opening account %s: %w", account, err)
		}
		a, err = st.Account(ctx, account, o.Limit)
	}
	if err != nil {
		return nil, fmt.Errorf("account %s: %w", account, err)
	}
	s.take(a, created)
	return s, nil
}

// StoreTimeout bounds each call to a store: a database that does not
// answer fails the purchase (which is retried with the same number) rather
// than hanging the game.
const StoreTimeout = 30 * time.Second

// deadline returns the context of one call to a store.
func deadline() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), StoreTimeout)
}

// withDefaults returns o with its defaults set.
func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Limit <= 0 {
		o.Limit = 200
	}
	if o.Account == "" {
		o.Account = DefaultAccount
	}
	return o
}

// stateOf is what a store held of an account: its balance, its deposits
// as the start, its purchases and the units never shown.
func (s *Session) stateOf(a store.Account) *State {
	st := &State{Start: a.Deposited, Balance: a.Balance, Purchases: a.Purchases}
	for _, r := range a.Pending {
		st.Pending = append(st.Pending, s.playedOf(r))
	}
	return st
}

// playedOf returns a purchase as the session keeps it: with its journal
// line, when the session's store keeps lines and still knows it.
func (s *Session) playedOf(r store.Receipt) Played {
	p := Played{Op: r.Op, Sold: r.Sold, Time: r.At, Receipt: r.Signed}
	if k, ok := s.st.(lineKeeper); ok {
		p.Line = k.LineOf(r.Op.Unit)
	}
	return p
}

// Buy buys a unit of a game at a stake for the session's account: one from
// its block, or the forced unit f (with label QA or DEMO) when f is not nil;
// a forced layout is played at its own stake (Force.Stake). The store
// debits the stake and credits the prize in one operation (ruling G3) and
// records the purchase, on a journal synced to disk, before Buy returns,
// so before anything is revealed; when it cannot, the purchase does not
// happen. The purchase carries the account's next number: when Buy fails,
// the next one asks for the same number again, so a purchase whose answer
// was lost is returned then as it was made, never made twice. The unit
// joins Recent, and its prize is not spendable until it is Seen. A stake
// that Spendable does not cover is refused (wallet.ErrShort) before the
// store is asked.
func (s *Session) Buy(g lottery.Game, stake decimal.Decimal, f *lottery.Force, label string) (lottery.Sold, wallet.Operation, error) {
	s.buying.Lock()
	defer s.buying.Unlock()
	if f != nil {
		stake = f.Stake(stake)
	}
	s.mu.Lock()
	n := s.next
	if spendable := s.spendable(); spendable.LessThan(stake) {
		s.mu.Unlock()
		return lottery.Sold{}, wallet.Operation{}, fmt.Errorf("balance %s, stake %s: %w", spendable, stake, wallet.ErrShort)
	}
	s.paying = stake
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.paying = decimal.Zero
		s.mu.Unlock()
	}()
	ctx, cancel := deadline()
	defer cancel()
	if s.attempt == "" { // drawn once for this purchase number, kept for its retries
		s.attempt = rand.Text()
	}
	if s.guest != nil && !s.opened {
		if _, err := s.guest.OpenGuest(ctx, s.account, s.origin); err != nil {
			return lottery.Sold{}, wallet.Operation{}, fmt.Errorf("opening account %s: %w", s.account, err)
		}
		s.opened = true
	}
	purchase := store.Purchase{Account: s.account, Number: n, Game: g, Stake: stake, Force: f, Label: label, Attempt: s.attempt}
	if s.lease != nil {
		purchase.Lease = s.lease.Token()
	}
	r, err := s.st.Sell(ctx, purchase)
	if errors.Is(err, store.ErrLeaseLost) {
		s.holdAgain(ctx)
	}
	// The store's account is not as the session holds it (another
	// seller, a lost answer, a balance changed under it): the session
	// follows the store's, and the screens say so from it.
	if errors.Is(err, store.ErrOutOfTurn) || errors.Is(err, store.ErrOtherPurchase) || errors.Is(err, store.ErrLeaseLost) || errors.Is(err, wallet.ErrShort) {
		s.attempt = "" // the next number is another purchase
		// Another seller bought for the account, or the purchase whose
		// answer was lost was another: the next one follows the store's.
		if a, aerr := s.st.Account(ctx, s.account, 0); aerr == nil {
			s.mu.Lock()
			s.next, s.balance = a.Purchases+1, a.Balance
			// The purchases from n on are not this session's answers (one
			// whose answer was lost, the other seller's): their units,
			// never shown here, are not spendable.
			for _, r := range a.Pending {
				if r.Op.Seq >= n && (r.Sold.Layout.Yams != nil || r.Sold.Layout.Vegas != nil) {
					s.unseen.add(r.Op.Unit, r.Op.Prize)
				}
			}
			s.mu.Unlock()
		}
	}
	if err != nil {
		return lottery.Sold{}, wallet.Operation{}, err
	}
	p := s.playedOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next, s.attempt = n+1, ""
	s.balance = r.Op.After
	s.played, s.staked, s.won = s.played+1, s.staked.Add(r.Op.Stake), s.won.Add(r.Op.Prize)
	s.recent.Add(p)
	s.unseen.add(r.Op.Unit, r.Op.Prize)
	return r.Sold, r.Op, nil
}

// Shown records that a unit was fully revealed. It was: a record the
// journal cannot take now is written before its next one, or when the
// session closes.
//
// A shared store that queues marks (ShownSoon) writes it within a second,
// with the account's next purchase or with its other sellers' marks, so
// that the screen waits for no transaction; after a crash, only a unit
// whose reveal ended less than that before is offered again. A journal
// writes it at once.
func (s *Session) Shown(unit lottery.Ref) error {
	s.Seen(unit)
	if q, ok := s.st.(shownQueuer); ok {
		q.ShownSoon(s.account, unit)
		return nil
	}
	ctx, cancel := deadline()
	defer cancel()
	return s.st.Shown(ctx, s.account, unit)
}

// holdAgain takes the account again after its lease was lost (another
// seller took it while this one's hold was gone, a database restart): if
// no one holds it now, the next purchase is made under the new lease, the
// account read again; if another seller does, the purchases go on being
// refused. The caller holds s.buying.
func (s *Session) holdAgain(ctx context.Context) {
	h, ok := s.st.(store.Holder)
	if !ok || s.lease == nil {
		return
	}
	s.lease.Release() //nolint:errcheck // lost already: its line is another's
	if l, err := h.Hold(ctx, s.account); err == nil {
		s.lease = l
	}
	// Otherwise another seller holds it: the old token goes on fencing
	// this session's purchases, and the next one tries again.
}

// Seen marks a unit as shown to the player, in memory only: its prize is
// spendable from now on. It is for a screen that has just revealed it and
// records it with Shown off its update loop; Shown marks it too.
func (s *Session) Seen(unit lottery.Ref) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unseen.drop(unit.Name())
}

// Spendable returns what the player can stake now: the balance less the
// prizes of the units bought and not shown yet (ruling G3 credits a prize
// at purchase, but a player spends only what they have seen), less the
// stake of a purchase under way. Buy refuses a stake it does not cover.
func (s *Session) Spendable() decimal.Decimal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.spendable()
}

// Covers reports whether the spendable balance pays a stake: whether Buy
// would take it.
func (s *Session) Covers(stake decimal.Decimal) bool {
	return !s.Spendable().LessThan(stake)
}

// spendable is Spendable, s.mu held.
func (s *Session) spendable() decimal.Decimal {
	b := s.balance // a Sub of nothing would still allocate: asked at every frame
	if !s.paying.IsZero() {
		b = b.Sub(s.paying)
	}
	if !s.unseen.sum.IsZero() {
		b = b.Sub(s.unseen.sum)
	}
	return b
}

// Restart gives the session a fresh wallet of balance, with no recent
// units, the shop going on where it was: the kiosk's next visitor. Only a
// session on a store that restarts (the local game's, in memory) does: one
// on a journal, or on any other store, keeps its account's wallet.
func (s *Session) Restart(balance decimal.Decimal) error {
	s.buying.Lock()
	defer s.buying.Unlock()
	r, ok := s.st.(restarter)
	if !ok {
		return errors.New("a session on a store keeps its account's wallet")
	}
	if err := r.Restart(balance); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next, s.balance, s.origin = 1, balance, balance
	s.played, s.staked, s.won = 0, decimal.Zero, decimal.Zero
	s.recent = ring.Ring[Played]{Limit: s.recent.Limit}
	s.unseen.reset()
	return nil
}

// Close lets the session's store go: a journal's records waiting to be
// written are written, if it takes them now, and it is closed.
func (s *Session) Close() error {
	s.buying.Lock()
	defer s.buying.Unlock()
	var errs []error
	if s.guest != nil && s.opened {
		// A guest who bought nothing (the first purchase failed) leaves
		// nothing; the store keeps an account that bought.
		ctx, cancel := deadline()
		if _, err := s.guest.ForgetGuest(ctx, s.account); err != nil {
			errs = append(errs, err)
		}
		cancel()
	}
	if s.lease != nil {
		errs = append(errs, s.lease.Release())
	}
	return errors.Join(append(errs, s.st.Close())...)
}
