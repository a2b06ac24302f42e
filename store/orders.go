package store

import (
	"sync"

	"tapis/game"
)

// orders caches the draw order of the blocks a seller sells from, one byte
// a unit, so that dealing serial n of a block is a lookup. A block's order
// is computed once, by the first seller that needs it; the blocks sold out
// are let go.
type orders struct {
	mu     sync.Mutex
	blocks map[game.BlockID]*order
	limit  int // the blocks kept at most
}

type order struct {
	once  sync.Once
	tiers []uint8
	err   error
}

func newOrders(limit int) *orders {
	return &orders{blocks: map[game.BlockID]*order{}, limit: max(limit, 4)}
}

// tier returns the tier of a serial of a block whose seed and table are
// given.
func (o *orders) tier(id game.BlockID, t *game.Table, seed game.BlockSeed, serial int64) (int, error) {
	o.mu.Lock()
	ord, ok := o.blocks[id]
	if !ok {
		if len(o.blocks) >= o.limit { // more blocks than are on sale: some were sold out elsewhere
			clear(o.blocks)
		}
		ord = &order{}
		o.blocks[id] = ord
	}
	o.mu.Unlock()
	ord.once.Do(func() { ord.tiers, ord.err = game.DrawOrder(t, seed) })
	if ord.err != nil {
		return 0, ord.err
	}
	return int(ord.tiers[serial-1]), nil
}

// drop lets a sold-out block go.
func (o *orders) drop(id game.BlockID) {
	o.mu.Lock()
	delete(o.blocks, id)
	o.mu.Unlock()
}
