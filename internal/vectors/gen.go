package vectors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"tapis/game/vegas"
)

// Files are the vector files, by name, as Write writes them under
// testdata/vectors/.
var Files = []string{"yams.jsonl", "vegas.jsonl"}

// Vector is one test vector: a layout in interface.md's format, the prize
// the regulation gives it, the article it exercises and, in words, what it
// shows.
type Vector struct {
	Game  string                      `json:"game"`
	Stake string                      `json:"stake,omitempty"`
	Cups  *[yamsCups][yamsCupDice]int `json:"cups,omitempty"`
	*ticketBody
	Prize   string `json:"prize"`
	Article string `json:"article"`
	Case    string `json:"case"`
	// Yam's: each cup's combination and the total of points.
	Combinations []string `json:"combinations,omitempty"`
	Points       *int     `json:"points,omitempty"`
	// Vegas: what each surface pays.
	Surfaces *surfacePrizes `json:"surfaces,omitempty"`
}

// ticketBody is a ticket's surfaces, written inline in a Vegas vector.
type ticketBody struct {
	Roulette wheel   `json:"roulette"`
	Craps    []throw `json:"craps"`
	Poker    poker   `json:"poker"`
	Jackpot  slots   `json:"jackpot"`
}

type surfacePrizes struct {
	Roulette string `json:"roulette"`
	Craps    string `json:"craps"`
	Poker    string `json:"poker"`
	Jackpot  string `json:"jackpot"`
}

// Generate returns the vectors of each file of Files, in order. It fails
// when a layout dealt for a split of a lot does not score, by the
// reference scorer, to that lot: the dealer and the reference disagree.
func Generate() (map[string][]Vector, error) {
	v, err := vegasVectors()
	if err != nil {
		return nil, err
	}
	return map[string][]Vector{"yams.jsonl": yamsVectors(), "vegas.jsonl": v}, nil
}

// Encode writes vectors as JSON lines.
func Encode(vs []Vector) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			return nil, fmt.Errorf("writing a vector: %w", err)
		}
	}
	return b.Bytes(), nil
}

// Cups exemplifying each combination of art. 4.4, several a combination,
// in the order of the dice as a player might see them: a vector takes them
// in turn.
var cupsOf = map[int][][yamsCupDice]int{
	pointsNone:     {{1, 2, 3, 5, 6}, {6, 5, 4, 2, 1}, {3, 1, 6, 5, 2}, {2, 6, 1, 4, 5}},
	pointsPair:     {{1, 1, 2, 3, 5}, {6, 2, 6, 4, 1}, {5, 3, 1, 5, 6}, {4, 6, 4, 2, 1}},
	pointsTwoPairs: {{2, 2, 3, 3, 6}, {1, 5, 1, 5, 3}, {6, 4, 4, 6, 1}, {3, 1, 1, 3, 5}},
	pointsThree:    {{4, 4, 4, 1, 2}, {6, 1, 6, 3, 6}, {2, 5, 2, 2, 6}, {1, 1, 4, 1, 6}},
	pointsFull:     {{4, 4, 4, 2, 2}, {1, 6, 1, 6, 1}, {5, 5, 3, 3, 5}, {2, 6, 6, 2, 2}},
	pointsSmall:    {{1, 2, 3, 4, 6}, {5, 3, 4, 2, 2}, {6, 3, 5, 4, 1}, {4, 4, 3, 2, 1}},
	pointsFour:     {{5, 5, 5, 5, 2}, {3, 1, 1, 1, 1}, {6, 6, 2, 6, 6}, {4, 4, 4, 4, 5}},
	pointsLarge:    {{1, 2, 3, 4, 5}, {6, 5, 4, 3, 2}, {3, 5, 1, 2, 4}, {4, 2, 6, 3, 5}},
	pointsYams:     {{6, 6, 6, 6, 6}, {1, 1, 1, 1, 1}, {3, 3, 3, 3, 3}, {5, 5, 5, 5, 5}, {2, 2, 2, 2, 2}, {4, 4, 4, 4, 4}},
}

// yamsStakes are the stakes of art. 2, in cents.
var yamsStakes = []int64{50, 100, 200}

// yamsVectors makes, at each stake, one unit for every set of three cup
// combinations (165 sets): every combination, every total a unit can
// reach, so every bracket of art. 4.5 and the losing totals of art. 4.6,
// each at each stake.
func yamsVectors() []Vector {
	points := []int{pointsNone, pointsPair, pointsTwoPairs, pointsThree, pointsFull, pointsSmall, pointsFour, pointsLarge, pointsYams}
	next := map[int]int{} // the next exemplar of each combination
	var out []Vector
	for _, stake := range yamsStakes {
		for i, a := range points {
			for j := i; j < len(points); j++ {
				for _, c := range points[j:] {
					var cups [yamsCups][yamsCupDice]int
					for k, p := range []int{a, points[j], c} {
						cups[k] = cupsOf[p][next[p]%len(cupsOf[p])]
						next[p]++
					}
					// The cups in the three orders a player may roll them.
					shift := len(out) % yamsCups
					cups[0], cups[1], cups[2] = cups[shift], cups[(shift+1)%3], cups[(shift+2)%3]
					out = append(out, yamsVector(cups, stake))
				}
			}
		}
	}
	return out
}

