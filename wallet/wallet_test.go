package wallet

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func sale(unit, prize string) func() (Sale, error) {
	return func() (Sale, error) { return Sale{Unit: unit, Prize: d(prize)}, nil }
}

func TestBuy(t *testing.T) {
	w, err := New(d("10"))
	if err != nil {
		t.Fatal(err)
	}
	op, err := w.Buy(d("0.5"), sale("yams:0.5:1:1", "2.5"))
	if err != nil {
		t.Fatal(err)
	}
	if !op.Before.Equal(d("10")) || !op.After.Equal(d("12")) || op.Seq != 1 || op.Unit != "yams:0.5:1:1" {
		t.Errorf("operation %+v", op)
	}
	op, err = w.Buy(d("3"), sale("vegas:3:1:1", "0"))
	if err != nil {
		t.Fatal(err)
	}
	if op.Seq != 2 || !op.Before.Equal(d("12")) || !op.After.Equal(d("9")) || op.Unit != "vegas:3:1:1" {
		t.Errorf("second operation %+v", op)
	}
	if !w.Balance().Equal(d("9")) {
		t.Errorf("balance %s, want 9", w.Balance())
	}
	tot := w.Totals()
	if tot.Played != 2 || !tot.Staked.Equal(d("3.5")) || !tot.Won.Equal(d("2.5")) || !tot.Net.Equal(d("-1")) {
		t.Errorf("totals %+v", tot)
	}
	if w.Seq() != 2 {
		t.Errorf("last purchase %d, want 2", w.Seq())
	}
}

// TestBuyRefusesShortBalance checks a short balance draws nothing and changes
// nothing.
func TestBuyRefusesShortBalance(t *testing.T) {
	w, _ := New(d("2.99"))
	called := false
	_, err := w.Buy(d("3"), func() (Sale, error) { called = true; return Sale{}, nil })
	if !errors.Is(err, ErrShort) || called {
		t.Fatalf("err %v, sell called %v", err, called)
	}
	_, err = w.Buy(d("1"), func() (Sale, error) { return Sale{}, errors.New("no block") })
	if err == nil || !w.Balance().Equal(d("2.99")) || w.Totals().Played != 0 || w.Seq() != 0 {
		t.Errorf("a failed sale changed the wallet: %v %s", err, w.Balance())
	}
	if _, err := w.Buy(d("0"), sale("x", "0")); err == nil {
		t.Error("a zero stake was taken")
	}
	if _, err := w.Buy(d("1"), sale("x", "-1")); err == nil || !w.Balance().Equal(d("2.99")) {
		t.Error("a negative prize was taken")
	}
}

func TestNew(t *testing.T) {
	for _, b := range []string{"-1", "1.001"} {
		if _, err := New(d(b)); err == nil {
			t.Errorf("New(%s) accepted it", b)
		}
		if _, err := Restore(d(b), 1); err == nil {
			t.Errorf("Restore(%s) accepted it", b)
		}
	}
	if _, err := Restore(d("1"), -1); err == nil || err.Error() != "wallet: purchase number -1 is negative" {
		t.Errorf("a negative purchase number: %v", err)
	}
}

// TestConcurrentBuys buys from many goroutines (run with -race): the balance
// is the start minus stakes plus prizes, never negative, every unit once.
func TestConcurrentBuys(t *testing.T) {
	w, _ := New(d("50"))
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		ops []Operation
	)
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				prize := "0"
				if i%4 == 0 {
					prize = "1.5"
				}
				op, err := w.Buy(d("0.5"), sale(fmt.Sprintf("%d:%d", g, i), prize))
				if err != nil && !errors.Is(err, ErrShort) {
					t.Error(err)
				}
				if err == nil {
					mu.Lock()
					ops = append(ops, op)
					mu.Unlock()
				}
				if w.Balance().IsNegative() {
					t.Error("negative balance")
				}
			}
		})
	}
	wg.Wait()
	tot := w.Totals()
	if want := d("50").Sub(tot.Staked).Add(tot.Won); !w.Balance().Equal(want) {
		t.Errorf("balance %s, want %s", w.Balance(), want)
	}
	seen, seqs := map[string]bool{}, map[int]bool{}
	for _, op := range ops {
		if seqs[op.Seq] {
			t.Fatalf("purchase number %d given twice", op.Seq)
		}
		seqs[op.Seq] = true
		if seen[op.Unit] {
			t.Fatalf("unit %s settled twice", op.Unit)
		}
		seen[op.Unit] = true
		if !op.After.Equal(op.Before.Sub(op.Stake).Add(op.Prize)) || op.After.IsNegative() {
			t.Fatalf("operation %+v", op)
		}
	}
	if len(seen) != tot.Played || w.Seq() != tot.Played {
		t.Errorf("%d operations, last number %d, for %d purchases", len(seen), w.Seq(), tot.Played)
	}
}

func TestFormat(t *testing.T) {
	cases := []struct{ amount, lang, want string }{
		{"2.5", "fr", "2,50 €"},
		{"2.5", "en", "€2.50"},
		{"0", "en", "€0.00"},
		{"40000", "fr", "40 000,00 €"},
		{"40000", "en", "€40,000.00"},
		{"1234567.891", "en", "€1,234,567.89"},
		{"-1", "en", "-€1.00"},
		{"-1", "fr", "-1,00 €"},
		{"100", "en", "€100.00"},
	}
	for _, c := range cases {
		if got := Format(d(c.amount), c.lang); got != c.want {
			t.Errorf("Format(%s, %s) = %q, want %q", c.amount, c.lang, got, c.want)
		}
	}
}

func TestRestore(t *testing.T) {
	w, err := Restore(d("12.5"), 3)
	if err != nil {
		t.Fatal(err)
	}
	op, _ := w.Buy(d("1"), sale("d", "0"))
	if op.Seq != 4 || !op.Before.Equal(d("12.5")) || !w.Balance().Equal(d("11.5")) || w.Totals().Played != 1 {
		t.Errorf("op %+v, totals %+v", op, w.Totals())
	}
}

func TestNumber(t *testing.T) {
	for _, c := range []struct {
		n      string
		places int32
		lang   string
		want   string
	}{
		{"700000", 0, "fr", "700 000"}, {"700000", 0, "en", "700,000"}, {"8.6956", 1, "fr", "8,7"},
		{"8.6956", 1, "en", "8.7"}, {"-1234.5", 2, "en", "-1,234.50"}, {"999", 0, "fr", "999"},
	} {
		if got := Number(d(c.n), c.places, c.lang); got != c.want {
			t.Errorf("Number(%s, %d, %s) = %q, want %q", c.n, c.places, c.lang, got, c.want)
		}
	}
}

// TestDeposit credits the balance, not the totals nor the purchase
// numbers, and refuses a negative amount or one finer than the cent.
func TestDeposit(t *testing.T) {
	w, _ := Restore(d("1"), 4)
	if err := w.Deposit(d("2.5")); err != nil {
		t.Fatal(err)
	}
	if !w.Balance().Equal(d("3.5")) || w.Seq() != 4 || w.Totals().Played != 0 || !w.Totals().Staked.IsZero() {
		t.Errorf("balance %s, purchase %d, totals %+v", w.Balance(), w.Seq(), w.Totals())
	}
	for _, bad := range []string{"-1", "0.001"} {
		if err := w.Deposit(d(bad)); err == nil || !w.Balance().Equal(d("3.5")) {
			t.Errorf("deposit %s: %v, balance %s", bad, err, w.Balance())
		}
	}
}
