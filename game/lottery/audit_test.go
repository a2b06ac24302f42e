package lottery

import (
	"reflect"
	"testing"

	"github.com/shopspring/decimal"
)

// TestWholeBlocks sells a whole block of Yam's at each stake and a whole
// block of Vegas: every unit scores to its drawn prize, the counts equal the
// lot tables, and the payout is exactly 70 % of sales (ruling G2).
func TestWholeBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("whole blocks: skipped with -short")
	}
	seventy := decimal.RequireFromString("0.7")
	for _, g := range Games() {
		for _, stake := range g.Stakes {
			r, err := Audit(AuditOptions{Game: g, Stake: stake, Blocks: 1, Seed: 2026})
			if err != nil {
				t.Fatal(err)
			}
			if !r.OK() {
				t.Errorf("%s at %s: %d mismatches, tiers %+v", g.Name, stake, r.Mismatches, r.Tiers)
			}
			if !r.RTP().Equal(seventy) || !r.Paid.Equal(r.Sales.Mul(seventy)) {
				t.Errorf("%s at %s: paid %s of %s", g.Name, stake, r.Paid, r.Sales)
			}
		}
	}
}

// TestAuditDoesNotDependOnCores runs the same audit on one and on three
// workers, and with another seed.
func TestAuditDoesNotDependOnCores(t *testing.T) {
	if testing.Short() {
		t.Skip("whole blocks: skipped with -short")
	}
	g := Yams()
	stake := decimal.RequireFromString("0.5")
	a, _ := Audit(AuditOptions{Game: g, Stake: stake, Blocks: 2, Seed: 5, Workers: 1})
	b, _ := Audit(AuditOptions{Game: g, Stake: stake, Blocks: 2, Seed: 5, Workers: 3})
	if !reflect.DeepEqual(a.Tiers, b.Tiers) || a.Mismatches != b.Mismatches || a.Units != 1_400_000 {
		t.Errorf("one worker %+v, three %+v", a.Tiers, b.Tiers)
	}
	if !a.OK() {
		t.Errorf("two blocks: %+v", a.Tiers)
	}
}

func TestAuditRefuses(t *testing.T) {
	if _, err := Audit(AuditOptions{Game: Vegas(), Stake: decimal.NewFromInt(1), Blocks: 1}); err == nil {
		t.Error("audit of vegas at 1 €")
	}
	if _, err := Audit(AuditOptions{Game: Yams(), Stake: decimal.NewFromInt(1), Blocks: 0}); err == nil {
		t.Error("audit of no block")
	}
}

// TestDealUnitIsReproducible checks a unit's presentation follows from its
// identity alone (ruling G5).
func TestDealUnitIsReproducible(t *testing.T) {
	for _, g := range Games() {
		tb, _ := g.Table(g.DefaultStake)
		a := g.DealUnit(unitOf(t, g, tb, 77, 5))
		b := g.DealUnit(unitOf(t, g, tb, 77, 5))
		c := g.DealUnit(unitOf(t, g, tb, 78, 5))
		ja, _ := a.MarshalJSON()
		jb, _ := b.MarshalJSON()
		jc, _ := c.MarshalJSON()
		if string(ja) != string(jb) || string(ja) == string(jc) {
			t.Errorf("%s: %s / %s / %s", g.Name, ja, jb, jc)
		}
	}
}
