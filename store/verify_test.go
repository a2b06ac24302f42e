package store

import (
	"tapis/game"
	"tapis/ledger"

	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
)

// sellSome sells units of every game through two accounts, one block of
// Vegas sold out, and a forced unit.
func sellSome(t *testing.T, s *SQL) {
	t.Helper()
	ctx := context.Background()
	for _, name := range []string{"ann", "bob"} {
		if _, err := s.OpenAccount(ctx, name, decimal.NewFromInt(500)); err != nil {
			t.Fatal(err)
		}
	}
	n := map[string]int{}
	buy := func(name string, g lottery.Game, stake decimal.Decimal, f *lottery.Force) {
		n[name]++
		if _, err := s.Sell(ctx, Purchase{Account: name, Number: n[name], Game: g, Stake: stake, Force: f, Label: "QA"}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 70 {
		buy([]string{"ann", "bob"}[i%2], lottery.Vegas(), decimal.NewFromInt(3), nil)
		buy("bob", lottery.Yams(), decimal.RequireFromString("0.5"), nil)
	}
	if err := s.Deposit(ctx, "ann", decimal.RequireFromString("12.5")); err != nil {
		t.Fatal(err)
	}
	tier := 0
	buy("ann", lottery.Yams(), decimal.NewFromInt(2), &lottery.Force{Tier: &tier})
	buy("ann", lottery.Yams(), decimal.NewFromInt(1), nil)
}

func TestVerifyFindsEveryForgery(t *testing.T) {
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(12), SeedSet: true, Tables: SmallTables, QA: true})
	verifyFindsEveryForgery(t, s)
}

func verifyFindsEveryForgery(t *testing.T, s *SQL) {
	ctx := context.Background()
	sellSome(t, s)
	r, err := s.Verify(ctx)
	if len(r.OwnTables) != 4 {
		t.Errorf("a store of small tables: own tables %q", r.OwnTables)
	}
	if err != nil || !r.OK() || r.Purchases != 142 || r.Forced != 1 || r.Checked != 141 || r.Closed != 2 || r.Accounts != 2 {
		t.Fatalf("a store as sold: %d purchases, %d forced, %d checked, %d closed, %d accounts; %d problems, the first %.3q; %v", r.Purchases, r.Forced, r.Checked, r.Closed, r.Accounts, len(r.Problems), r.Problems, err)
	}
	forgeries := []struct{ name, sql, want string }{
		{"a prize changed", `UPDATE purchases SET prize = prize + 100, after_cents = after_cents + 100 WHERE account = 'bob' AND number = 3`, "its block's seed gives"},
		{"a layout swapped", `UPDATE purchases SET layout = (SELECT layout FROM purchases WHERE account = 'bob' AND number = 5) WHERE account = 'bob' AND number = 7`, "layout"},
		{"a purchase removed", `DELETE FROM purchases WHERE account = 'ann' AND number = 4`, "missing"},
		{"a balance raised", `UPDATE accounts SET balance = balance + 1 WHERE name = 'ann'`, "balance"},
		{"a commitment replaced", `UPDATE blocks SET commitment = 'ab' WHERE number = 2`, "commitment"},
		{"a seed revealed wrongly", `UPDATE blocks SET seed = 'ab' WHERE seed IS NOT NULL`, "revealed seed"},
		{"a sale before its commitment", `UPDATE purchases SET at = 0 WHERE account = 'ann' AND number = 1`, "before block"},
		{"a forced unit's prize", `UPDATE purchases SET prize = 1 WHERE block IS NULL`, "forced"},
		{"a forced unit renamed", `UPDATE purchases SET unit = 'yams:2:QA:7' WHERE block IS NULL`, "named"},
		{"a unit of a block labelled", `UPDATE purchases SET label = 'QA' WHERE account = 'bob' AND number = 2`, "label"},
		{"a sale after its block closed", `UPDATE purchases SET at = at + 100000000000 WHERE account = 'ann' AND number = 2`, "sold after block"},
		{"a purchase the account could not pay", `UPDATE purchases SET before_cents = 100, after_cents = 100 - stake_cents + prize WHERE account = 'ann' AND number = 1`, "a stake of"},
	}
	for _, f := range forgeries {
		t.Run(f.name, func(t *testing.T) {
			tx, err := s.db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, f.sql); err != nil {
				t.Fatal(err)
			}
			// The forgery is verified inside its transaction, then rolled back.
			r, err := s.verifyIn(ctx, tx, ledger.Tokens{})
			if err != nil {
				t.Fatal(err)
			}
			if r.OK() || !strings.Contains(strings.Join(r.Problems, "\n"), f.want) {
				t.Errorf("%s: want a problem with %q, got %q", f.name, f.want, r.Problems)
			}
		})
	}
}

func TestTheHousesEmissionSellsNoForcedUnit(t *testing.T) {
	s, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(13), SeedSet: true})
	ctx := context.Background()
	if _, err := s.OpenAccount(ctx, "eve", decimal.NewFromInt(10)); err != nil {
		t.Fatal(err)
	}
	tier := 0
	_, err := s.Sell(ctx, Purchase{Account: "eve", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(2), Force: &lottery.Force{Tier: &tier}, Label: "QA"})
	if err == nil || !strings.Contains(err.Error(), "QA store") {
		t.Errorf("a forced unit from the house's emission: %v", err)
	}
	if _, err := Open(ctx, url, Options{Key: ledger.PublicTestKey(), QA: true}); err == nil || !strings.Contains(err.Error(), "created with --qa") {
		t.Errorf("QA asked of the house's store: %v", err)
	}
}
