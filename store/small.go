package store

import (
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
)

// SmallTables are lot tables of 60 units a block, with the regulations'
// lots in their order: blocks that tests and load runs sell out in a
// moment. A store created with them keeps them (Options.Tables).
func SmallTables(g lottery.Game, stake decimal.Decimal) (*game.Table, error) {
	t, err := g.Table(stake)
	if err != nil {
		return nil, err
	}
	counts := []int64{1, 1, 1, 3, 4, 2, 2, 5, 8, 2, 2, 2}
	small := &game.Table{Units: 60}
	for i, l := range t.Lots {
		small.Lots = append(small.Lots, game.Lot{Prize: l.Prize, Count: counts[i%len(counts)]})
	}
	return small, small.Validate()
}
