package vegas

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"tapis/game"
)

type combinationJSON struct {
	Prize       string `json:"prize"`
	Combination string `json:"combination"`
}

type scoreJSON struct {
	Game     string `json:"game"`
	Surfaces struct {
		Roulette struct {
			Prize string   `json:"prize"`
			Wins  []string `json:"wins"`
		} `json:"roulette"`
		Craps struct {
			Prize  string `json:"prize"`
			Throws []int  `json:"throws"`
		} `json:"craps"`
		Poker   combinationJSON `json:"poker"`
		Jackpot combinationJSON `json:"jackpot"`
	} `json:"surfaces"`
	Prize string `json:"prize"`
}

// marshalScore writes a score as json.Marshal writes its fields.
func marshalScore(s Score) []byte {
	var out scoreJSON
	out.Game = Name
	out.Surfaces.Roulette.Prize, out.Surfaces.Roulette.Wins = s.Roulette.Prize.String(), []string{}
	for k := range Kinds {
		if s.Roulette.Wins[k] {
			out.Surfaces.Roulette.Wins = append(out.Surfaces.Roulette.Wins, k.String())
		}
	}
	out.Surfaces.Craps.Prize, out.Surfaces.Craps.Throws = s.Craps.Prize.String(), []int{}
	for i, w := range s.Craps.Wins {
		if w {
			out.Surfaces.Craps.Throws = append(out.Surfaces.Craps.Throws, i+1)
		}
	}
	out.Surfaces.Poker = combinationJSON{s.Poker.Prize.String(), s.Poker.Combination.String()}
	out.Surfaces.Jackpot = combinationJSON{s.Jackpot.Prize.String(), s.Jackpot.Case.String()}
	out.Prize = s.Prize.String()
	b, _ := json.Marshal(out)
	return b
}

// TestScoreJSON: a score is written as json.Marshal writes its fields, for
// tickets of any surfaces: wins and throws won or none, any poker hand and
// reels.
func TestScoreJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	amounts := []int64{0, 3, 5, 10, 25, 50, 200, 1000, 10000}
	for range 20000 {
		var tk Ticket
		tk.Roulette.Number = r.IntN(36) + 1
		for k := range Kinds {
			tk.Roulette.Amounts[k] = game.Euros(amounts[r.IntN(len(amounts))])
			tk.Roulette.Bets[k] = r.IntN(2)
		}
		tk.Roulette.Bets[NumberKind] = r.IntN(36) + 1
		for i := range tk.Craps {
			tk.Craps[i] = Throw{Dice: [2]int{r.IntN(6) + 1, r.IntN(6) + 1}, Amount: game.Cents(r.IntN(2000))}
		}
		deck := r.Perm(52)
		for i := range tk.Poker.Hand {
			tk.Poker.Hand[i] = Card(deck[i])
		}
		for i := range tk.Poker.Community {
			tk.Poker.Community[i] = Card(deck[2+i])
		}
		for i := range tk.Jackpot.Reels {
			tk.Jackpot.Reels[i] = Symbol(r.IntN(int(Symbols)))
		}
		tk.Jackpot.Bonus = Symbol(r.IntN(int(Symbols)))
		s := tk.Score()
		if got, err := s.MarshalJSON(); err != nil || string(got) != string(marshalScore(s)) {
			t.Fatalf("%+v: %s, want %s", tk, got, marshalScore(s))
		}
	}
}
