package session

import (
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
)

// BenchmarkBuy buys units in memory and with a journal synced to disk at
// each purchase.
func BenchmarkBuy(b *testing.B) {
	for _, journal := range []bool{false, true} {
		name := "memory"
		if journal {
			name = "journal"
		}
		b.Run(name, func(b *testing.B) {
			o := Options{Seed: game.SeedFrom(1), Balance: decimal.NewFromInt(1_000_000_000), Key: ledger.PublicTestKey()}
			if journal {
				o.Journal = filepath.Join(b.TempDir(), "j.jsonl")
			}
			s, err := Open(o)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for i := 0; b.Loop(); i++ {
				g, stake := pick(i)
				if _, _, err := s.Buy(g, stake, nil, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