// yamsVector writes one Yam's vector, its prize from the reference scorer.
func yamsVector(cups [yamsCups][yamsCupDice]int, stake int64) Vector {
	total, prize := refYams(cups, stake)
	v := Vector{Game: "yams", Stake: euros(stake), Cups: &cups, Prize: euros(prize), Points: &total}
	for _, c := range cups {
		name, _ := refCup(c)
		v.Combinations = append(v.Combinations, name)
	}
	v.Article, v.Case = "4.4, 4.6", fmt.Sprintf("%d points: losing", total)
	for _, b := range yamsBrackets {
		if total >= b.Lo && total <= b.Hi {
			v.Article = "4.4, 4.5"
			v.Case = fmt.Sprintf("%d points, in %d-%d: the stake %s € × %d", total, b.Lo, b.Hi, euros(stake), b.Times)
		}
	}
	return v
}

// vegasLots are the lots of art. 3, in euros, highest first.
var vegasLots = []int64{40000, 10000, 1000, 200, 50, 25, 10, 5, 3}

// vegasVectors makes a ticket for every split of every lot in the
// catalogue (art. 3 and 4.6, ruling V7), a few losing tickets, and
// tickets built by hand for each surface's rules (art. 4.2 to 4.5),
// doubtful ones included, which no block deals but a scorer must read.
func vegasVectors() ([]Vector, error) {
	r := rand.New(rand.NewPCG(24, 2026))
	var out []Vector
	for _, lot := range vegasLots {
		for i, s := range vegas.Splits(lot) {
			var t vegas.Ticket
			if !vegas.DealSplit(r, s, &t) {
				return nil, fmt.Errorf("lot %d €: split %v cannot be dealt", lot, s)
			}
			tk, err := ticketOf(&t)
			if err != nil {
				return nil, err
			}
			v := vegasVector(tk, "3, 4.6", fmt.Sprintf("lot %d €, split %d of %d: roulette %d + craps %d + poker %d + jackpot %d",
				lot, i+1, len(vegas.Splits(lot)), s[0], s[1], s[2], s[3]))
			if got := refVegas(tk); got != (surfaces{s[0] * euroCents, s[1] * euroCents, s[2] * euroCents, s[3] * euroCents}) {
				return nil, fmt.Errorf("lot %d €: split %v dealt as a ticket the reference scores %+v", lot, s, got)
			}
			out = append(out, v)
		}
	}
	for i := range 6 {
		var t vegas.Ticket
		vegas.Deal(r, vegas.Losing, &t)
		tk, err := ticketOf(&t)
		if err != nil {
			return nil, err
		}
		if refVegas(tk).total() != 0 {
			return nil, fmt.Errorf("a losing ticket the reference scores %+v", refVegas(tk))
		}
		out = append(out, vegasVector(tk, "4.2.6, 4.3.6, 4.4.4, 4.5.5", fmt.Sprintf("a losing ticket as a block deals it (%d)", i+1)))
	}
	return append(out, surfaceVectors()...), nil
}

// ticketOf writes a dealt ticket in the vectors' own type, through its
// layout's JSON.
func ticketOf(t *vegas.Ticket) (ticket, error) {
	b, err := t.MarshalJSON()
	if err != nil {
		return ticket{}, fmt.Errorf("writing a ticket: %w", err)
	}
	var tk ticket
	if err := json.Unmarshal(b, &tk); err != nil {
		return ticket{}, fmt.Errorf("reading a ticket back: %w", err)
	}
	return tk, nil
}

// vegasVector writes one Vegas vector, its prizes from the reference
// scorer.
func vegasVector(t ticket, article, what string) Vector {
	s := refVegas(t)
	body := ticketBody{Roulette: t.Roulette, Craps: slices.Clone(t.Craps), Poker: t.Poker, Jackpot: t.Jackpot}
	body.Poker.Hand, body.Poker.Community = slices.Clone(t.Poker.Hand), slices.Clone(t.Poker.Community)
	body.Jackpot.Reels = slices.Clone(t.Jackpot.Reels)
	return Vector{Game: "vegas", ticketBody: &body, Prize: euros(s.total()), Article: article, Case: what,
		Surfaces: &surfacePrizes{euros(s.Roulette), euros(s.Craps), euros(s.Poker), euros(s.Jackpot)}}
}
