package store

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/wallet"
)

// TestAdmit: each admission rule, alone, decides; a purchase that breaks
// none may be sold.
func TestAdmit(t *testing.T) {
	base := Purchase{Account: "ann", Number: 4, Game: lottery.Yams(), Stake: decimal.NewFromInt(2), Lease: "L"}
	standing := Standing{Balance: 500, Made: 3, Lease: "L", Loss: 700}
	limited := base
	limited.LossLimit = decimal.NewFromInt(9)
	cases := []struct {
		name  string
		p     Purchase
		st    func(*Standing)
		again bool
		want  error
	}{
		{name: "sold", p: base},
		{name: "a retry", p: Purchase{Account: "ann", Number: 2, Lease: "L"}, again: true},
		{name: "out of turn", p: Purchase{Account: "ann", Number: 6, Lease: "L"}, want: ErrOutOfTurn},
		{name: "short", p: base, st: func(s *Standing) { s.Balance = 199 }, want: wallet.ErrShort},
		{name: "the stake exactly", p: base, st: func(s *Standing) { s.Balance = 200 }},
		{name: "lease lost", p: base, st: func(s *Standing) { s.Lease = "M" }, want: ErrLeaseLost},
		{name: "no lease held", p: base, st: func(s *Standing) { s.Lease = "" }, want: ErrLeaseLost},
		{name: "a seller under no lease", p: Purchase{Account: "ann", Number: 4}, st: func(s *Standing) { s.Lease = "M" }},
		{name: "within the limit", p: limited},
		{name: "the limit exactly", p: limited, st: func(s *Standing) { s.Loss = 900 - 200 }},
		{name: "over the limit", p: limited, st: func(s *Standing) { s.Loss = 701 }, want: errOverLimit},
		{name: "a win leaves room", p: limited, st: func(s *Standing) { s.Loss = -5000 }},
	}
	for _, c := range cases {
		st := standing
		if c.st != nil {
			c.st(&st)
		}
		again, err := Admit(c.p, st, 200)
		if again != c.again || !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: again %v, %v; want %v, %v", c.name, again, err, c.again, c.want)
		}
	}
	if _, err := Admit(Purchase{Account: "ann", Number: 0}, standing, 200); err == nil {
		t.Error("purchase number 0 admitted")
	}
}

// TestSame: a retry finds its purchase only if it is the same game, stake
// (the forced layout's own) and kind, under the seller's token.
func TestSame(t *testing.T) {
	total := 100
	forced := Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1), Force: &lottery.Force{Total: &total}, Attempt: "A"}
	made := Receipt{Op: wallet.Operation{Stake: decimal.NewFromInt(1)}, Sold: lottery.Sold{Unit: game.Unit{ID: game.UnitID{Game: "yams"}}, Forced: &lottery.Forced{Label: "QA", Serial: 1}}}
	if !forced.Same(made, "A") || !forced.Same(made, "") {
		t.Error("a retry of the same forced purchase is not the same")
	}
	if forced.Same(made, "B") {
		t.Error("another seller's purchase is the same")
	}
	real := forced
	real.Force = nil
	if real.Same(made, "A") {
		t.Error("a real unit's retry finds a forced one")
	}
	other := forced
	other.Stake = decimal.NewFromInt(2)
	if other.Same(made, "A") {
		t.Error("a retry at another stake is the same")
	}
}
