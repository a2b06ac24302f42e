package vegas

import (
	"testing"

	"tapis/game"
)

// FuzzScore scores any ticket built from bytes: it never panics, poker and
// jackpot pay one of their amounts, and the ticket pays the sum of its
// surfaces.
func FuzzScore(f *testing.F) {
	f.Add([]byte{17, 0, 1, 0, 23, 3, 4, 1, 1, 6, 2, 48, 29, 50, 44, 23, 27, 1, 0, 0, 5, 2}, int64(5))
	f.Add(make([]byte, 22), int64(0))
	f.Fuzz(func(t *testing.T, b []byte, amount int64) {
		if len(b) < 22 || amount < 0 || amount > 1e14 { // layouts hold 10¹² € at most
			return
		}
		a := game.Cents(amount)
		var tk Ticket
		tk.Roulette.Number = int(b[0])%36 + 1
		for k := range Kinds {
			tk.Roulette.Amounts[k] = a
			tk.Roulette.Bets[k] = int(b[1+k]) % 2
		}
		tk.Roulette.Bets[NumberKind] = int(b[4])%36 + 1
		for i := range tk.Craps {
			tk.Craps[i] = Throw{Dice: [2]int{int(b[5+2*i])%6 + 1, int(b[6+2*i])%6 + 1}, Amount: a}
		}
		// Cards may repeat here: the scorer must cope with any input.
		for i := range tk.Poker.Hand {
			tk.Poker.Hand[i] = Card(b[11+i] % 52)
		}
		for i := range tk.Poker.Community {
			tk.Poker.Community[i] = Card(b[13+i] % 52)
		}
		for i := range tk.Jackpot.Reels {
			tk.Jackpot.Reels[i] = Symbol(b[18+i] % 6)
		}
		tk.Jackpot.Bonus = Symbol(b[21] % 6)
		s := tk.Score()
		sum := s.Roulette.Prize.Decimal().Add(s.Craps.Prize.Decimal()).Add(s.Poker.Prize.Decimal()).Add(s.Jackpot.Prize.Decimal())
		if !s.Prize.Decimal().Equal(sum) || s.Prize.Decimal().IsNegative() {
			t.Fatalf("ticket pays %s, surfaces %s", s.Prize, sum)
		}
		if tk.Prize() != s.Prize {
			t.Fatalf("ticket pays %s, scores %s", tk.Prize(), s.Prize)
		}
		if !s.Poker.Prize.Decimal().Equal(s.Poker.Combination.Prize()) || !s.Jackpot.Prize.Decimal().Equal(s.Jackpot.Case.Prize()) {
			t.Fatalf("poker %v, jackpot %v", s.Poker, s.Jackpot)
		}
	})
}
