package lottery

import (
	"testing"

	"github.com/shopspring/decimal"
)

// BenchmarkAuditVegasBlock audits one whole Vegas block (1 500 000 tickets)
// per iteration, on every core.
func BenchmarkAuditVegasBlock(b *testing.B) {
	benchAudit(b, Vegas(), Vegas().DefaultStake)
}

// BenchmarkAuditYamsBlock audits one whole Yam's block (700 000 units).
func BenchmarkAuditYamsBlock(b *testing.B) {
	benchAudit(b, Yams(), decimal.NewFromInt(1))
}

func benchAudit(b *testing.B, g Game, stake decimal.Decimal) {
	for i := 0; b.Loop(); i++ {
		r, err := Audit(AuditOptions{Game: g, Stake: stake, Blocks: 1, Seed: 1})
		if err != nil || !r.OK() {
			b.Fatalf("audit: %v, ok %v", err, r.OK())
		}
		b.ReportMetric(float64(r.Units)/r.Elapsed.Seconds(), "units/s")
	}
}
