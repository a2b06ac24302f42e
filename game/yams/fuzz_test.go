package yams

import (
	"testing"

	"github.com/shopspring/decimal"
)

// FuzzScore scores any three cups: points stay within 0 to 150, and the
// prize is one of the winnings table's or zero.
func FuzzScore(f *testing.F) {
	f.Add([]byte{1, 2, 3, 5, 6, 4, 4, 4, 2, 2, 6, 6, 1, 2, 3}, uint8(1))
	f.Add([]byte{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, uint8(2))
	f.Fuzz(func(t *testing.T, dice []byte, stakeIndex uint8) {
		if len(dice) < 15 {
			return
		}
		stake := Stakes()[int(stakeIndex)%3]
		u := Unit{Stake: stake}
		for i := range 15 {
			u.Cups[i/5][i%5] = dice[i]%6 + 1
		}
		s := u.Score()
		if u.Prize() != s.Prize {
			t.Fatalf("%v: pays %s, scores %s", u.Cups, u.Prize(), s.Prize)
		}
		if s.Points < 0 || s.Points > 150 {
			t.Fatalf("%v: %d points", u.Cups, s.Points)
		}
		tb, _ := Table(stake)
		if tier, ok := tb.Tier(s.Prize.Decimal()); !ok || tier != s.Tier {
			t.Fatalf("%v: prize %s, tier %d", u.Cups, s.Prize, s.Tier)
		}
		if s.Prize.Decimal().GreaterThan(stake.Mul(decimal.NewFromInt(5000))) {
			t.Fatalf("prize %s", s.Prize)
		}
	})
}
