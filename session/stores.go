package session

import (
	"context"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/store"
	"tapis/wallet"
)

// What only some stores do, asked of the store by what it can do, never
// by what it is: each is met by the store that has it (store.SQL or
// journal.Store) and left alone otherwise.

// GuestOpener is a store that keeps guests' accounts: opened marked a
// guest's, and forgotten while they bought nothing (store.SQL).
type GuestOpener interface {
	OpenGuest(ctx context.Context, name string, balance decimal.Decimal) (bool, error)
	ForgetGuest(ctx context.Context, name string) (bool, error)
}

// accountOpener is a store that creates an account only if it does not
// exist, in one operation (store.SQL): sellers opening it at once credit
// it once.
type accountOpener interface {
	OpenAccount(ctx context.Context, name string, balance decimal.Decimal) (bool, error)
}

// accountHolder is a store that holds an account for a session and reads
// it, creating it when new, in one call (store.SQL): store.Holder's Hold,
// then the reads, in the store's fewest round trips.
type accountHolder interface {
	HoldAccount(ctx context.Context, name string, balance decimal.Decimal, recent int) (*store.Lease, store.Account, bool, error)
}

// shownQueuer is a store that writes shown marks soon, not at once
// (store.SQL): the screen waits for no transaction.
type shownQueuer interface {
	ShownSoon(account string, unit lottery.Ref)
}

// resumer is a store that knows, better than whether the account existed,
// whether it took up an earlier run when it opened (journal.Store: a
// journal that held one), and what reading it had to say.
type resumer interface {
	Resumed() (resumed bool, note string, torn int)
}

// lineKeeper is a store that records each purchase on a line of its own
// (journal.Store) and tells which, for the units it still keeps: the
// history shows it.
type lineKeeper interface {
	LineOf(unit string) int
}

// restarter is a store that can give its account a fresh wallet, the shop
// going on where it was (journal.Store, in memory): the kiosk's next
// visitor.
type restarter interface {
	Restart(balance decimal.Decimal) error
}

// dealer is a store that deals and settles its units in this process,
// from a shop, a wallet and a master seed of its own (journal.Store),
// which QA tools and tests read.
type dealer interface {
	Wallet() *wallet.Wallet
	Shop() *lottery.Shop
	Seed() game.Seed
}

// forgetter is a store that may keep nothing past the process
// (journal.Store: in memory, without a journal).
type forgetter interface {
	Kept() bool
}

// Kept reports whether what the session buys outlives it: a journal on
// disk or a shared store keeps each unit, and one not shown yet waits for
// the next visit; a session in memory forgets everything when it ends.
// The game's quit question says which.
func (s *Session) Kept() bool {
	if f, ok := s.st.(forgetter); ok {
		return f.Kept()
	}
	return true
}
