package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/store"
	"tapis/wallet"
)

// errLost is the answer a fakeStore loses: the purchase was made, and its
// seller never hears of it.
var errLost = errors.New("the answer was lost")

// fakeStore is a store.Store of many accounts in memory that can lose the
// answer to a purchase it made, as a network or a crash would.
type fakeStore struct {
	mu       sync.Mutex
	shop     *lottery.Shop
	accounts map[string]*fakeAccount
	lose     int // the next purchases made whose answers are lost
	sales    int // the purchases made, retries not counted
}

type fakeAccount struct {
	balance, deposited decimal.Decimal
	bought             []store.Receipt
	shown              map[string]bool
}

func newFakeStore(seed game.Seed) *fakeStore {
	return &fakeStore{shop: lottery.NewShopWith(seed, store.SmallTables), accounts: map[string]*fakeAccount{}}
}

func (f *fakeStore) Sell(_ context.Context, p store.Purchase) (store.Receipt, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.accounts[p.Account]
	if !ok {
		return store.Receipt{}, store.ErrNoAccount
	}
	for _, unit := range p.Shown { // in the purchase's transaction, whatever it answers
		a.shown[unit.Name()] = true
	}
	stake := p.Stake
	if p.Force != nil {
		stake = p.Force.Stake(stake)
	}
	if p.Number >= 1 && p.Number <= len(a.bought) {
		r := a.bought[p.Number-1]
		if r.Sold.Unit.ID.Game != p.Game.Name || !r.Op.Stake.Equal(stake) {
			return store.Receipt{}, store.ErrOtherPurchase
		}
		r.Shown, r.Again = a.shown[r.Op.Unit], true
		return r, nil
	}
	if p.Number != len(a.bought)+1 {
		return store.Receipt{}, store.ErrOutOfTurn
	}
	if a.balance.LessThan(stake) {
		return store.Receipt{}, wallet.ErrShort
	}
	var (
		sold lottery.Sold
		err  error
	)
	if p.Force != nil {
		sold, err = f.shop.Force(p.Game, stake, *p.Force, p.Label)
	} else {
		sold, err = f.shop.Sell(p.Game, stake)
	}
	if err != nil {
		return store.Receipt{}, err
	}
	op := wallet.Operation{Seq: p.Number, Unit: sold.Name(), Forced: p.Force != nil, Stake: stake, Prize: sold.Unit.Prize,
		Before: a.balance, After: a.balance.Sub(stake).Add(sold.Unit.Prize)}
	a.balance = op.After
	r := store.Receipt{Op: op, Sold: sold}
	a.bought = append(a.bought, r)
	f.sales++
	if f.lose > 0 {
		f.lose--
		return store.Receipt{}, errLost
	}
	return r, nil
}

func (f *fakeStore) Shown(_ context.Context, account string, unit lottery.Ref) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.accounts[account]
	if !ok {
		return store.ErrNoAccount
	}
	a.shown[unit.Name()] = true
	return nil
}

func (f *fakeStore) Deposit(_ context.Context, account string, amount decimal.Decimal) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.accounts[account]
	if !ok {
		a = &fakeAccount{shown: map[string]bool{}}
		f.accounts[account] = a
	}
	a.balance, a.deposited = a.balance.Add(amount), a.deposited.Add(amount)
	return nil
}

func (f *fakeStore) Account(_ context.Context, name string, recent int) (store.Account, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.accounts[name]
	if !ok {
		return store.Account{}, store.ErrNoAccount
	}
	out := store.Account{Name: name, Balance: a.balance, Deposited: a.deposited, Purchases: len(a.bought)}
	for i, r := range a.bought {
		r.Shown = a.shown[r.Op.Unit]
		if !r.Shown {
			out.Pending = append(out.Pending, r)
		}
		if i >= len(a.bought)-recent {
			out.Recent = append(out.Recent, r)
		}
	}
	return out, nil
}

func (f *fakeStore) Block(_ context.Context, seq game.SeqKey) (store.BlockStatus, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, err := lottery.FindSeq(seq)
	if err != nil {
		return store.BlockStatus{}, err
	}
	b, err := f.shop.Peek(g, seq.Stake)
	if err != nil {
		return store.BlockStatus{}, err
	}
	return store.BlockStatus{Number: b.Number(), Sold: b.Sold(), Remaining: b.Remaining(), Commitment: b.Seed().Commitment(seq.Block(b.Number()))}, nil
}

func (f *fakeStore) Revealed(context.Context) ([]store.Reveal, error) {
	return nil, nil
}

func (f *fakeStore) Close() error { return nil }

