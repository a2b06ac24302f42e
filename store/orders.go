package store

import (
	"sync"

	"tapis/game"
)

// orders caches the draw order of the blocks a seller sells from, one byte
// a unit, so that dealing serial n of a block is a lookup. A block's order
// is computed once, by the first seller that needs it; the blocks sold out
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

type order struct {
	once  sync.Once
	tiers []uint8
	err   error
}

func newOrders(limit int) *orders {
	return &orders{blocks: map[string]*order{}, limit: max(limit, 4), last: map[string]int64{}}
}

// tier returns the tier of a serial of a block whose seed and table are
// given.
func (o *orders) tier(id game.BlockID, t *game.Table, seed game.BlockSeed, serial int64) (int, error) {
	tiers, err := o.get(id, t, seed)
	if err != nil {
		return 0, err
	}
	return int(tiers[serial-1]), nil
}

// get returns the draw order of a block, which the caller must not change.
func (o *orders) get(id game.BlockID, t *game.Table, seed game.BlockSeed) ([]uint8, error) {
	o.mu.Lock()
	key := id.String()
	ord, ok := o.blocks[key]
	if !ok {
		if len(o.blocks) >= o.limit { // more blocks than are on sale: some were sold out elsewhere
			clear(o.blocks)
		}
		ord = &order{}
		o.blocks[key] = ord
	}
	o.mu.Unlock()
	ord.once.Do(func() { ord.tiers, ord.err = game.DrawOrder(t, seed) })
	return ord.tiers, ord.err
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
