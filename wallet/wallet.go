// Package wallet keeps the player's money: a balance in euros, exact to the
// cent, that buying a unit debits by its stake and credits by its prize in one
// operation (ruling G3), and the totals of those operations. The units
// bought are the session's to keep (session.Session.Recent).
package wallet

import (
	"errors"
	"fmt"
	"sync"

	"github.com/shopspring/decimal"
)

// ErrShort is returned when the balance does not cover the stake.
var ErrShort = errors.New("balance too low for this stake")

// Sale is what the engine sold: the unit's identity, whether it was forced
// (QA, demo; ruling G6), and its prize, fixed at purchase (art. 4.1).
type Sale struct {
	Unit   string
	Forced bool
	Prize  decimal.Decimal
}

// Operation is one purchase as the wallet recorded it.
type Operation struct {
	Seq    int // 1 for the session's first purchase
	Unit   string
	Forced bool
	Stake  decimal.Decimal
	Prize  decimal.Decimal
	Before decimal.Decimal // balance before the purchase
	After  decimal.Decimal // balance after: Before - Stake + Prize
}

// Wallet is a balance and the totals of the purchases that moved it. It is
// safe for concurrent use.
type Wallet struct {
	mu      sync.Mutex
	balance decimal.Decimal
	staked  decimal.Decimal
	won     decimal.Decimal
	count   int // purchases of this run
	seq     int // purchases in all, journal included
}

// New returns a wallet holding balance, which must not be negative nor finer
// than the cent.
func New(balance decimal.Decimal) (*Wallet, error) {
	if balance.IsNegative() {
		return nil, fmt.Errorf("wallet: balance %s is negative", balance)
	}
	if !balance.Equal(balance.Round(2)) {
		return nil, fmt.Errorf("wallet: balance %s is finer than the cent", balance)
	}
	return &Wallet{balance: balance, staked: decimal.Zero, won: decimal.Zero}, nil
}

// Buy buys one unit at the given stake: if the balance covers the stake, it
// calls sell to draw the unit, then debits the stake and credits the prize in
// one operation. When the balance is short, or sell fails, nothing is drawn or
// changed. The lock is held during sell, so two purchases never interleave.
func (w *Wallet) Buy(stake decimal.Decimal, sell func() (Sale, error)) (Operation, error) {
	if !stake.IsPositive() {
		return Operation{}, fmt.Errorf("wallet: stake %s is not positive", stake)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.balance.LessThan(stake) {
		return Operation{}, fmt.Errorf("wallet: stake %s, balance %s: %w", stake, w.balance, ErrShort)
	}
	s, err := sell()
	if err != nil {
		return Operation{}, fmt.Errorf("wallet: selling a unit: %w", err)
	}
	if s.Prize.IsNegative() {
		return Operation{}, fmt.Errorf("wallet: unit %s: prize %s is negative", s.Unit, s.Prize)
	}
	w.count++
	w.seq++
	op := Operation{
		Seq: w.seq, Unit: s.Unit, Forced: s.Forced,
		Stake: stake, Prize: s.Prize, Before: w.balance,
		After: w.balance.Sub(stake).Add(s.Prize),
	}
	w.balance = op.After
	w.staked = w.staked.Add(stake)
	w.won = w.won.Add(s.Prize)
	return op, nil
}

// Restore returns a wallet as a journal left it: its balance, and the
// number of its last purchase (0 for none), from which sequence numbers go
// on. The totals count this run only.
func Restore(balance decimal.Decimal, seq int) (*Wallet, error) {
	if seq < 0 {
		return nil, fmt.Errorf("wallet: purchase number %d is negative", seq)
	}
	w, err := New(balance)
	if err != nil {
		return nil, err
	}
	w.seq = seq
	return w, nil
}

// Deposit credits the balance by amount, which must not be negative nor
// finer than the cent. It is no purchase: the totals stay as they are.
func (w *Wallet) Deposit(amount decimal.Decimal) error {
	if amount.IsNegative() {
		return fmt.Errorf("wallet: deposit %s is negative", amount)
	}
	if !amount.Equal(amount.Round(2)) {
		return fmt.Errorf("wallet: deposit %s is finer than the cent", amount)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.balance = w.balance.Add(amount)
	return nil
}

// Seq returns the number of the last purchase, earlier runs included.
func (w *Wallet) Seq() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seq
}

// Balance returns the balance.
func (w *Wallet) Balance() decimal.Decimal {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.balance
}

// Totals is what the session has played: purchases, stakes and prizes.
type Totals struct {
	Played int
	Staked decimal.Decimal
	Won    decimal.Decimal
	Net    decimal.Decimal // Won - Staked
}

// Add returns the totals of two runs of play together.
func (t Totals) Add(o Totals) Totals {
	return Totals{Played: t.Played + o.Played, Staked: t.Staked.Add(o.Staked), Won: t.Won.Add(o.Won), Net: t.Net.Add(o.Net)}
}

// Totals returns what the session has played so far.
func (w *Wallet) Totals() Totals {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Totals{Played: w.count, Staked: w.staked, Won: w.won, Net: w.won.Sub(w.staked)}
}
