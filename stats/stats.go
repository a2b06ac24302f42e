// Package stats keeps a playing session's figures, fed unit by unit: the
// balance over time, and for each game and stake the units by lot against
// the share of each lot in the regulation's lot table (art. 3), and the
// return so far against the table's payout rate. Money is exact
// (decimal.Decimal); memory is bounded however long the session.
package stats

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
)

// Unit is one unit played, as the session saw it.
type Unit struct {
	Game    string          // the game's name: "yams", "vegas"
	Stake   decimal.Decimal // what the unit cost
	Prize   decimal.Decimal // what it paid (zero when it lost)
	Balance decimal.Decimal // the balance just after it
	Forced  bool            // a forced unit (QA, demo; ruling G6): counted in the money, not in the lots
	At      time.Time       // when it was played
}

// Key names a sequence of units: a game and a stake, GAME:STAKE as the
// journal and the shop write it ("yams:0.5", "vegas:3").
type Key = game.SeqKey

// Tables gives the lot table of a game at a stake.
type Tables func(g lottery.Game, stake decimal.Decimal) (*game.Table, error)

// DefaultPoints is the most balance points kept when Options.Points is 0.
const DefaultPoints = 2048

// Options says how to keep the figures.
type Options struct {
	Tables Tables // nil: the regulations' tables (lottery.Game.Table)
	Points int    // the most balance points kept, from 4; 0: DefaultPoints
}

// Session holds the figures of one session. It is not safe for concurrent
// use.
type Session struct {
	tables Tables
	seqs   map[string]*sequence
	total  Played
	bal    balance
	first  time.Time
	last   time.Time
	start  *decimal.Decimal // the balance before the first unit, when set
}

// New returns the figures of a session that has played nothing yet.
func New(o Options) (*Session, error) {
	if o.Tables == nil {
		o.Tables = lottery.Game.Table
	}
	if o.Points == 0 {
		o.Points = DefaultPoints
	}
	if o.Points < 4 {
		return nil, fmt.Errorf("stats: %d balance points: want at least 4", o.Points)
	}
	return fresh(o), nil
}

// fresh returns the figures of a session that has played nothing yet, with
// options already checked.
func fresh(o Options) *Session {
	return &Session{tables: o.Tables, seqs: map[string]*sequence{}, bal: balance{limit: o.Points}}
}

// Fresh returns the figures of a session that has played nothing yet, with
// the regulations' tables and DefaultPoints.
func Fresh() *Session {
	return fresh(Options{Tables: lottery.Game.Table, Points: DefaultPoints})
}

// StartAt sets the balance the series starts from, before the first unit,
// when it is not that unit's balance less its prize plus its stake: a
// player's balance that already paid for units to be shown later. Once a
// unit is counted, the series has its start and StartAt changes nothing.
func (s *Session) StartAt(b decimal.Decimal) {
	if s.total.Units == 0 {
		s.start = &b
	}
}

// Add counts a unit played. A unit of an unknown game or stake, a stake
// that is not positive, a negative prize, or (for a unit not forced) a
// prize that is no lot of its table is refused, and nothing is counted.
func (s *Session) Add(u Unit) error {
	k := Key{Game: u.Game, Stake: u.Stake}
	if !u.Stake.IsPositive() {
		return fmt.Errorf("stats: unit of %s: stake %s is not positive", k, u.Stake)
	}
	if u.Prize.IsNegative() {
		return fmt.Errorf("stats: unit of %s: prize %s is negative", k, u.Prize)
	}
	seq, err := s.sequence(k)
	if err != nil {
		return err
	}
	tier := -1
	if !u.Forced {
		t, ok := seq.table.Tier(u.Prize)
		if !ok {
			return fmt.Errorf("stats: unit of %s: prize %s is no lot of its table", k, u.Prize)
		}
		tier = t
	}
	if _, ok := s.seqs[k.String()]; !ok {
		s.seqs[k.String()] = seq
	}
	seq.add(u, tier)
	s.total.add(u)
	if s.total.Units == 1 {
		start := u.Balance.Add(u.Stake).Sub(u.Prize)
		if s.start != nil {
			start = *s.start
		}
		s.bal.add(start)
		s.first = u.At
	}
	s.bal.add(u.Balance)
	s.last = u.At
	return nil
}

