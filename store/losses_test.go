package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
)

func TestSQLiteLossWindow(t *testing.T) {
	now := time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(3), SeedSet: true, Tables: SmallTables, Now: func() time.Time { return now }})
	lossWindow(t, s)
}

// lossWindow sells an account six units, then sets when each was bought
// and what it lost (stake less prize), around the store's clock: the
// window counts the last 24 hours only, reading the purchases a few at a
// time or all at once, and the loss limit refuses with the time the
// oldest purchases roll out.
func lossWindow(t *testing.T, s *SQL) {
	ctx := context.Background()
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	if err := s.Deposit(ctx, "bob", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 6; n++ {
		if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Sell(ctx, Purchase{Account: "bob", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	now, err := s.dbNow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Each purchase: how long before now, its stake and its prize in cents.
	rows := []struct {
		ago          time.Duration
		stake, prize int64
	}{
		{30 * time.Hour, 5000, 0},  // out of the window
		{23 * time.Hour, 400, 0},   // 4 € lost
		{20 * time.Hour, 100, 400}, // 3 € won
		{10 * time.Hour, 600, 0},   // 6 € lost
		{2 * time.Hour, 500, 0},    // 5 € lost
		{time.Hour, 200, 100},      // 1 € lost
	}
	for i, r := range rows {
		if _, err := s.db.ExecContext(ctx, s.engine.q(`UPDATE purchases SET at = $1, stake_cents = $2, prize = $3 WHERE account = $4 AND number = $5`),
			now.Add(-r.ago).UnixNano(), r.stake, r.prize, "ann", i+1); err != nil {
			t.Fatal(err)
		}
	}
	eur := func(s string) decimal.Decimal { return decimal.RequireFromString(s) }
	for _, batch := range []int{2, 5, lossBatch} {
		sp, err := s.spending(ctx, "ann", LossWindow, batch)
		if err != nil {
			t.Fatal(err)
		}
		if len(sp.Purchases) != 5 || !sp.NetLoss().Equal(eur("13")) {
			t.Errorf("batch %d: %d purchases losing %s in the window, want 5 losing 13", batch, len(sp.Purchases), sp.NetLoss())
		}
		if got, want := sp.Purchases[0].At, now.Add(-time.Hour); !got.Equal(want) {
			t.Errorf("batch %d: newest bought at %s, want %s", batch, got, want)
		}
	}
	sp, err := s.Spending(ctx, "ann", LossWindow)
	if err != nil {
		t.Fatal(err)
	}
	// A purchase may be made while, its stake lost, the loss stays within
	// the limit; refused, it says when the oldest purchases will have
	// rolled out enough.
	for _, c := range []struct {
		limit, stake string
		until        time.Duration // after the purchase's now; 0: allowed now
	}{
		{"14", "1", 0},
		{"13", "1", time.Hour},         // the 4 € of 23 h ago roll out: 9 € lost, 10 € with the stake
		{"10", "1", time.Hour},         // likewise
		{"9", "1", 14 * time.Hour},     // then the 3 € won leave too (12 €), then the 6 € (6 €, 7 € with the stake)
		{"7", "1", 14 * time.Hour},     // exactly the limit: allowed
		{"6.99", "1", 22 * time.Hour},  // the 5 € of 2 h ago must go
		{"0.5", "0.5", 23 * time.Hour}, // all of it
	} {
		err := sp.Losses().Check(sp.Now, eur(c.limit), eur(c.stake))
		if c.until == 0 {
			if err != nil {
				t.Errorf("limit %s, stake %s: %v", c.limit, c.stake, err)
			}
			continue
		}
		e, ok := IsLossLimit(err)
		if want := now.Add(c.until); !ok || !e.Until.Equal(want) || !e.Loss.Equal(eur("13")) || !e.Limit.Equal(eur(c.limit)) {
			t.Errorf("limit %s, stake %s: %v, want a LossLimitError until %s", c.limit, c.stake, err, want)
		}
	}
	// Purchases added as they are made count; the oldest leave as time
	// passes.
	l := sp.Losses()
	l.Add(Spent{At: sp.Now, Loss: -1300}) // a 13 € win
	if err := l.Check(sp.Now, eur("1"), eur("1")); err != nil {
		t.Errorf("after a 13 € win: %v", err)
	}
	// 23 h later the others have gone and the win still counts; a day
	// after it, it has gone too, and a 1 € stake passes a 0,50 € limit.
	if err := l.Check(sp.Now.Add(23*time.Hour), eur("0.5"), eur("1")); err != nil {
		t.Errorf("23 h later, 13 € won in the window: %v", err)
	}
	if err := l.Check(sp.Now.Add(LossWindow), eur("0.5"), eur("1")); err == nil {
		t.Error("a day after the win, nothing in the window: a 1 € stake passed a 0,50 € limit")
	}
	bob, err := s.Spending(ctx, "bob", LossWindow)
	if err != nil {
		t.Fatal(err)
	}
	if err := bob.Losses().Check(bob.Now, eur("2"), eur("1")); err != nil { // 1 € staked at most lost: ann's are not his
		t.Errorf("bob, limit 2 €: %v", err)
	}
	empty, err := s.Spending(ctx, "carl", LossWindow)
	if err != nil || len(empty.Purchases) != 0 || !empty.NetLoss().IsZero() {
		t.Errorf("an account with no purchase: %+v, %v", empty, err)
	}
	// The store checks a purchase's limit in its transaction: refused, it
	// sells nothing and says until when; within the limit, it sells.
	ann := Purchase{Account: "ann", Number: 7, Game: lottery.Yams(), Stake: eur("2"), LossLimit: eur("14")}
	_, err = s.Sell(ctx, ann)
	if e, ok := IsLossLimit(err); !ok || !e.Loss.Equal(eur("13")) || !e.Until.Equal(now.Add(time.Hour)) || e.None {
		t.Errorf("13 € lost, a 2 € stake, a 14 € limit: %v (none possible: %v), want refused until %s, a 0,50 € stake possible", err, ok && e.None, now.Add(time.Hour))
	}
	// Past the smallest stake the emission sells, no purchase is possible:
	// the error says when the first one will be, no later than this one.
	_, err = s.Sell(ctx, Purchase{Account: "ann", Number: 7, Game: lottery.Yams(), Stake: eur("2"), LossLimit: eur("13.2")})
	if e, ok := IsLossLimit(err); !ok || !e.None || e.First.IsZero() || e.First.After(e.Until) {
		t.Errorf("13 € lost, a 13,20 € limit: %+v, want no purchase possible before a time", e)
	}
	if a, err := s.Account(ctx, "ann", 0); err != nil || a.Purchases != 6 {
		t.Errorf("refused, the account has made %d purchases (%v), want 6", a.Purchases, err)
	}
	ann.Stake = eur("1")
	if _, err := s.Sell(ctx, ann); err != nil {
		t.Errorf("13 € lost, a 1 € stake, a 14 € limit: %v", err)
	}
}

func TestSQLiteLossLimitAcrossSellers(t *testing.T) {
	_, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(4), SeedSet: true, Tables: rareWins})
	lossLimitAcrossSellers(t, url)
}

func TestPostgresLossLimitAcrossSellers(t *testing.T) {
	_, url := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(4), SeedSet: true, Tables: rareWins})
	lossLimitAcrossSellers(t, url)
}

