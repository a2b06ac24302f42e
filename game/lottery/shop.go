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
	seqs   map[string]*game.Sequence
	forced map[string]int64 // forced units dealt, by game and stake
}

// NewShop opens a shop whose blocks derive from seed.
func NewShop(seed game.Seed) *Shop {
	return &Shop{seed: seed, seqs: map[string]*game.Sequence{}, forced: map[string]int64{}}
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
	key := g.Name + ":" + stake.String()
	if seq, ok := s.seqs[key]; ok {
		return seq, nil
	}
	t, err := g.Table(stake)
	if err != nil {
		return nil, fmt.Errorf("shop: %w", err)
	}
	seq := game.NewSequence(g.Name, stake, t, s.seed)
	s.seqs[key] = seq
	return seq, nil
}