func (s *Session) sequence(k Key) (*sequence, error) {
	if seq, ok := s.seqs[k.String()]; ok {
		return seq, nil
	}
	g, err := lottery.Find(k.Game)
	if err != nil || g.Name != k.Game {
		return nil, fmt.Errorf("stats: unit of %s: no such game", k)
	}
	t, err := s.tables(g, k.Stake)
	if err != nil {
		return nil, fmt.Errorf("stats: unit of %s: %w", k, err)
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("stats: %s: %w", k, err)
	}
	return newSequence(k, t), nil
}

// Total returns what the whole session played, staked and won.
func (s *Session) Total() Played { return s.total }

// Span returns when the first and the last unit were played (zero times
// before any unit).
func (s *Session) Span() (first, last time.Time) { return s.first, s.last }

// Balance returns the balance over time, oldest first: the balance before
// the first unit, then the balance after each unit, while there are at most
// Options.Points of them. Beyond that, consecutive balances are grouped in
// buckets of Step (a power of two) and each bucket gives two points, its
// lowest and its highest balance in the order they came, so a spike is
// never lost; the last point is always the balance after the last unit.
// Between Points/2 and Points+1 points are kept however long the session
// (memory is bounded by Points). It is empty before any unit.
func (s *Session) Balance() []decimal.Decimal { return s.bal.points() }

// BalanceFloat64 returns Balance as float64, for a chart.
func (s *Session) BalanceFloat64() []float64 {
	points := s.bal.points()
	fs := make([]float64, len(points))
	for i, p := range points {
		fs[i] = p.InexactFloat64()
	}
	return fs
}

// Step returns how many balances each bucket of Balance groups: 1 (every
// balance is a point) until the series is longer than Options.Points.
func (s *Session) Step() int64 { return s.bal.size }

// Sequences returns the figures of every game and stake played, in the
// order of lottery.Games and by stake, lowest first.
func (s *Session) Sequences() []Figures {
	order := map[string]int{}
	for i, g := range lottery.Games() {
		order[g.Name] = i
	}
	fs := make([]Figures, 0, len(s.seqs))
	for _, seq := range s.seqs {
		fs = append(fs, seq.figures())
	}
	slices.SortFunc(fs, func(a, b Figures) int {
		if c := cmp.Compare(order[a.Key.Game], order[b.Key.Game]); c != 0 {
			return c
		}
		return a.Key.Stake.Cmp(b.Key.Stake)
	})
	return fs
}

// Figures returns the figures of one game and stake, and whether it was
// played.
func (s *Session) Figures(k Key) (Figures, bool) {
	seq, ok := s.seqs[k.String()]
	if !ok {
		return Figures{}, false
	}
	return seq.figures(), true
}

// Played is money played: units, what they cost and what they paid.
type Played struct {
	Units  int64
	Staked decimal.Decimal
	Won    decimal.Decimal
}

func (p *Played) add(u Unit) {
	p.Units++
	p.Staked = p.Staked.Add(u.Stake)
	p.Won = p.Won.Add(u.Prize)
}

// ErrNothingStaked is returned by Played.Return before any unit.
var ErrNothingStaked = errors.New("stats: nothing staked")

// Return returns what the units paid for each euro staked, Won/Staked,
// rounded half away from zero to places decimal places; Won and Staked are
// exact. It fails before any unit.
func (p Played) Return(places int32) (decimal.Decimal, error) {
	if !p.Staked.IsPositive() {
		return decimal.Decimal{}, ErrNothingStaked
	}
	return p.Won.DivRound(p.Staked, places), nil
}
