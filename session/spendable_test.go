package session

import (
	"tapis/game"
	"tapis/ledger"

	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/store"
	"tapis/wallet"
)

// TestPrizeNotShownIsNotSpent buys a winning unit with the last of a
// balance: its prize is in the balance (ruling G3) but not spendable until
// the player has seen it, and Buy itself refuses a stake it alone would
// pay, before the store is asked.
func TestPrizeNotShownIsNotSpent(t *testing.T) {
	s, err := Open(Options{Balance: decimal.NewFromInt(2), QA: true, Tables: store.SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	one, two := decimal.NewFromInt(1), decimal.NewFromInt(2)
	tier := 0
	won, _, err := s.Buy(lottery.Yams(), one, &lottery.Force{Tier: &tier}, "QA")
	if err != nil {
		t.Fatal(err)
	}
	prize := won.Unit.Prize
	if !prize.IsPositive() || !s.Balance().Equal(one.Add(prize)) {
		t.Fatalf("balance %s after a unit paying %s, want %s", s.Balance(), prize, one.Add(prize))
	}
	if !s.Spendable().Equal(one) || s.Covers(two) || !s.Covers(one) {
		t.Fatalf("spendable %s with a prize of %s not shown, want 1", s.Spendable(), prize)
	}
	if _, _, err := s.Buy(lottery.Yams(), two, nil, ""); !errors.Is(err, wallet.ErrShort) {
		t.Fatalf("a 2 € stake paid by a prize not shown: %v", err)
	}
	if got := s.Totals().Played; got != 1 {
		t.Fatalf("the refused purchase reached the store: %d played", got)
	}
	if err := s.Shown(won.Ref()); err != nil {
		t.Fatal(err)
	}
	if !s.Spendable().Equal(s.Balance()) {
		t.Fatalf("spendable %s once shown, want the balance %s", s.Spendable(), s.Balance())
	}
	if _, _, err := s.Buy(lottery.Yams(), two, nil, ""); err != nil {
		t.Fatalf("a 2 € stake once the prize is seen: %v", err)
	}
}

// TestResumedUnitsAreNotSpendable takes a journal up with a winning unit
// never shown: its prize waits for its reveal before it can be staked.
func TestResumedUnitsAreNotSpendable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	a := open(t, path, game.SeedFrom(3))
	tier := 0
	won, _, err := a.Buy(lottery.Yams(), decimal.NewFromInt(1), &lottery.Force{Tier: &tier}, "QA")
	if err != nil {
		t.Fatal(err)
	}
	a.Close()

	b := open(t, path, game.SeedFrom(3))
	defer b.Close()
	if want := b.Balance().Sub(won.Unit.Prize); !b.Spendable().Equal(want) {
		t.Fatalf("spendable %s with %s's prize %s not shown, want %s", b.Spendable(), won.Name(), won.Unit.Prize, want)
	}
	b.Seen(won.Ref())
	if !b.Spendable().Equal(b.Balance()) {
		t.Fatalf("spendable %s once seen, want %s", b.Spendable(), b.Balance())
	}
}

// lostAnswer is a store that makes its first sale and loses the answer.
type lostAnswer struct {
	*store.SQL
	lost bool
}

func (l *lostAnswer) Sell(ctx context.Context, p store.Purchase) (store.Receipt, error) {
	r, err := l.SQL.Sell(ctx, p)
	if err == nil && !l.lost {
		l.lost = true
		return store.Receipt{}, errors.New("the answer was lost")
	}
	return r, err
}

// TestLostAnswerIsNotSpendable: a winning purchase whose answer was lost,
// then asked again as another purchase (refused), is in the balance the
// session reads back, but its prize, never shown here, is not spendable.
func TestLostAnswerIsNotSpendable(t *testing.T) {
	ctx := context.Background()
	sql, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "s.db"), store.Options{Key: ledger.PublicTestKey(), QA: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenOn(&lostAnswer{SQL: sql}, "ann", Options{Balance: decimal.NewFromInt(10)})
	if err != nil {
		sql.Close()
		t.Fatal(err)
	}
	defer s.Close()
	tier := 0
	if _, _, err := s.Buy(lottery.Vegas(), vegas.Price(), &lottery.Force{Tier: &tier}, "QA"); err == nil {
		t.Fatal("the lost answer was not lost")
	}
	_, _, err = s.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, "") // the same number, another purchase
	if !errors.Is(err, store.ErrOtherPurchase) {
		t.Fatalf("another purchase under the lost one's number: %v", err)
	}
	a, err := sql.Account(ctx, "ann", 0)
	if err != nil || len(a.Pending) != 1 {
		t.Fatalf("the store holds %+v, %v", a.Pending, err)
	}
	prize := a.Pending[0].Op.Prize
	if want := s.Balance().Sub(prize); !prize.IsPositive() || !s.Spendable().Equal(want) {
		t.Errorf("spendable %s, balance %s, the unit never shown pays %s: want %s", s.Spendable(), s.Balance(), prize, want)
	}
}
