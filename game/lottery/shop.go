package lottery

import (
	"fmt"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// Shop sells units of both games for one session: one sequence of blocks per
// game and stake, all derived from the session's master seed (ruling G5). It
// is not safe for concurrent use; the wallet serialises purchases.
type Shop struct {
	seed   game.Seed
	seqs   map[string]*game.Sequence // by sequence key (game.SeqKey)
	forced map[string]int64          // forced units dealt, by sequence key
	tables func(Game, decimal.Decimal) (*game.Table, error)
}

// NewShop opens a shop whose blocks derive from seed, with the
// regulations' lot tables.
func NewShop(seed game.Seed) *Shop { return NewShopWith(seed, Game.Table) }

// NewShopWith opens a shop whose blocks follow the given lot tables (tests
// use small blocks; the lots must be the regulation's, in its order).
func NewShopWith(seed game.Seed, tables func(Game, decimal.Decimal) (*game.Table, error)) *Shop {
	return &Shop{seed: seed, seqs: map[string]*game.Sequence{}, forced: map[string]int64{}, tables: tables}
}

// Seed returns the session's master seed.
func (s *Shop) Seed() game.Seed { return s.seed }

// Sold is a unit sold by the shop and its presentation.
type Sold struct {
	Unit   game.Unit
	Layout Layout
	Forced *Forced // nil for a unit drawn from a block
}

// Sell sells the next unit of a game at a stake and deals its presentation.
func (s *Shop) Sell(g Game, stake decimal.Decimal) (Sold, error) {
	seq, err := s.sequence(g, stake)
	if err != nil {
		return Sold{}, err
	}
	u := seq.Next()
	return Sold{Unit: u, Layout: g.DealUnit(u)}, nil
}

// Mark returns a function that puts the shop back as it stands now for a
// game and stake: the position in its blocks and its count of forced units.
// A sale that could not be recorded is undone with it.
func (s *Shop) Mark(g Game, stake decimal.Decimal) (undo func(), err error) {
	seq, err := s.sequence(g, stake)
	if err != nil {
		return nil, err
	}
	key := g.Seq(stake).String()
	back, forced := seq.Mark(), s.forced[key]
	return func() {
		back()
		s.forced[key] = forced
	}, nil
}

// Ready returns the block the next unit of a game and stake will come from,
// opening the next block of its sequence if the current one is exhausted.
func (s *Shop) Ready(g Game, stake decimal.Decimal) (*game.Block, error) {
	seq, err := s.sequence(g, stake)
	if err != nil {
		return nil, err
	}
	return seq.Ready(), nil
}

// Resume sets the sequence of a game and stake just after the unit last
// sold, as a journal recorded it.
func (s *Shop) Resume(g Game, last game.UnitID) error {
	t, err := s.tables(g, last.Stake)
	if err != nil {
		return fmt.Errorf("shop: %w", err)
	}
	seq, err := game.Resume(t, s.seed, last)
	if err != nil {
		return fmt.Errorf("shop: %w", err)
	}
	s.seqs[last.Seq().String()] = seq
	return nil
}

// ResumeForced sets how many forced units of a game and stake were dealt.
func (s *Shop) ResumeForced(g Game, stake decimal.Decimal, n int64) {
	s.forced[g.Seq(stake).String()] = n
}

// Peek returns the block the next unit of a game and stake will come from,
// without opening anything: for a sequence not started yet, its first block
// as it will be. It is for display.
func (s *Shop) Peek(g Game, stake decimal.Decimal) (*game.Block, error) {
	seq, ok := s.seqs[g.Seq(stake).String()]
	if ok && seq.Block().Remaining() > 0 {
		return seq.Block(), nil
	}
	t, err := s.tables(g, stake)
	if err != nil {
		return nil, fmt.Errorf("shop: %w", err)
	}
	n := int64(1)
	if ok {
		n = seq.Block().Number() + 1
	}
	return game.NewBlock(t, n, s.seed.Block(g.Name, stake, n)), nil
}

// Block returns the block being sold for a game and stake, opening the
// sequence if it has not sold anything yet.
func (s *Shop) Block(g Game, stake decimal.Decimal) (*game.Block, error) {
	seq, err := s.sequence(g, stake)
	if err != nil {
		return nil, err
	}
	return seq.Block(), nil
}

func (s *Shop) sequence(g Game, stake decimal.Decimal) (*game.Sequence, error) {
	key := g.Seq(stake).String()
	if seq, ok := s.seqs[key]; ok {
		return seq, nil
	}
	t, err := s.tables(g, stake)
	if err != nil {
		return nil, fmt.Errorf("shop: %w", err)
	}
	seq := game.NewSequence(g.Name, stake, t, s.seed)
	s.seqs[key] = seq
	return seq, nil
}
