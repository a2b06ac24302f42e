package server

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/store"
)

// lossWindows keeps, for each account playing on this server, its
// purchases of the last store.LossWindow, as the loss limit counts them:
// read from the store once, when the account's first purchase is checked,
// then kept up to date with its purchases here (an account plays in one
// session at a time), so that a purchase's check costs no store call.
type lossWindows struct {
	mu       sync.Mutex
	accounts map[string]*lossWindow
	now      func() time.Time
}

// lossWindow is one account's purchases in the window, oldest first, and
// the sum of what they lost.
type lossWindow struct {
	spent []store.Spent
	sum   game.Cents
}

func newLossWindows() *lossWindows {
	return &lossWindows{accounts: map[string]*lossWindow{}, now: time.Now}
}

// check returns a *store.LossLimitError when the account's net loss over
// the window has reached limit, nil when a purchase may be made.
func (w *lossWindows) check(ctx context.Context, st *store.SQL, account string, limit decimal.Decimal) error {
	w.mu.Lock()
	lw, ok := w.accounts[account]
	w.mu.Unlock()
	if !ok {
		read, err := st.Spending(ctx, account, store.LossWindow)
		if err != nil {
			return err
		}
		fresh := &lossWindow{spent: slices.Clone(read.Purchases)}
		slices.Reverse(fresh.spent)
		for _, p := range fresh.spent {
			fresh.sum += p.Loss
		}
		w.mu.Lock()
		if lw, ok = w.accounts[account]; !ok {
			lw = fresh
			w.accounts[account] = lw
		}
		w.mu.Unlock()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	// The oldest purchases leave the window as time goes.
	cut := w.now().Add(-store.LossWindow)
	n := 0
	for n < len(lw.spent) && !lw.spent[n].At.After(cut) {
		lw.sum -= lw.spent[n].Loss
		n++
	}
	lw.spent = lw.spent[n:]
	loss := lw.sum.Decimal()
	if loss.LessThan(limit) {
		return nil
	}
	// Until: the purchases roll out oldest first, and no new one is made.
	left := loss
	for _, p := range lw.spent {
		left = left.Sub(p.Loss.Decimal())
		if left.LessThan(limit) {
			return &store.LossLimitError{Limit: limit, Loss: loss, Until: p.At.Add(store.LossWindow)}
		}
	}
	return &store.LossLimitError{Limit: limit, Loss: loss, Until: w.now().Add(store.LossWindow)}
}

// add counts a purchase the account just made, when its window is kept.
func (w *lossWindows) add(account string, r store.Receipt) {
	stake, ok1 := game.CentsOf(r.Op.Stake)
	prize, ok2 := game.CentsOf(r.Op.Prize)
	if !ok1 || !ok2 || r.Again {
		return // a retry was counted when it was made, or read with the window
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if lw, ok := w.accounts[account]; ok {
		lw.spent = append(lw.spent, store.Spent{At: r.At, Loss: stake - prize})
		lw.sum += stake - prize
	}
}

// forget drops an account's window once its session is over: the next
// session reads it again from the store, other servers' purchases
// included.
func (w *lossWindows) forget(account string) {
	w.mu.Lock()
	delete(w.accounts, account)
	w.mu.Unlock()
}
