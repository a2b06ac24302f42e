package yams

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

type cupScoreJSON struct {
	Combination string `json:"combination"`
	Points      int    `json:"points"`
}

type scoreJSON struct {
	Game   string          `json:"game"`
	Stake  string          `json:"stake"`
	Cups   [3]cupScoreJSON `json:"cups"`
	Points int             `json:"points"`
	Prize  string          `json:"prize"`
}

// TestScoreJSON: a score is written as json.Marshal writes its fields, at
// every stake, for any dice, three yams included.
func TestScoreJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 20000 {
		u := Unit{Stake: Stakes()[n%3]}
		for i := range 15 {
			u.Cups[i/5][i%5] = uint8(r.IntN(6) + 1)
			if n%5 == 0 { // a yams in each cup
				u.Cups[i/5][i%5] = uint8(i/5 + 1 + n%3)
			}
		}
		s := u.Score()
		out := scoreJSON{Game: Name, Stake: s.Stake.String(), Points: s.Points, Prize: s.Prize.String()}
		for i, c := range s.Combinations {
			out.Cups[i] = cupScoreJSON{c.String(), c.Points()}
		}
		want, _ := json.Marshal(out)
		if got, err := s.MarshalJSON(); err != nil || string(got) != string(want) {
			t.Fatalf("%v: %s, want %s", u.Cups, got, want)
		}
	}
}
