package server

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/store"
	"tapis/wallet"
)

// TestLossWindows: the window kept for an account counts its purchases of
// the last day, says until when it refuses, counts the purchases made
// since, and lets the oldest go as time passes, all without the store.
func TestLossWindows(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	now := t0.Add(2 * time.Hour)
	w := newLossWindows()
	w.now = func() time.Time { return now }
	w.accounts["ann"] = &lossWindow{spent: []store.Spent{{At: t0, Loss: 300}, {At: t0.Add(time.Hour), Loss: 200}}, sum: 500}
	limit := decimal.NewFromInt(5)
	err := w.check(context.Background(), nil, "ann", limit)
	e, ok := store.IsLossLimit(err)
	if !ok || !e.Loss.Equal(decimal.NewFromInt(5)) || !e.Until.Equal(t0.Add(store.LossWindow)) {
		t.Fatalf("5 € lost against a 5 € limit: %v", err)
	}
	// A win (stake 1 €, prize 3 €) brings the loss to 3 €.
	w.add("ann", store.Receipt{Op: wallet.Operation{Stake: decimal.NewFromInt(1), Prize: decimal.NewFromInt(3)}, At: now})
	if err := w.check(context.Background(), nil, "ann", limit); err != nil {
		t.Fatalf("3 € lost: %v", err)
	}
	// A retry is counted once.
	w.add("ann", store.Receipt{Op: wallet.Operation{Stake: decimal.NewFromInt(1)}, At: now, Again: true})
	if lw := w.accounts["ann"]; len(lw.spent) != 3 || lw.sum != 300 {
		t.Fatalf("after a retry: %d purchases, %d cents", len(lw.spent), lw.sum)
	}
	// A day after the first purchase, it has left the window.
	now = t0.Add(store.LossWindow)
	if err := w.check(context.Background(), nil, "ann", decimal.NewFromInt(1)); err != nil {
		t.Fatalf("0 € lost in the window: %v", err)
	}
	if lw := w.accounts["ann"]; len(lw.spent) != 2 || lw.sum != 0 {
		t.Fatalf("a day later: %d purchases, %d cents", len(lw.spent), lw.sum)
	}
	w.forget("ann")
	if _, ok := w.accounts["ann"]; ok {
		t.Fatal("a forgotten account's window is kept")
	}
}
