// Package store keeps an emission and the accounts that buy from it: one
// interface for every place a session's sales are made and kept, whatever
// holds them. The memory and journal backend is package store/journal (one
// process, one account); this package's SQL backend keeps an emission in
// SQLite (many processes on one machine) or PostgreSQL (many machines).
//
// The unit of serial n of a block is fixed by the block's seed alone, so a
// store only allocates serials: every seller deals the lot and layout of a
// serial itself, from the block's draw order (game.DrawOrder).
package store

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/wallet"
)

// Store is where a session buys and what it keeps: the emission's blocks,
// the accounts, their purchases. Its methods may be called from several
// goroutines. Each purchase is one atomic operation: the serial allocated,
// the stake debited and the prize credited, the unit and its layout
// recorded, or none of it.
type Store interface {
	// Sell sells the next unit of a game and stake to an account (or the
	// forced unit p.Force), exactly once for each (account, number): a
	// purchase retried with the number of one already made returns that
	// purchase, with Receipt.Again set, and sells nothing.
	Sell(ctx context.Context, p Purchase) (Receipt, error)
	// Shown records that an account's unit was fully revealed.
	Shown(ctx context.Context, account string, unit lottery.Ref) error
	// Deposit credits an account, creating it if it does not exist (the
	// demo's and a new player's money).
	Deposit(ctx context.Context, account string, amount decimal.Decimal) error
	// Account returns an account as the store holds it, with its last
	// recent purchases; ErrNoAccount if there is none of that name.
	Account(ctx context.Context, name string, recent int) (Account, error)
	// Block returns where the block a game and stake sell next stands.
	Block(ctx context.Context, seq game.SeqKey) (BlockStatus, error)
	// Revealed returns the blocks sold out so far and their seeds.
	Revealed(ctx context.Context) ([]Reveal, error)
	// Close lets the store go.
	Close() error
}

// Purchase is a purchase asked of the store.
type Purchase struct {
	Account string
	Number  int // the account's purchase number, from 1: with Account, the purchase's identity
	Game    lottery.Game
	Stake   decimal.Decimal
	Force   *lottery.Force // a forced (QA, demo) unit, that comes from no block; nil for a real one
	Label   string         // the forced unit's label: QA or DEMO
	// Shown are units of the account fully revealed since its last
	// purchase, marked shown in this purchase's transaction: a shown
	// record rides with the next purchase instead of costing one of its own.
	Shown []lottery.Ref
	// Attempt is a token the seller draws once for the account's purchase
	// number and keeps for its retries: a purchase of that number made
	// under another token, another seller's, is not returned as this
	// one's (ErrOtherPurchase). Empty matches any.
	Attempt string
	// LossLimit refuses the purchase (a *LossLimitError) when, its stake
	// lost, the account's net loss over the last LossWindow would pass
	// it: checked in the purchase's transaction, against every purchase
	// of the account, whoever sold it. Zero: no limit.
	LossLimit decimal.Decimal
	// Lease is the token of the seller's lease of the account
	// (Lease.Token): the purchase is refused (ErrLeaseLost) if another
	// seller has taken the account since. Empty: a seller under no lease.
	Lease string
}

// ID returns the purchase's identity, ACCOUNT#NUMBER.
func (p Purchase) ID() string { return PurchaseID(p.Account, p.Number) }

// PurchaseID writes the identity of an account's purchase.
func PurchaseID(account string, number int) string {
	return account + "#" + strconv.Itoa(number)
}

// Receipt is a purchase as the store made it.
type Receipt struct {
	Op    wallet.Operation // number, unit's name, stake, prize, balances
	Sold  lottery.Sold     // the unit and its layout
	At    time.Time        // when it was made, by the store's clock
	Shown bool             // the unit was fully revealed
	Again bool             // a retry: the purchase was made before, and is returned as it was
	// Signed is the purchase's receipt, signed by the house: what the
	// player keeps. Nil from a store that signs nothing (the memory's).
	Signed *ledger.Receipt
}

// Account is a player's account as the store holds it.
type Account struct {
	Name      string
	Balance   decimal.Decimal // prizes of units not shown yet included
	Deposited decimal.Decimal // every deposit, the first included: Balance - Deposited is the net result
	Purchases int             // the purchases made, the number of the last one
	Guest     bool            // a guest's (serve's keyless player): removed while it has bought nothing
	Pending   []Receipt       // the units bought and never shown, oldest first
	Recent    []Receipt       // the last purchases, oldest first
}

// Reveal is a block sold out and its seed, published once its last unit
// is sold: anyone can deal its units again and check its commitment.
type Reveal struct {
	Block game.BlockID
	Seed  string // the block's seed, 32 bytes in lowercase hex
}

// BlockStatus is where the block a game and stake sell next stands: a copy,
// that the sales after it do not change.
type BlockStatus struct {
	Number     int64
	Sold       int64
	Remaining  int64
	Left       []int64 // units left by lot (tier)
	Losing     int     // the losing lot's tier
	Commitment [32]byte
}

// ErrNoAccount is returned for an account the store does not hold.
var ErrNoAccount = errors.New("no such account")

// ErrOtherPurchase is returned when a purchase is retried with the number
// of another purchase of the account: another game or stake.
var ErrOtherPurchase = errors.New("the account's purchase of that number was another")

// ErrOutOfTurn is returned for a purchase whose number is not the
// account's next: another seller buys for the same account.
var ErrOutOfTurn = errors.New("the purchase number is not the account's next")
