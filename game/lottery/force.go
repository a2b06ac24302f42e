package lottery

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

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

// Forced marks a sold unit that was forced: its label (QA, DEMO: capital
// letters) and its rank among the forced units of its game and stake.
type Forced struct {
	Label  string
	Serial int64
}

// Ref is a sold unit's identity, carried as it is from the screen that
// shows the unit to the store that marks it shown: a unit of a block (ID),
// or a forced unit, which belongs to no block (ID's game and stake, and
// Forced).
type Ref struct {
	ID     game.UnitID
	Forced *Forced // nil for a unit of a block
}

// Ref returns the unit's identity.
func (s Sold) Ref() Ref { return Ref{ID: s.Unit.ID, Forced: s.Forced} }

// Name returns the unit's name: its identity GAME:STAKE:BLOCK:SERIAL, or
// GAME:STAKE:LABEL:N for a forced unit. ParseName reads it back.
func (s Sold) Name() string { return s.Ref().Name() }

// Name returns the name of the unit: GAME:STAKE:BLOCK:SERIAL, or
// GAME:STAKE:LABEL:N for a forced unit, as journals and stores write it.
func (r Ref) Name() string {
	if r.Forced == nil {
		return r.ID.String()
	}
	return r.ID.Seq().String() + ":" + r.Forced.Label + ":" + strconv.FormatInt(r.Forced.Serial, 10)
}

// ParseName reads a unit's name as Sold.Name writes it: a unit from a
// block, GAME:STAKE:BLOCK:SERIAL, or a forced unit, GAME:STAKE:LABEL:N,
// whose label is in capital letters (QA, DEMO). It returns the unit's
// identity (for a forced unit, its game and stake only) and, for a forced
// unit, its label and rank. The game and stake are not checked against the
// games: FindSeq does that.
func ParseName(name string) (game.UnitID, *Forced, error) {
	rest, n, ok := cutLast(name)
	key, label, ok2 := cutLast(rest)
	if !ok || !ok2 || !isLabel(label) {
		id, err := game.ParseUnitID(name) // a unit from a block, or its error
		return id, nil, err
	}
	k, err := game.ParseSeqKey(key)
	if err != nil {
		return game.UnitID{}, nil, fmt.Errorf("forced unit %q: %w", name, err)
	}
	serial, err := strconv.ParseInt(n, 10, 64)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(n, "-") {
		return game.UnitID{}, nil, fmt.Errorf("forced unit %q: %s is too large (at most %d)", name, n, int64(math.MaxInt64))
	}
	if err != nil || serial < 1 {
		return game.UnitID{}, nil, fmt.Errorf("forced unit %q: %q is not a number from 1", name, n)
	}
	return game.UnitID{Game: k.Game, Stake: k.Stake}, &Forced{Label: label, Serial: serial}, nil
}

// isLabel reports whether s may label forced units: capital letters.
func isLabel(s string) bool {
	for _, c := range s {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return s != ""
}

// cutLast cuts s around its last colon.
func cutLast(s string) (before, after string, found bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// Stake returns the stake a forced unit is played at: a layout brings its
// own; anything else is played at the stake chosen.
func (f Force) Stake(chosen decimal.Decimal) decimal.Decimal {
	if f.Layout != nil {
		return f.Layout.Stake()
	}
	return chosen
}

// Force deals a forced unit of a game at a stake: it is taken from no block,
// so no block's counts change, and its presentation comes from the seed's
// stream of forced units. Its prize is what its layout scores. A forced
// layout sets its own stake (Force.Stake). label marks it (QA, DEMO).
func (s *Shop) Force(g Game, stake decimal.Decimal, f Force, label string) (Sold, error) {
	if f.Layout != nil && f.Layout.Game() != g.Name {
		return Sold{}, fmt.Errorf("force: a %s layout cannot be played as %s", f.Layout.Game(), g.Name)
	}
	stake = f.Stake(stake)
	table, err := g.Table(stake)
	if err != nil {
		return Sold{}, fmt.Errorf("force: %w", err)
	}
	key := g.Seq(stake).String()
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
		Unit:   game.Unit{ID: game.UnitID{Game: g.Name, Stake: stake}, Tier: tier, Prize: prize}, // no block, no serial
		Layout: l,
		Forced: &Forced{Label: label, Serial: n},
	}, nil
}
