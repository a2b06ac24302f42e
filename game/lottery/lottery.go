// Package lottery puts both games behind one face: the registry of games with
// their stakes and lot tables, a layout of either game and its score, the
// layout reader shared by `tapis score` and the QA screens, and the audit that
// sells whole blocks through the engine.
package lottery

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
)

// Game describes one of the two games to the engine and the front ends.
type Game struct {
	Name         string
	Stakes       []decimal.Decimal // the stakes a player may choose, lowest first
	DefaultStake decimal.Decimal
}

// Yams returns « Yam's ! »: stakes 0,5, 1 and 2 €, 1 € by default.
func Yams() Game {
	return Game{Name: yams.Name, Stakes: yams.Stakes(), DefaultStake: decimal.NewFromInt(1)}
}

// Vegas returns « Vegas »: one price, 3 €.
func Vegas() Game {
	return Game{Name: vegas.Name, Stakes: []decimal.Decimal{vegas.Price()}, DefaultStake: vegas.Price()}
}

// Games returns both games.
func Games() []Game { return []Game{Yams(), Vegas()} }

// Find returns the game with the given name.
func Find(name string) (Game, error) {
	for _, g := range Games() {
		if g.Name == strings.ToLower(strings.TrimSpace(name)) {
			return g, nil
		}
	}
	return Game{}, fmt.Errorf("game %q is not yams or vegas", name)
}

// FindSeq returns the game of a sequence key, whose stake must be one of
// the game's: the key names a sequence the shop may sell. The game's name
// is taken as written, in lowercase.
func FindSeq(k game.SeqKey) (Game, error) {
	g, err := Find(k.Game)
	if err != nil || g.Name != k.Game {
		return Game{}, fmt.Errorf("game %q is not yams or vegas", k.Game)
	}
	if g.StakeIndex(k.Stake) < 0 {
		return g, fmt.Errorf("%s is no stake of %s", k.Stake, g.Name)
	}
	return g, nil
}

// Seq returns the key of the game's sequence of blocks at a stake.
func (g Game) Seq(stake decimal.Decimal) game.SeqKey {
	return game.SeqKey{Game: g.Name, Stake: stake}
}

// Stake checks a stake for the game, or returns the default stake when s is
// empty. The stake may use a decimal comma ("0,5").
func (g Game) Stake(s string) (decimal.Decimal, error) {
	if strings.TrimSpace(s) == "" {
		return g.DefaultStake, nil
	}
	d, err := game.ParseAmount(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("stake: %w", err)
	}
	if i := g.StakeIndex(d); i >= 0 {
		return g.Stakes[i], nil
	}
	return decimal.Decimal{}, fmt.Errorf("stake %s is not one of %s for %s", s, joinAmounts(g.Stakes), g.Name)
}

// StakeIndex returns the index of a stake among the game's stakes, or -1.
func (g Game) StakeIndex(stake decimal.Decimal) int {
	for i, v := range g.Stakes {
		if v.Equal(stake) {
			return i
		}
	}
	return -1
}

// Table returns the game's lot table at a stake.
func (g Game) Table(stake decimal.Decimal) (*game.Table, error) {
	if g.Name == vegas.Name {
		if !stake.Equal(vegas.Price()) {
			return nil, fmt.Errorf("stake %s is not the ticket's price, 3", stake)
		}
		return vegas.Table(), nil
	}
	return yams.Table(stake)
}

// Deal deals a layout showing the lot of a tier of the game's table at the
// stake, from the random source r.
func (g Game) Deal(r *rand.Rand, stake decimal.Decimal, tier int) Layout {
	if g.Name == vegas.Name {
		t := &vegas.Ticket{}
		vegas.Deal(r, tier, t)
		return Layout{Vegas: t}
	}
	u := &yams.Unit{Stake: stake}
	yams.Deal(r, tier, u)
	return Layout{Yams: u}
}

// DealUnit deals the presentation of a unit sold from a block, from the
// random source its identity gives (ruling G5).
func (g Game) DealUnit(u game.Unit) Layout {
	return g.Deal(u.Seed.UnitRand(u.ID.Serial), u.ID.Stake, u.Tier)
}

func joinAmounts(ds []decimal.Decimal) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}

// Layout is one unit of either game as the player sees it: exactly one of
// its fields is set.
type Layout struct {
	Yams  *yams.Unit
	Vegas *vegas.Ticket
}

// Game returns the layout's game name.
func (l Layout) Game() string {
	if l.Vegas != nil {
		return vegas.Name
	}
	return yams.Name
}

// Stake returns what the unit costs.
func (l Layout) Stake() decimal.Decimal {
	if l.Vegas != nil {
		return vegas.Price()
	}
	return l.Yams.Stake
}

// Score scores the layout by the letter of its regulation.
func (l Layout) Score() Score {
	if l.Vegas != nil {
		s := l.Vegas.Score()
		return Score{Vegas: &s}
	}
	s := l.Yams.Score()
	return Score{Yams: &s}
}

// MarshalJSON writes the layout in the format of interface.md.
func (l Layout) MarshalJSON() ([]byte, error) {
	if l.Vegas != nil {
		return l.Vegas.MarshalJSON()
	}
	return l.Yams.MarshalJSON()
}

// Score is a layout's score: exactly one of its fields is set.
type Score struct {
	Yams  *yams.Score
	Vegas *vegas.Score
}

// Prize returns what the layout pays.
func (s Score) Prize() decimal.Decimal { return s.Cents().Decimal() }

// Cents returns what the layout pays, in cents.
func (s Score) Cents() game.Cents {
	if s.Vegas != nil {
		return s.Vegas.Prize
	}
	return s.Yams.Prize
}

// MarshalJSON writes the score in the format of interface.md.
func (s Score) MarshalJSON() ([]byte, error) {
	if s.Vegas != nil {
		return s.Vegas.MarshalJSON()
	}
	return s.Yams.MarshalJSON()
}
