package server

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/store"
	"tapis/wallet"
)

// TestLossWindows: the window kept for an account refuses a purchase that
// could take its loss past the limit and says until when, counts the
// purchases made since (a retry once), and lets the oldest go as time
// passes, all without the store.
func TestLossWindows(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	now := t0.Add(2 * time.Hour)
	w := newLossWindows()
	w.now = func() time.Time { return now }
	w.accounts["ann"] = store.Spending{Purchases: []store.Spent{{At: t0.Add(time.Hour), Loss: 200}, {At: t0, Loss: 300}}}.Losses()
	limit, stake := decimal.NewFromInt(6), decimal.NewFromInt(2)
	err := w.check(context.Background(), nil, "ann", limit, stake)
	e, ok := store.IsLossLimit(err)
	if !ok || !e.Loss.Equal(decimal.NewFromInt(5)) || !e.Until.Equal(t0.Add(store.LossWindow)) {
		t.Fatalf("5 € lost, a 2 € stake against a 6 € limit: %v", err)
	}
	// A win (stake 1 €, prize 3 €) brings the loss to 3 €.
	w.add("ann", store.Receipt{Op: wallet.Operation{Stake: decimal.NewFromInt(1), Prize: decimal.NewFromInt(3)}, At: now})
	if err := w.check(context.Background(), nil, "ann", limit, stake); err != nil {
		t.Fatalf("3 € lost, a 2 € stake: %v", err)
	}
	// A retry is counted once: still 3 € lost, and 3 + 2 is within 5 €.
	w.add("ann", store.Receipt{Op: wallet.Operation{Stake: decimal.NewFromInt(1)}, At: now, Again: true})
	if err := w.check(context.Background(), nil, "ann", decimal.NewFromInt(5), stake); err != nil {
		t.Fatalf("after a retry: %v", err)
	}
	// A day after the first purchase it has left the window: 0 € lost.
	now = t0.Add(store.LossWindow)
	if err := w.check(context.Background(), nil, "ann", decimal.NewFromInt(2), stake); err != nil {
		t.Fatalf("0 € lost in the window: %v", err)
	}
	w.forget("ann")
	if _, ok := w.accounts["ann"]; ok {
		t.Fatal("a forgotten account's window is kept")
	}
}
