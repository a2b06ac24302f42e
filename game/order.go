package game

import "fmt"

// DrawOrder returns the tier of every unit of a block, serial 1 first: the
// order in which the block's seed draws its lots, one byte a unit. The unit
// of serial n is fixed by the seed alone, so sellers that share a block
// only share its count of units sold, each dealing its own serials from
// this order. The table has at most 256 tiers.
func DrawOrder(t *Table, seed BlockSeed) ([]uint8, error) {
	if t.Tiers() > 256 {
		return nil, fmt.Errorf("draw order: %d tiers do not fit a byte", t.Tiers())
	}
	b := NewBlock(t, 1, seed)
	order := make([]uint8, t.Units)
	for i := range order {
		_, tier, _ := b.Draw()
		order[i] = uint8(tier)
	}
	return order, nil
}
