package journal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
	"tapis/wallet"
)

// holds checks that an account is the store's.
func (s *Store) holds(account string) error {
	if account != s.account {
		return fmt.Errorf("account %q (this session's is %q): %w", account, s.account, store.ErrNoAccount)
	}
	return nil
}

// Sell sells the account's next purchase, as sell does. A purchase of a
// number already made is returned again (Receipt.Again) while the store
// keeps it among its recent or unshown units, which the journal holds too.
func (s *Store) Sell(ctx context.Context, p store.Purchase) (store.Receipt, error) {
	if err := ctx.Err(); err != nil {
		return store.Receipt{}, err
	}
	if err := s.holds(p.Account); err != nil {
		return store.Receipt{}, err
	}
	for _, unit := range p.Shown { // recorded before the purchase, as they happened
		if err := s.Shown(ctx, p.Account, unit); err != nil {
			return store.Receipt{}, err
		}
	}
	if p.LossLimit.IsPositive() {
		return store.Receipt{}, errors.New("a journal keeps no loss limit: serve one from a shared store")
	}
	if p.Force != nil && s.file != nil && !s.qa {
		return store.Receipt{}, errors.New("this journal was created without --qa: it sells no forced (QA) unit")
	}
	stake := p.PlayedStake()
	cents, ok := game.CentsOf(stake)
	if !ok || cents <= 0 {
		return store.Receipt{}, fmt.Errorf("wallet: stake %s is not positive", stake)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	balance, _ := game.CentsOf(s.wallet.Balance()) // whole cents: the wallet pays only those
	// One process holds the journal (its lock): no lease to fence.
	st := store.Standing{Balance: balance, Made: s.wallet.Seq(), Lease: p.Lease}
	again, err := store.Admit(p, st, cents)
	switch {
	case err != nil:
		return store.Receipt{}, err
	case again:
		return s.again(p)
	}
	u, signed, err := s.sell(p.Game, stake, p.Force, p.Label)
	if err != nil {
		return store.Receipt{}, err
	}
	return store.Receipt{Op: u.Op, Sold: u.Sold, At: u.Time, Signed: signed}, nil // not shown yet
}

// again returns a purchase made before, as it was, when p retries it (the
// admission rules' Same).
func (s *Store) again(p store.Purchase) (store.Receipt, error) {
	u, ok := s.played(p.Number)
	if !ok {
		return store.Receipt{}, fmt.Errorf("purchase %s is older than the ones kept in memory: %w", p.ID(), store.ErrOutOfTurn)
	}
	r := s.receipt(u, true)
	if !p.Same(r, "") { // a journal keeps no seller's token: one seller holds it
		return store.Receipt{}, fmt.Errorf("purchase %s was unit %s: %w", p.ID(), u.Op.Unit, store.ErrOtherPurchase)
	}
	return r, nil
}

// played returns the purchase of a number, if the store keeps it: among
// the recent purchases, newest first, or the ones not shown yet.
func (s *Store) played(number int) (purchase, bool) {
	for u := range s.recent.Newest() {
		if u.Op.Seq == number {
			return u, true
		}
	}
	for _, u := range s.pending.units {
		if u.Op.Seq == number && u.Op.Unit != "" {
			return u, true
		}
	}
	return purchase{}, false
}

// byUnit returns the purchase of a unit, if the store keeps it: among the
// ones not shown yet, or the recent purchases, newest first.
func (s *Store) byUnit(unit string) (purchase, bool) {
	if i, ok := s.pending.at[unit]; ok {
		return s.pending.units[i], true
	}
	for u := range s.recent.Newest() {
		if u.Op.Unit == unit {
			return u, true
		}
	}
	return purchase{}, false
}

// receipt returns a purchase as the store answers it, with its signed
// receipt when the journal holds it.
func (s *Store) receipt(u purchase, again bool) store.Receipt {
	return store.Receipt{Op: u.Op, Sold: u.Sold, At: u.Time, Shown: !s.pending.has(u.Op.Unit), Again: again, Signed: s.signed(u)}
}

// signed returns a purchase's receipt, as its line in the journal holds
// it, or nil for a purchase of no journal. Its layout is the one its
// MarshalJSON writes, which wrote the line's.
func (s *Store) signed(u purchase) *ledger.Receipt {
	if !u.Link.set {
		return nil
	}
	layout, err := u.Sold.Layout.MarshalJSON()
	if err != nil {
		return nil
	}
	rec, err := purchaseRecord(s.account, u.Op.Seq, u.Sold, u.Op.Stake, u.Op.Before, u.Op.After, u.Time, u.Link.tier, layout)
	if err != nil {
		return nil
	}
	r := ledger.NewReceipt(rec, int64(u.Op.Seq)+1, s.sealHash, u.Link.prev, u.Link.hash, u.Link.sig, s.key.Public())
	return &r
}

// sell buys a unit of a game at a stake: one from its block, or the forced
// unit f (with label QA or DEMO) when f is not nil. The stake is debited
// and the prize credited in one wallet operation (ruling G3), and the
// purchase is written to the journal and synced to disk before sell
// returns, so before anything is revealed. When the journal cannot be
// written, the purchase does not happen. The stake is the one the unit is
// played at (Purchase.PlayedStake). The unit joins the recent and unshown
// ones.
func (s *Store) sell(g lottery.Game, stake decimal.Decimal, f *lottery.Force, label string) (purchase, *ledger.Receipt, error) {
	// Read before the wallet's lock is taken: the store's own is held.
	before, seq := s.wallet.Balance(), s.wallet.Seq()+1
	undo := func() {}
	if s.file != nil { // only a journal can refuse a sale once it is drawn
		var err error
		if undo, err = s.shop.Mark(g, stake); err != nil {
			return purchase{}, nil, err
		}
	}
	var (
		sold   lottery.Sold
		at     time.Time
		line   int
		link   chainLink
		signed *ledger.Receipt
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
			link, signed, err = s.journalBuy(g, seq, sold, f != nil, stake, before, at)
			line = s.lines // its record is the last written, when there is a journal
		}
		if err != nil {
			undo() // the blocks stay where they were: the unit is sold next time
			return wallet.Sale{}, err
		}
		return wallet.Sale{Unit: sold.Name(), Forced: f != nil, Prize: sold.Unit.Prize}, nil
	})
	if err != nil {
		return purchase{}, nil, err
	}
	u := purchase{Op: op, Sold: sold, Time: at, Line: line, Link: link}
	s.recent.Add(u)
	s.pending.add(u)
	if f == nil {
		s.revealExhausted(g, stake, sold.Unit)
	}
	return u, signed, nil
}

