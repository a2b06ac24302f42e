package store

import (
	"fmt"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/wallet"
)

// The admission rules of a purchase live here, once: the purchase's own
// stake (PlayedStake), its number, a balance that pays it, the seller's
// lease, the loss limit (Admit), and which purchase a retry finds (Same).
// Every backend asks them: the SQL stores, in the transaction that sells,
// and the memory and journal store. The SQL debit repeats the same
// conditions in its WHERE clause, so that a purchase that passes costs one
// statement; when it does not, Admit says why from the account as the
// transaction reads it.

// Standing is an account as a purchase finds it.
type Standing struct {
	Balance game.Cents // its balance, prizes not shown included
	Made    int        // the purchases it has made: the next one is number Made+1
	// Lease is the token of the lease held on it (Lease.Token); a store
	// that holds no leases gives the purchase's own.
	Lease string
	// Loss is its net loss over the last LossWindow, read only when the
	// purchase has a loss limit.
	Loss game.Cents
}

// PlayedStake returns the stake a purchase is played at: a forced layout
// is played at its own (lottery.Force.Stake), any other at the one asked.
func (p Purchase) PlayedStake() decimal.Decimal {
	if p.Force != nil {
		return p.Force.Stake(p.Stake)
	}
	return p.Stake
}

// Admit checks a purchase at stake (its PlayedStake, in cents) against
// its account's standing. It reports again when the purchase's number is
// one the account has made: a retry whose answer was lost, to be returned
// as it was made if Same finds it the same. Otherwise it returns nil when
// the purchase may be sold, or why not: ErrLeaseLost (another seller took
// the account), ErrOutOfTurn (the number is not the next), wallet.ErrShort
// (the balance does not pay the stake), errOverLimit (the loss limit; the
// caller says until when).
func Admit(p Purchase, st Standing, stake game.Cents) (again bool, err error) {
	if err := leaseHeld(p, st.Lease); err != nil {
		return false, err
	}
	switch {
	case p.Number < 1:
		return false, fmt.Errorf("purchase %s: numbers count from 1", p.ID())
	case p.Number <= st.Made:
		return true, nil
	case p.Number != st.Made+1:
		return false, fmt.Errorf("purchase %s: the account has made %d: %w", p.ID(), st.Made, ErrOutOfTurn)
	case st.Balance < stake:
		return false, fmt.Errorf("wallet: stake %s, balance %s: %w", stake.Decimal(), st.Balance.Decimal(), wallet.ErrShort)
	case overLimit(p, st.Loss, stake):
		return false, errOverLimit
	}
	return false, nil
}

// leaseHeld refuses a purchase made under a lease another seller has taken
// since, lease being the one held now (ErrLeaseLost); a purchase under no
// lease passes.
func leaseHeld(p Purchase, lease string) error {
	if p.Lease != "" && p.Lease != lease {
		return fmt.Errorf("purchase %s: %w", p.ID(), ErrLeaseLost)
	}
	return nil
}

// Same reports whether r, the account's purchase of p's number made under
// the seller's token attempt, is the one p retries: the same game, stake
// and kind (forced or not), and no other seller's (an empty token, on
// either side, matches any). A retry that is not the same fails with
// ErrOtherPurchase.
func (p Purchase) Same(r Receipt, attempt string) bool {
	mine := p.Attempt == "" || attempt == "" || attempt == p.Attempt
	return mine && r.Sold.Unit.ID.Game == p.Game.Name && r.Op.Stake.Equal(p.PlayedStake()) && (r.Sold.Forced != nil) == (p.Force != nil)
}

// otherPurchase is the error of a retry that found another purchase.
func otherPurchase(p Purchase, r Receipt) error {
	return fmt.Errorf("purchase %s was %s: %w", p.ID(), r.Op.Unit, ErrOtherPurchase)
}

// overLimit reports whether a purchase at stake, its account having lost
// loss over the window, passes its limit: false without one.
func overLimit(p Purchase, loss, stake game.Cents) bool {
	return p.LossLimit.IsPositive() && !withinLimit(loss.Decimal(), stake.Decimal(), p.LossLimit)
}

// withinLimit reports whether a stake, lost, leaves a net loss within a
// limit: the loss limit's one rule, for the sale and for the error that
// says until when.
func withinLimit(loss, stake, limit decimal.Decimal) bool {
	return loss.Add(stake).LessThanOrEqual(limit)
}
