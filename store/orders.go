package store

import (
	"fmt"
	"slices"
	"sync"

	"tapis/game"
)

// orders caches the draw order of the blocks a seller sells from, one byte
// a unit, so that dealing serial n of a block is a lookup. A block's order
// is drawn once, as far as the seller's sales need it; the blocks sold out
// are let go. It also keeps the block of each sequence the seller sold
// from last, which it asks for first (on PostgreSQL, where sellers take
// blocks no other holds): a seller then stays on a block of its own, and
// computes the order of few blocks, not of every block on sale.
type orders struct {
	mu     sync.Mutex
	blocks map[string]*order // by block (game.BlockID as its String writes it)
	limit  int               // the blocks kept at most
	last   map[string]int64  // the block sold from last, by sequence (game.SeqKey's String)
}

// order is a block's draw order, drawn as far as a seller needed it: a
// seller that sells serial n of a block needs the first n draws only, and
// a block's first sales cost no drawing of all its units.
type order struct {
	mu    sync.Mutex
	block *game.Block // the draws, from where tiers ends
	tiers []uint8
	err   error
}

// drawOrderChunk is the least a seller draws ahead of the serial it needs.
const drawOrderChunk = 4096

func newOrders(limit int) *orders {
	return &orders{blocks: map[string]*order{}, limit: max(limit, 4), last: map[string]int64{}}
}

// tier returns the tier of a serial of a block whose seed and table are
// given.
func (o *orders) tier(id game.BlockID, t *game.Table, seed game.BlockSeed, serial int64) (int, error) {
	if serial < 1 || serial > t.Units {
		return 0, fmt.Errorf("block %s has no serial %d", id, serial)
	}
	tiers, err := o.entry(id).upTo(t, seed, min(t.Units, max(serial, drawOrderChunk)))
	if err != nil {
		return 0, err
	}
	return int(tiers[serial-1]), nil
}

// get returns the whole draw order of a block, which the caller must not
// change.
func (o *orders) get(id game.BlockID, t *game.Table, seed game.BlockSeed) ([]uint8, error) {
	return o.entry(id).upTo(t, seed, t.Units)
}

// entry returns a block's order, drawn as far as it was.
func (o *orders) entry(id game.BlockID) *order {
	o.mu.Lock()
	defer o.mu.Unlock()
	key := id.String()
	ord, ok := o.blocks[key]
	if !ok {
		if len(o.blocks) >= o.limit { // more blocks than are on sale: some were sold out elsewhere
			clear(o.blocks)
		}
		ord = &order{}
		o.blocks[key] = ord
	}
	return ord
}

// upTo draws the block's order up to serial n at least (doubling what it
// drew, so that a seller following its block draws each unit once), as
// game.DrawOrder draws it, and returns what it drew.
func (ord *order) upTo(t *game.Table, seed game.BlockSeed, n int64) ([]uint8, error) {
	ord.mu.Lock()
	defer ord.mu.Unlock()
	if ord.err != nil || int64(len(ord.tiers)) >= n {
		return ord.tiers, ord.err
	}
	if ord.block == nil {
		if t.Tiers() > 256 {
			ord.err = fmt.Errorf("draw order: %d tiers do not fit a byte", t.Tiers())
			return nil, ord.err
		}
		ord.block = game.NewBlock(t, 1, seed)
	}
	n = min(t.Units, max(n, 2*int64(len(ord.tiers))))
	ord.tiers = slices.Grow(ord.tiers, int(n)-len(ord.tiers))
	for int64(len(ord.tiers)) < n {
		_, tier, _ := ord.block.Draw()
		ord.tiers = append(ord.tiers, uint8(tier))
	}
	if n == t.Units {
		ord.block = nil // all drawn
	}
	return ord.tiers, nil
}

// drop lets a sold-out block go.
func (o *orders) drop(id game.BlockID) {
	o.mu.Lock()
	delete(o.blocks, id.String())
	o.mu.Unlock()
}

// soldFrom notes the block a sale came from.
func (o *orders) soldFrom(id game.BlockID) {
	o.mu.Lock()
	o.last[id.Seq().String()] = id.Block
	o.mu.Unlock()
}

// preferred returns the block of a sequence the seller sold from last; 0
// (no block) when none.
func (o *orders) preferred(seq game.SeqKey) int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.last[seq.String()]
}
