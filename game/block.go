package game

import (
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"sort"

	"github.com/shopspring/decimal"
)

// Block is one block of an emission (bloc, art. 2): its lot table and what is
// left of it. Each draw takes one unit uniformly at random, without
// replacement, from what is left (ruling G2).
type Block struct {
	table     *Table
	number    int64
	seed      BlockSeed
	left      []int64 // units left per tier
	remaining int64
	order     []int // tiers, most numerous first, to walk them fast
	src       *mrand.ChaCha8
	rng       *mrand.Rand
}

// NewBlock returns a full block numbered n, whose draws follow seed.
func NewBlock(t *Table, n int64, seed BlockSeed) *Block {
	b := &Block{
		table:     t,
		number:    n,
		seed:      seed,
		left:      make([]int64, t.Tiers()),
		remaining: t.Units,
		order:     make([]int, t.Tiers()),
		src:       seed.drawSource(),
	}
	b.rng = mrand.New(b.src)
	for i := range b.left {
		b.left[i] = t.Count(i)
		b.order[i] = i
	}
	sort.SliceStable(b.order, func(i, j int) bool { return b.left[b.order[i]] > b.left[b.order[j]] })
	return b
}

// Draw sells the next unit of the block: it returns the unit's serial and the
// tier drawn for it, or false once the block is exhausted.
func (b *Block) Draw() (serial int64, tier int, ok bool) {
	if b.remaining == 0 {
		return 0, 0, false
	}
	x := b.rng.Int64N(b.remaining)
	for _, t := range b.order {
		if x < b.left[t] {
			tier = t
			break
		}
		x -= b.left[t]
	}
	b.left[tier]--
	b.remaining--
	return b.table.Units - b.remaining, tier, true
}

// Number returns the block's number in its sequence, from 1.
func (b *Block) Number() int64 { return b.number }

// Seed returns the block's seed.
func (b *Block) Seed() BlockSeed { return b.seed }

// Table returns the block's lot table.
func (b *Block) Table() *Table { return b.table }

// Remaining returns the number of units not sold yet.
func (b *Block) Remaining() int64 { return b.remaining }

// Sold returns the number of units sold.
func (b *Block) Sold() int64 { return b.table.Units - b.remaining }

// Left returns the number of units of a tier not sold yet.
func (b *Block) Left(tier int) int64 { return b.left[tier] }

// Sequence is the succession of blocks of one game at one stake: once a
// block is exhausted, the next one starts, full.
type Sequence struct {
	game  string
	stake decimal.Decimal
	table *Table
	seed  Seed
	block *Block
}

// NewSequence starts the sequence of blocks of a game at a stake, with the
// given lot table and master seed, at block 1.
func NewSequence(game string, stake decimal.Decimal, t *Table, seed Seed) *Sequence {
	s := &Sequence{game: game, stake: stake, table: t, seed: seed}
	s.block = NewBlock(t, 1, seed.Block(game, stake, 1))
	return s
}

// Ready returns the block the next unit will come from: the current block,
// or the next one, opened full, once the current one is exhausted. A block's
// commitment can thus be published before its first sale.
func (s *Sequence) Ready() *Block {
	if s.block.Remaining() == 0 {
		n := s.block.number + 1
		s.block = NewBlock(s.table, n, s.seed.Block(s.game, s.stake, n))
	}
	return s.block
}

// Next sells the next unit of the sequence.
func (s *Sequence) Next() Unit {
	serial, tier, _ := s.Ready().Draw()
	return Unit{
		ID:    UnitID{Game: s.game, Stake: s.stake, Block: s.block.number, Serial: serial},
		Tier:  tier,
		Prize: s.table.Prize(tier),
		Seed:  s.block.seed,
	}
}

// Block returns the block being sold.
func (s *Sequence) Block() *Block { return s.block }

// Table returns the sequence's lot table.
func (s *Sequence) Table() *Table { return s.table }

// Mark returns a function that puts the sequence back as it stands now: its
// block, what is left of it and its stream of draws. A sale that could not
// be recorded is undone with it, and leaves no trace.
func (s *Sequence) Mark() (undo func()) {
	b := s.block
	left, remaining := slices.Clone(b.left), b.remaining
	state, err := b.src.MarshalBinary()
	if err != nil {
		panic(fmt.Sprintf("game: saving a block's draws: %v", err)) // ChaCha8 always marshals
	}
	return func() {
		s.block = b
		copy(b.left, left)
		b.remaining = remaining
		if err := b.src.UnmarshalBinary(state); err != nil {
			panic(fmt.Sprintf("game: restoring a block's draws: %v", err))
		}
	}
}

// Resume returns the sequence of a game and stake as it stands after
// selling the unit with the given identity (the last one a journal
// recorded): Next then sells the unit after it.
func Resume(t *Table, seed Seed, last UnitID) (*Sequence, error) {
	s, err := SequenceAt(t, seed, last)
	if err != nil {
		return nil, err
	}
	s.Next()
	return s, nil
}

// SequenceAt returns the sequence of blocks of the unit's game and stake,
// started from the master seed, as it stands just before selling that unit:
// its block has sold serial-1 units. Next then sells the unit itself. This is
// how any unit of a seeded session is found again.
func SequenceAt(t *Table, seed Seed, id UnitID) (*Sequence, error) {
	if id.Block < 1 || id.Serial < 1 || id.Serial > t.Units {
		return nil, fmt.Errorf("unit %s: block %d, serial %d: not in a block of %d units", id, id.Block, id.Serial, t.Units)
	}
	s := &Sequence{game: id.Game, stake: id.Stake, table: t, seed: seed}
	s.block = NewBlock(t, id.Block, seed.Block(id.Game, id.Stake, id.Block))
	for range id.Serial - 1 {
		s.block.Draw()
	}
	return s, nil
}
