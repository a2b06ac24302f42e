package store

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
)

func TestSQLiteLossWindow(t *testing.T) {
	now := time.Date(2026, 11, 30, 18, 0, 0, 0, time.UTC)
	s, _ := openSQLite(t, Options{Seed: 3, SeedSet: true, Tables: SmallTables, Now: func() time.Time { return now }})
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
		if _, err := s.db.ExecContext(ctx, s.dialect.q(`UPDATE purchases SET at = $1, stake_cents = $2, prize = $3 WHERE account = $4 AND number = $5`),
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
}