// rareWins are SmallTables's lots in blocks of 60 000: a few hundred
// purchases mostly lose, and reach a loss limit.
func rareWins(g lottery.Game, stake decimal.Decimal) (*game.Table, error) {
	t, err := SmallTables(g, stake)
	if t != nil {
		t.Units = 60_000
	}
	return t, err
}

// lossLimitAcrossSellers: two stores on one database (two servers) sell
// to one account at once, each following the account's next number, with
// a 10 € limit: the account never loses more than 10 € over the window,
// whichever store sold what.
func lossLimitAcrossSellers(t *testing.T, url string) {
	ctx := context.Background()
	limit := decimal.NewFromInt(10)
	refused := make(chan int, 2)
	var wg sync.WaitGroup
	for range 2 {
		s, err := Open(ctx, url, Options{Key: ledger.PublicTestKey()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(1000)); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			n := 0
			for range 150 {
				a, err := s.Account(ctx, "ann", 0)
				if err != nil {
					t.Error(err)
					return
				}
				_, err = s.Sell(ctx, Purchase{Account: "ann", Number: a.Purchases + 1, Game: lottery.Yams(),
					Stake: decimal.NewFromInt(1), LossLimit: limit})
				if _, ok := IsLossLimit(err); ok {
					n++
				} else if err != nil && !errors.Is(err, ErrOutOfTurn) && !errors.Is(err, ErrOtherPurchase) {
					t.Error(err)
					return
				}
			}
			refused <- n
		})
	}
	wg.Wait()
	close(refused)
	n := 0
	for r := range refused {
		n += r
	}
	s, err := Open(ctx, url, Options{Key: ledger.PublicTestKey(), Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sp, err := s.Spending(ctx, "ann", LossWindow)
	if err != nil {
		t.Fatal(err)
	}
	// Every purchase, in the order made, found the account within the
	// limit with its stake lost.
	var loss game.Cents
	for i := len(sp.Purchases) - 1; i >= 0; i-- {
		if (loss + 100).Decimal().GreaterThan(limit) {
			t.Fatalf("purchase %d made with %s lost, past the 10 € limit", len(sp.Purchases)-i, loss.Decimal())
		}
		loss += sp.Purchases[i].Loss
	}
	if n == 0 {
		t.Errorf("%d purchases, %s lost: none refused", len(sp.Purchases), sp.NetLoss())
	}
	t.Logf("%d purchases, %d refused, %s lost", len(sp.Purchases), n, sp.NetLoss())
}
