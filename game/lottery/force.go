package lottery

import (
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
)

// Force says how a forced unit (QA, demo: ruling G6) is dealt. Exactly one
// of its fields is set.
type Force struct {
	Tier   *int                 // a lot of the game's table at the stake, or its losing tier
	Total  *int                 // Yam's: an exact points total, 0 to 150
	Combos *[3]yams.Combination // Yam's: the combination of each cup
	Split  *vegas.Split         // Vegas: what each surface pays, a split of a lot
	Layout *Layout              // an exact layout, shown as it is
}

// StakeOr returns the stake a forced unit is played at: a layout brings its
// own; any other force plays at the stake chosen.
func (f Force) StakeOr(chosen decimal.Decimal) decimal.Decimal {
	if f.Layout != nil {
		return f.Layout.Stake()
	}
	return chosen
}

// Describe says what the force deals, for the screens.
func (f Force) Describe() string {
	switch {
	case f.Tier != nil:
		return fmt.Sprintf("tier %d", *f.Tier)
	case f.Total != nil:
		return fmt.Sprintf("%d points", *f.Total)
	case f.Combos != nil:
		return fmt.Sprintf("%s / %s / %s", f.Combos[0], f.Combos[1], f.Combos[2])
	case f.Split != nil:
		return fmt.Sprintf("%d + %d + %d + %d", f.Split[0], f.Split[1], f.Split[2], f.Split[3])
	case f.Layout != nil:
		return "layout"
	}
	return "nothing"
}

// Forced marks a sold unit that was forced: its label (QA, DEMO) and its
// rank among the forced units of its game and stake.
type Forced struct {
	Label  string
	Serial int64
}

// Name returns the unit's name: its identity GAME:STAKE:BLOCK:SERIAL, or
// GAME:STAKE:LABEL:N for a forced unit, which belongs to no block.
func (s Sold) Name() string {
	if s.Forced == nil {
		return s.Unit.ID.String()
	}
	return fmt.Sprintf("%s:%s:%s:%d", s.Unit.ID.Game, s.Unit.ID.Stake, s.Forced.Label, s.Forced.Serial)
}

// Force deals a forced unit of a game at a stake: it is taken from no block,
// so no block's counts change, and its presentation comes from the seed's
// stream of forced units. Its prize is what its layout scores. A forced
// layout sets its own stake. label marks it (QA, DEMO).
func (s *Shop) Force(g Game, stake decimal.Decimal, f Force, label string) (Sold, error) {
	if f.Layout != nil {
		if f.Layout.Game() != g.Name {
			return Sold{}, fmt.Errorf("force: a %s layout cannot be played as %s", f.Layout.Game(), g.Name)
		}
	}
	stake = f.StakeOr(stake)
	table, err := g.Table(stake)
	if err != nil {
		return Sold{}, fmt.Errorf("force: %w", err)
	}
	key := g.Name + ":" + stake.String()
	n := s.forced[key] + 1 // counted once dealt
	r := s.seed.Forced(g.Name, stake).UnitRand(n)
	var l Layout
	switch {
	case f.Layout != nil:
		l = *f.Layout
	case f.Tier != nil:
		if *f.Tier < 0 || *f.Tier >= table.Tiers() {
			return Sold{}, fmt.Errorf("force: no tier %d in the %s table", *f.Tier, g.Name)
		}
		l = g.Deal(r, stake, *f.Tier)
	case f.Total != nil && g.Name == yams.Name:
		u := &yams.Unit{Stake: stake}
		if !yams.DealTotal(r, *f.Total, u) {
			return Sold{}, fmt.Errorf("force: no three cups make %d points", *f.Total)
		}
		l = Layout{Yams: u}
	case f.Combos != nil && g.Name == yams.Name:
		u := &yams.Unit{Stake: stake}
		yams.DealCombinations(r, *f.Combos, u)
		l = Layout{Yams: u}
	case f.Split != nil && g.Name == vegas.Name:
		t := &vegas.Ticket{}
		if !vegas.DealSplit(r, *f.Split, t) {
			return Sold{}, fmt.Errorf("force: split %v cannot be dealt", *f.Split)
		}
		l = Layout{Vegas: t}
	default:
		return Sold{}, errors.New("force: nothing to deal for this game")
	}
	s.forced[key] = n
	prize := l.Score().Prize()
	tier, ok := table.Tier(prize)
	if !ok {
		tier = -1 // a layout may pay what no lot pays
	}
	return Sold{
		Unit:   game.Unit{ID: game.UnitID{Game: g.Name, Stake: stake}, Tier: tier, Prize: prize},
		Layout: l,
		Forced: &Forced{Label: label, Serial: n},
	}, nil
}
