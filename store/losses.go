package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// LossWindow is how far back a loss limit looks: a rolling day.
const LossWindow = 24 * time.Hour

// lossBatch is how many purchases a window's scan reads at a time, from
// the newest back.
const lossBatch = 256

// LossLimitError is a purchase refused because, its stake lost, the
// account's net loss over the last LossWindow would pass its limit:
// nothing was sold.
type LossLimitError struct {
	Limit decimal.Decimal // the limit, in euros
	Loss  decimal.Decimal // the account's net loss over the window
	// Until is the earliest time the purchase will be possible again: when,
	// purchases rolling out of the window, the net loss leaves room under
	// Limit for its stake.
	Until time.Time
	// None is true when no purchase of any game and stake is possible
	// now (the smallest stake the emission sells is refused too); First
	// is then when the first one will be: the smallest stake's Until.
	None  bool
	First time.Time
}

func (e *LossLimitError) Error() string {
	return fmt.Sprintf("loss limit %s reached (net loss %s over %s): purchases again from %s",
		e.Limit.StringFixed(2), e.Loss.StringFixed(2), LossWindow, e.Until.Format(time.RFC3339))
}

// Spent is one purchase as a loss limit counts it.
type Spent struct {
	At   time.Time  // when it was bought, by the store's clock
	Loss game.Cents // its stake less its prize: negative for a win
}

// Spending is an account's purchases over a window that ends at Now.
type Spending struct {
	// Now is the store's clock when they were read: PostgreSQL's on
	// PostgreSQL, the clock that times its sales; the seller's on SQLite.
	Now    time.Time
	Window time.Duration
	// Purchases are those bought after Now less Window, newest first.
	Purchases []Spent
}

// NetLoss returns what the account lost over the window: its stakes less
// its prizes (negative when it won more than it staked).
func (sp Spending) NetLoss() decimal.Decimal { return sp.Losses().sum.Decimal() }

// Losses returns the purchases read, as a loss limit keeps counting them.
func (sp Spending) Losses() *Losses {
	l := &Losses{spent: make([]Spent, 0, len(sp.Purchases))}
	for i := len(sp.Purchases) - 1; i >= 0; i-- {
		l.Add(sp.Purchases[i])
	}
	return l
}

// Losses is an account's purchases over the last LossWindow as a loss limit
// counts them, oldest first, with their sum (Spending.Losses): Check says
// when a refused purchase may be made again, the oldest dropping out as
// time passes.
type Losses struct {
	spent []Spent
	sum   game.Cents
}

// Add counts a purchase just made.
func (l *Losses) Add(p Spent) {
	l.spent = append(l.spent, p)
	l.sum += p.Loss
}

// Check returns a *LossLimitError when a purchase at stake, made at now,
// could take the account's net loss over the window past limit (its
// stake lost, the loss would exceed it); nil when it may be made. The
// purchases bought LossWindow before now or earlier are dropped first.
// The error's Until is the earliest time the purchase may be made, the
// oldest purchases rolling out and no new one made.
func (l *Losses) Check(now time.Time, limit, stake decimal.Decimal) error {
	n := 0
	for n < len(l.spent) && !l.spent[n].At.After(now.Add(-LossWindow)) {
		l.sum -= l.spent[n].Loss
		n++
	}
	l.spent = l.spent[n:]
	loss := l.sum.Decimal()
	if withinLimit(loss, stake, limit) {
		return nil
	}
	e := &LossLimitError{Limit: limit, Loss: loss, Until: now.Add(LossWindow)}
	left := loss
	for _, p := range l.spent {
		left = left.Sub(p.Loss.Decimal())
		if withinLimit(left, stake, limit) {
			e.Until = p.At.Add(LossWindow)
			break
		}
	}
	return e
}

// Spending reads an account's purchases bought within window of now, now
// being the store's clock: it scans them by the purchases' key (account,
// number) from the newest back, a batch at a time, and stops at the first
// one bought window ago or earlier.
func (s *SQL) Spending(ctx context.Context, account string, window time.Duration) (Spending, error) {
	return s.spending(ctx, account, window, lossBatch)
}

