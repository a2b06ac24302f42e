package server

import (
	"context"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/store"
)

// lossWindows keeps, for each account playing on this server, its
// purchases of the last store.LossWindow as the loss limit counts them
// (store.Losses): read from the store once, when the account's first
// purchase is checked, then kept up to date with its purchases here (an
// account plays in one session at a time), so that a purchase's check
// costs no store call.
type lossWindows struct {
	mu       sync.Mutex
	accounts map[string]*store.Losses
	now      func() time.Time
}

func newLossWindows() *lossWindows {
	return &lossWindows{accounts: map[string]*store.Losses{}, now: time.Now}
}

// check returns a *store.LossLimitError when a purchase at stake could
// take the account's net loss over the window past limit, nil when it may
// be made.
func (w *lossWindows) check(ctx context.Context, st *store.SQL, account string, limit, stake decimal.Decimal) error {
	w.mu.Lock()
	l, ok := w.accounts[account]
	w.mu.Unlock()
	if !ok {
		read, err := st.Spending(ctx, account, store.LossWindow)
		if err != nil {
			return err
		}
		w.mu.Lock()
		if l, ok = w.accounts[account]; !ok {
			l = read.Losses()
			w.accounts[account] = l
		}
		w.mu.Unlock()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return l.Check(w.now(), limit, stake)
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
	if l, ok := w.accounts[account]; ok {
		l.Add(store.Spent{At: r.At, Loss: stake - prize})
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