// TestSessionOnAnyStore runs a session on a store that is not this
// package's: the account is created with the starting balance; a purchase
// whose answer is lost is not counted, and the next purchase asks for the
// same number and gets that very unit, made once; a purchase of another
// game after a lost answer is refused and the session goes on after it;
// a session opened again takes up the units never shown.
func TestSessionOnAnyStore(t *testing.T) {
	st := newFakeStore(game.SeedFrom(17))
	yams, one := lottery.Yams(), decimal.NewFromInt(1)
	s, err := OpenOn(st, "alice", Options{Balance: decimal.NewFromInt(100)})
	if err != nil {
		t.Fatal(err)
	}
	if s.Restored() != nil || !s.Balance().Equal(decimal.NewFromInt(100)) || !s.Origin().Equal(decimal.NewFromInt(100)) {
		t.Fatalf("a new account: restored %v, balance %s, origin %s", s.Restored(), s.Balance(), s.Origin())
	}
	first, firstOp, err := s.Buy(yams, one, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Shown(first.Ref()); err != nil {
		t.Fatal(err)
	}

	st.lose = 1
	if _, _, err := s.Buy(yams, one, nil, ""); !errors.Is(err, errLost) {
		t.Fatalf("a lost answer: %v", err)
	}
	made := st.accounts["alice"].bought[1]
	if st.sales != 2 || len(s.Recent()) != 1 || s.Totals().Played != 1 || !s.Balance().Equal(firstOp.After) {
		t.Fatalf("after a lost answer: %d sales, %d recent, %d played, balance %s", st.sales, len(s.Recent()), s.Totals().Played, s.Balance())
	}
	again, op, err := s.Buy(yams, one, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if again.Name() != made.Sold.Name() || op.Seq != 2 || st.sales != 2 {
		t.Fatalf("the retry bought %s (purchase %d), the store made %s; %d sales", again.Name(), op.Seq, made.Sold.Name(), st.sales)
	}
	if r := s.Recent(); len(r) != 2 || r[1].Op.Unit != made.Op.Unit || s.Totals().Played != 2 || !s.Balance().Equal(made.Op.After) {
		t.Fatalf("after the retry: %d recent, %d played, balance %s (want %s)", len(r), s.Totals().Played, s.Balance(), made.Op.After)
	}
	if err := s.Shown(again.Ref()); err != nil {
		t.Fatal(err)
	}

	st.lose = 1
	if _, _, err := s.Buy(yams, one, nil, ""); !errors.Is(err, errLost) {
		t.Fatalf("a lost answer: %v", err)
	}
	lost := st.accounts["alice"].bought[2]
	if _, _, err := s.Buy(lottery.Vegas(), decimal.NewFromInt(2), nil, ""); !errors.Is(err, store.ErrOtherPurchase) {
		t.Fatalf("another game after a lost answer: %v", err)
	}
	next, op, err := s.Buy(yams, one, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if next.Name() == lost.Sold.Name() || op.Seq != 4 || st.sales != 4 || !s.Balance().Equal(op.After) {
		t.Fatalf("after a refused purchase: %s, purchase %d, %d sales, balance %s", next.Name(), op.Seq, st.sales, s.Balance())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	b, err := OpenOn(st, "alice", Options{Balance: decimal.NewFromInt(5), Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	r := b.Restored()
	var pending []string
	for _, p := range r.Pending {
		pending = append(pending, p.Op.Unit)
	}
	if want := fmt.Sprint([]string{lost.Op.Unit, next.Name()}); fmt.Sprint(pending) != want || r.Purchases != 4 || !r.Start.Equal(decimal.NewFromInt(100)) {
		t.Fatalf("taken up: pending %v (want %s), %d purchases, start %s", pending, want, r.Purchases, r.Start)
	}
	if h := b.Recent(); len(h) != 3 || h[0].Op.Seq != 2 || h[2].Op.Seq != 4 || !b.Balance().Equal(op.After) || b.Totals().Played != 0 {
		t.Fatalf("taken up: %d recent, balance %s, %d played", len(h), b.Balance(), b.Totals().Played)
	}
	if _, op, err := b.Buy(yams, one, nil, ""); err != nil || op.Seq != 5 {
		t.Fatalf("the next purchase: %d, %v", op.Seq, err)
	}
	if err := b.Restart(decimal.NewFromInt(10)); err == nil {
		t.Error("a session on a store restarted its account's wallet")
	}
	if b.Wallet() != nil || b.Shop() != nil || b.Seed() != (game.Seed{}) {
		t.Error("a session on a store shows a wallet, a shop or a seed of its own")
	}
}