// spending is Spending, reading batch purchases at a time.
func (s *SQL) spending(ctx context.Context, account string, window time.Duration, batch int) (Spending, error) {
	now, err := s.dbNow(ctx)
	if err != nil {
		return Spending{}, err
	}
	sp := Spending{Now: now, Window: window}
	since := now.Add(-window).UnixNano()
	upTo := int64(math.MaxInt32) // the batch reads the purchases numbered up to it (an INTEGER)
	for {
		n, last, done, err := s.spentBatch(ctx, account, upTo, since, batch, &sp)
		if err != nil {
			return Spending{}, fmt.Errorf("store: reading account %q's purchases of the last %s: %w", account, window, err)
		}
		if done || n < batch {
			return sp, nil
		}
		upTo = last - 1
	}
}

// spentQuery reads a batch of an account's purchases, newest first.
const spentQuery = `SELECT number, at, stake_cents - prize FROM purchases
	WHERE account = $1 AND number <= $2 ORDER BY number DESC LIMIT $3`

// spentBatch reads into sp the next batch (at most batch rows) of an account's purchases
// numbered up to upTo, newest first, up to the first bought at since or
// earlier. It returns how many rows it read, the last one's number, and
// whether it met that older purchase.
func (s *SQL) spentBatch(ctx context.Context, account string, upTo, since int64, batch int, sp *Spending) (n int, last int64, done bool, err error) {
	rows, err := s.db.QueryContext(ctx, s.engine.q(spentQuery), account, upTo, batch)
	if err != nil {
		return 0, 0, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var at, loss int64
		if err := rows.Scan(&last, &at, &loss); err != nil {
			return n, last, false, err
		}
		n++
		if at <= since {
			return n, last, true, nil
		}
		sp.Purchases = append(sp.Purchases, Spent{At: time.Unix(0, at).UTC(), Loss: game.Cents(loss)})
	}
	return n, last, false, rows.Err()
}

// errOverLimit is a purchase its loss limit refuses, in its transaction:
// rolled back, and lossLimitError says until when.
var errOverLimit = errors.New("over the loss limit")

// lossQuery sums an account's net loss since a time, by the index of its
// purchases' times.
const lossQuery = `SELECT COALESCE(SUM(stake_cents - prize), 0) FROM purchases WHERE account = $1 AND at > $2`

// underLimit returns errOverLimit when a purchase's stake, lost, would
// take its account's net loss over the window ending at now past the
// purchase's limit; nil when there is none. It runs in the purchase's
// transaction once the account's row is locked (the debit's), so that
// no other sale of the account, by any seller, comes between.
func (s *SQL) underLimit(ctx context.Context, r runner, p Purchase, stake game.Cents, now time.Time) error {
	if !p.LossLimit.IsPositive() {
		return nil
	}
	var loss int64
	if err := r.row(ctx, lossQuery, p.Account, now.Add(-LossWindow).UnixNano()).Scan(&loss); err != nil {
		return fmt.Errorf("store: reading account %q's net loss: %w", p.Account, err)
	}
	if overLimit(p, game.Cents(loss), stake) {
		return errOverLimit
	}
	return nil
}

// lossLimitError says why and until when the loss limit refused a
// purchase: from the account's purchases in the window, read again.
func (s *SQL) lossLimitError(ctx context.Context, p Purchase, stake decimal.Decimal) error {
	sp, err := s.Spending(ctx, p.Account, LossWindow)
	if err != nil {
		return err
	}
	if err := sp.Losses().Check(sp.Now, p.LossLimit, stake); err != nil {
		e, _ := IsLossLimit(err)
		least := s.emission.leastStake()
		if first, _ := IsLossLimit(sp.Losses().Check(sp.Now, p.LossLimit, least)); first != nil {
			e.None, e.First = true, first.Until
		}
		return e
	}
	// Purchases rolled out of the window meanwhile: the next try may pass.
	return &LossLimitError{Limit: p.LossLimit, Loss: sp.NetLoss(), Until: sp.Now}
}

// IsLossLimit reports whether err is a purchase refused by a loss limit,
// and returns it.
func IsLossLimit(err error) (*LossLimitError, bool) {
	var e *LossLimitError
	ok := errors.As(err, &e)
	return e, ok
}
