package game

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// SeqKey names the sequence of blocks of one game at one stake:
// GAME:STAKE, for example yams:0.5 or vegas:3. The stake is written as
// decimal.Decimal writes it, without trailing zeros.
type SeqKey struct {
	Game  string
	Stake decimal.Decimal
}

// String formats the key as GAME:STAKE.
func (k SeqKey) String() string { return k.Game + ":" + k.Stake.String() }

// Block returns the identity of block number n of the sequence.
func (k SeqKey) Block(n int64) BlockID { return BlockID{Game: k.Game, Stake: k.Stake, Block: n} }

// ParseSeqKey reads a key written as GAME:STAKE. The stake may use a
// decimal comma; String gives the key as tapis writes it.
func ParseSeqKey(s string) (SeqKey, error) {
	k, _, err := parseKey("sequence", s, "GAME:STAKE", 2)
	return k, err
}

// ReadSeqKey reads a sequence's key from its two fields, a game's name
// and a stake written as ParsePlainAmount reads it (a store's columns),
// with the checks ParseSeqKey makes of GAME:STAKE.
func ReadSeqKey(gameName, stake string) (SeqKey, error) {
	if strings.Contains(gameName, ":") {
		return SeqKey{}, fmt.Errorf("sequence of game %q: a game's name holds no colon", gameName)
	}
	if gameName == "" {
		return SeqKey{}, fmt.Errorf("sequence %q: the game is missing", ":"+stake)
	}
	s, err := ParsePlainAmount(stake)
	if err != nil {
		return SeqKey{}, fmt.Errorf("sequence %q: stake: %w", gameName+":"+stake, err)
	}
	return SeqKey{Game: gameName, Stake: s}, nil
}

// BlockID names a block of a sequence: GAME:STAKE:BLOCK, for example
// yams:0.5:1 (blocks count from 1). Journals name the blocks they commit
// and reveal this way.
type BlockID struct {
	Game  string
	Stake decimal.Decimal
	Block int64
}

// String formats the identity as GAME:STAKE:BLOCK.
func (id BlockID) String() string { return id.Seq().String() + ":" + strconv.FormatInt(id.Block, 10) }

// Seq returns the key of the block's sequence.
func (id BlockID) Seq() SeqKey { return SeqKey{Game: id.Game, Stake: id.Stake} }

// ParseBlockID reads an identity written as GAME:STAKE:BLOCK. The stake may
// use a decimal comma; String gives the identity as tapis writes it.
func ParseBlockID(s string) (BlockID, error) {
	k, parts, err := parseKey("block", s, "GAME:STAKE:BLOCK", 3)
	if err != nil {
		return BlockID{}, err
	}
	n, err := parseCount("block", s, "block", parts[2])
	if err != nil {
		return BlockID{}, err
	}
	return k.Block(n), nil
}

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
	return id.BlockID().String() + ":" + strconv.FormatInt(id.Serial, 10)
}

// Seq returns the key of the unit's sequence.
func (id UnitID) Seq() SeqKey { return SeqKey{Game: id.Game, Stake: id.Stake} }

// BlockID returns the identity of the unit's block.
func (id UnitID) BlockID() BlockID { return BlockID{Game: id.Game, Stake: id.Stake, Block: id.Block} }

// ParseUnitID reads an identity written as GAME:STAKE:BLOCK:SERIAL. The stake
// may use a decimal comma; String gives the identity as tapis writes it.
func ParseUnitID(s string) (UnitID, error) {
	k, parts, err := parseKey("unit", s, "GAME:STAKE:BLOCK:SERIAL", 4)
	if err != nil {
		return UnitID{}, err
	}
	block, err := parseCount("unit", s, "block", parts[2])
	if err != nil {
		return UnitID{}, err
	}
	serial, err := parseCount("unit", s, "serial", parts[3])
	if err != nil {
		return UnitID{}, err
	}
	return UnitID{Game: k.Game, Stake: k.Stake, Block: block, Serial: serial}, nil
}

// parseKey splits s, a kind of name of the given form, into its n fields
// and reads the first two, GAME:STAKE.
func parseKey(kind, s, form string, n int) (SeqKey, []string, error) {
	parts := strings.Split(s, ":")
	if len(parts) != n {
		return SeqKey{}, nil, fmt.Errorf("%s %q: want %s", kind, s, form)
	}
	if parts[0] == "" {
		return SeqKey{}, nil, fmt.Errorf("%s %q: the game is missing", kind, s)
	}
	stake, err := ParsePlainAmount(parts[1])
	if err != nil {
		return SeqKey{}, nil, fmt.Errorf("%s %q: stake: %w", kind, s, err)
	}
	return SeqKey{Game: parts[0], Stake: stake}, parts, nil
}

// parseCount reads a field of a name that counts from 1: a block or a
// serial.
func parseCount(kind, s, what, field string) (int64, error) {
	n, err := strconv.ParseInt(field, 10, 64)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(field, "-") {
		return 0, fmt.Errorf("%s %q: %s %s is too large (at most %d)", kind, s, what, field, int64(math.MaxInt64))
	}
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s %q: %s %q is not a number from 1", kind, s, what, field)
	}
	return n, nil
}

// Unit is one unit sold: its identity, the tier of the lot drawn for it, its
// prize, and the seed of its block, from which its presentation is dealt.
type Unit struct {
	ID    UnitID
	Tier  int
	Prize decimal.Decimal
	Seed  BlockSeed
}
