package lottery

import (
	"tapis/game"

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
			r, err := Audit(AuditOptions{Game: g, Stake: stake, Blocks: 1, Seed: game.SeedFrom(2026)})
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
	a, _ := Audit(AuditOptions{Game: g, Stake: stake, Blocks: 2, Seed: game.SeedFrom(5), Workers: 1})
	b, _ := Audit(AuditOptions{Game: g, Stake: stake, Blocks: 2, Seed: game.SeedFrom(5), Workers: 3})
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
		a := g.DealUnit(unitOf(t, g, tb, game.SeedFrom(77), 5))
		b := g.DealUnit(unitOf(t, g, tb, game.SeedFrom(77), 5))
		c := g.DealUnit(unitOf(t, g, tb, game.SeedFrom(78), 5))
		ja, _ := a.MarshalJSON()
		jb, _ := b.MarshalJSON()
		jc, _ := c.MarshalJSON()
		if string(ja) != string(jb) || string(ja) == string(jc) {
			t.Errorf("%s: %s / %s / %s", g.Name, ja, jb, jc)
		}
	}
}

// TestAuditProgress: Progress is told the units checked so far, chunk by
// chunk, always more, ending at the total; across blocks too. The calls
// append to a slice without a lock: under the race detector (CI), a call
// from a worker's goroutine would be reported.
func TestAuditProgress(t *testing.T) {
	var calls [][2]int64
	r, err := Audit(AuditOptions{Game: Yams(), Stake: decimal.RequireFromString("0.5"), Blocks: 2, Seed: game.SeedFrom(9), Workers: 3,
		Progress: func(done, total int64) { calls = append(calls, [2]int64{done, total}) }})
	if err != nil || !r.OK() {
		t.Fatalf("audit: %v, ok %v", err, r.OK())
	}
	chunks := (700_000 + auditChunk - 1) / auditChunk
	if len(calls) != 2*chunks {
		t.Fatalf("%d calls, want %d (a chunk of %d units each)", len(calls), 2*chunks, auditChunk)
	}
	var last int64
	for i, c := range calls {
		if c[1] != 1_400_000 || c[0] <= last || c[0] > c[1] {
			t.Fatalf("call %d: %d of %d after %d", i, c[0], c[1], last)
		}
		last = c[0]
	}
	if last != r.Units {
		t.Errorf("the last call says %d units, the audit checked %d", last, r.Units)
	}
}

// TestAuditTamper deals one unit of a block for another lot than drawn:
// the audit counts it as a mismatch, its two lots off the table by one,
// and fails; the same audit without it passes.
func TestAuditTamper(t *testing.T) {
	g := Yams()
	stake := decimal.RequireFromString("0.5")
	o := AuditOptions{Game: g, Stake: stake, Blocks: 1, Seed: game.SeedFrom(8), Tamper: &Tamper{Block: 1, Serial: 350_000}}
	r, err := Audit(o)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK() || r.Mismatches != 1 || r.Unknown != 0 || r.Tampered == nil {
		t.Fatalf("tampered audit: ok %v, %d mismatches, tampered %+v", r.OK(), r.Mismatches, r.Tampered)
	}
	if want := "yams:0.5:1:350000"; r.Tampered.Unit.String() != want || r.Tampered.Drawn.Equal(r.Tampered.Dealt) {
		t.Errorf("tampered %+v, want unit %s dealt for another lot", r.Tampered, want)
	}
	off := 0
	for _, tc := range r.Tiers {
		switch d := tc.Counted - tc.Expected; {
		case d == 0:
		case (d == 1 && tc.Prize.Equal(r.Tampered.Dealt)) || (d == -1 && tc.Prize.Equal(r.Tampered.Drawn)):
			off++
		default:
			t.Errorf("lot %s: counted %d, expected %d", tc.Prize, tc.Counted, tc.Expected)
		}
	}
	if off != 2 {
		t.Errorf("%d lots off by one, want 2: %+v", off, r.Tiers)
	}
	o.Tamper = nil
	if r, _ := Audit(o); !r.OK() || r.Tampered != nil {
		t.Errorf("the same audit untampered: %+v", r)
	}
	o.Tamper = &Tamper{Block: 2, Serial: 1}
	if _, err := Audit(o); err == nil {
		t.Error("tampering with a block beyond the audit: no error")
	}
}
