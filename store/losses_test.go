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
	for _, c := range []struct {
		limit string
		until time.Duration // after the purchase's now; 0: allowed now
	}{
		{"14", 0},
		{"13", time.Hour},     // the 4 € of 23 h ago roll out: 9 € lost
		{"10", time.Hour},     // likewise
		{"9", 14 * time.Hour}, // then the 3 € won leave too (12 €), then the 6 € (6 €)
		{"6.01", 14 * time.Hour},
		{"6", 22 * time.Hour},   // 6 € is not below 6 €: the 5 € of 2 h ago must go
		{"0.5", 23 * time.Hour}, // all of it

	} {
		limit := eur(c.limit)
		want := sp.Now
		if c.until > 0 {
			want = now.Add(c.until) // the purchases' times were set from now
		}
		if got := sp.Until(limit); !got.Equal(want) {
			t.Errorf("limit %s: purchases again at %s, want %s", c.limit, got, want)
		}
	}
	err = s.CheckLossLimit(ctx, "ann", eur("10"))
	e, ok := IsLossLimit(err)
	if !ok || !e.Loss.Equal(eur("13")) || !e.Limit.Equal(eur("10")) || !e.Until.Equal(now.Add(time.Hour)) {
		t.Fatalf("limit 10 € after losing 13 €: %v, want a LossLimitError until %s", err, now.Add(time.Hour))
	}
	if err := s.CheckLossLimit(ctx, "ann", eur("13.01")); err != nil {
		t.Errorf("limit 13.01 € after losing 13 €: %v", err)
	}
	if err := s.CheckLossLimit(ctx, "bob", eur("1.01")); err != nil { // 1 € staked at most lost: ann's are not his
		t.Errorf("bob, limit 1.01 €: %v", err)
	}
	empty, err := s.Spending(ctx, "carl", LossWindow)
	if err != nil || len(empty.Purchases) != 0 || !empty.NetLoss().IsZero() {
		t.Errorf("an account with no purchase: %+v, %v", empty, err)
	}
}