// commit writes the commitment of the block the next unit comes from, if it
// was not written yet.
func (s *Store) commit(g lottery.Game, stake decimal.Decimal) error {
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
	rec := Record{Kind: KindCommit, Block: name, Commitment: b.Seed().CommitmentHex(g.Seq(stake).Block(b.Number())), Units: b.Table().Units}
	if _, err := s.append(entry{rec: rec}); err != nil {
		return err
	}
	s.committed[name] = true
	return nil
}

// revealExhausted publishes the seed of a block once its last unit is sold.
// The purchase is done by then: a reveal the journal cannot take now is
// written before its next record.
func (s *Store) revealExhausted(g lottery.Game, stake decimal.Decimal, u game.Unit) {
	b, err := s.shop.Block(g, stake)
	if err != nil || b.Number() != u.ID.Block || b.Remaining() > 0 {
		return
	}
	block := u.ID.BlockID().String()
	s.revealed = append(s.revealed, store.Reveal{Block: u.ID.BlockID(), Seed: u.Seed.String()})
	if s.file != nil {
		s.later = append(s.later, entry{rec: Record{Kind: KindReveal, Block: block, BlockSeed: u.Seed.String()}})
		s.append(entry{}) // only what waits, if the journal takes it
	}
}

// Shown records that a unit was fully revealed. It was: a record the
// journal cannot take now is written before its next one, or when the
// store closes.
func (s *Store) Shown(_ context.Context, account string, unit lottery.Ref) error {
	if err := s.holds(account); err != nil {
		return err
	}
	name := unit.Name() // as the journal writes it
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending.drop(name)
	r := entry{rec: Record{Kind: KindShown, Unit: name}}
	_, err := s.append(r)
	if err != nil && s.file != nil {
		s.later = append(s.later, r)
	}
	return err
}

// Deposit credits the account in memory. A journal holds no deposit: on
// one, Deposit is refused.
func (s *Store) Deposit(_ context.Context, account string, amount decimal.Decimal) error {
	if err := s.holds(account); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file != nil {
		return fmt.Errorf("depositing %s: a journal holds no deposit", amount)
	}
	if err := s.wallet.Deposit(amount); err != nil {
		return err
	}
	s.deposited = s.deposited.Add(amount)
	return nil
}

// Account returns the account: its balance, the starting balance and the
// memory's deposits, its purchases, those not shown yet and the last
// recent of them (at most the store's limit).
func (s *Store) Account(_ context.Context, name string, recent int) (store.Account, error) {
	if err := s.holds(name); err != nil {
		return store.Account{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a := store.Account{Name: s.account, Balance: s.wallet.Balance(), Deposited: s.deposited, Purchases: s.wallet.Seq()}
	for _, u := range s.pending.list() {
		a.Pending = append(a.Pending, s.receipt(u, false))
	}
	kept := s.recent.List()
	for _, u := range kept[max(0, len(kept)-recent):] {
		a.Recent = append(a.Recent, s.receipt(u, false))
	}
	return a, nil
}

// Block returns where the block a game and stake sell next stands.
func (s *Store) Block(_ context.Context, seq game.SeqKey) (store.BlockStatus, error) {
	g, err := lottery.Find(seq.Game)
	if err != nil {
		return store.BlockStatus{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := s.shop.Peek(g, seq.Stake)
	if err != nil {
		return store.BlockStatus{}, err
	}
	st := store.BlockStatus{Number: b.Number(), Sold: b.Sold(), Remaining: b.Remaining(),
		Losing: b.Table().Losing(), Commitment: b.Seed().Commitment(seq.Block(b.Number()))}
	for i := range b.Table().Tiers() {
		st.Left = append(st.Left, b.Left(i))
	}
	return st, nil
}

// Revealed returns the blocks exhausted so far and their seeds.
func (s *Store) Revealed(context.Context) ([]store.Reveal, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.revealed), nil
}
