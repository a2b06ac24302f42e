package game

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// UnitID names a unit sold from a block: GAME:STAKE:BLOCK:SERIAL, for example
// yams:0.5:1:48213. Blocks and serials count from 1; the serial is the rank of
// the sale within its block.
type UnitID struct {
	Game   string
	Stake  decimal.Decimal
	Block  int64
	Serial int64
}

// String formats the identity as GAME:STAKE:BLOCK:SERIAL.
func (id UnitID) String() string {
	return fmt.Sprintf("%s:%s:%d:%d", id.Game, id.Stake.String(), id.Block, id.Serial)
}

// ParseUnitID reads an identity written as GAME:STAKE:BLOCK:SERIAL. The stake
// may use a decimal comma.
func ParseUnitID(s string) (UnitID, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 4 {
		return UnitID{}, fmt.Errorf("unit %q: want GAME:STAKE:BLOCK:SERIAL", s)
	}
	stake, err := ParsePlainAmount(parts[1])
	if err != nil {
		return UnitID{}, fmt.Errorf("unit %q: stake: %w", s, err)
	}
	block, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || block < 1 {
		return UnitID{}, fmt.Errorf("unit %q: block %q is not a number from 1", s, parts[2])
	}
	serial, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil || serial < 1 {
		return UnitID{}, fmt.Errorf("unit %q: serial %q is not a number from 1", s, parts[3])
	}
	return UnitID{Game: parts[0], Stake: stake, Block: block, Serial: serial}, nil
}

// Unit is one unit sold: its identity, the tier of the lot drawn for it, its
// prize, and the seed of its block, from which its presentation is dealt.
type Unit struct {
	ID    UnitID
	Tier  int
	Prize decimal.Decimal
	Seed  BlockSeed
}
