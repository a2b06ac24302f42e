package game

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	mrand "math/rand/v2"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Seed is the master seed of a session or of a command-line run. Every
// block's seed, and through it every draw and every presentation, derives
// from it (ruling G5).
type Seed uint64

// RandomSeed draws a master seed from the operating system's secure source.
func RandomSeed() (Seed, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("reading a random seed: %w", err)
	}
	return Seed(binary.LittleEndian.Uint64(b[:])), nil
}

// ParseSeed reads a master seed: a whole number from 0 to 2⁶⁴−1.
func ParseSeed(s string) (Seed, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is too large: a seed is at most %d", s, uint64(math.MaxUint64))
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number from 0", s)
	}
	return Seed(n), nil
}

// BlockSeed is the secret seed of one block: it fixes the order in which the
// block's lots are drawn and the presentation of each of its units.
type BlockSeed [32]byte

// Block derives the seed of block number n of the sequence of a game and
// stake.
func (s Seed) Block(game string, stake decimal.Decimal, n int64) BlockSeed {
	return s.derive("block", game, stake, n)
}

// Forced derives the seed from which forced units (QA, demo, deal --prize)
// of a game and stake take their presentations; serials then count the
// forced units. Forced units never come from a real block (ruling G6).
func (s Seed) Forced(game string, stake decimal.Decimal) BlockSeed {
	return s.derive("forced", game, stake, 0)
}

func (s Seed) derive(kind, game string, stake decimal.Decimal, n int64) BlockSeed {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(s))
	h.Write([]byte("tapis/" + kind + "\x00"))
	h.Write(b[:])
	h.Write([]byte(game + "\x00" + stake.String() + "\x00"))
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	h.Write(b[:])
	var out BlockSeed
	h.Sum(out[:0])
	return out
}

// Commitment returns the SHA-256 of the block seed: published before the
// block's first sale, it lets anyone check the seed once it is revealed.
func (b BlockSeed) Commitment() [32]byte { return sha256.Sum256(b[:]) }

// CommitmentHex returns the commitment in hexadecimal, as journals and
// screens show it.
func (b BlockSeed) CommitmentHex() string {
	c := b.Commitment()
	return hex.EncodeToString(c[:])
}

// String returns the seed in hexadecimal.
func (b BlockSeed) String() string { return hex.EncodeToString(b[:]) }

// ParseBlockSeed reads a block's seed as String writes it: 64 hexadecimal
// digits, as a store reveals it once the block is sold out.
func ParseBlockSeed(s string) (BlockSeed, error) {
	var b BlockSeed
	raw, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(raw) != len(b) {
		return b, errors.New("a block's seed is 64 hexadecimal digits")
	}
	copy(b[:], raw)
	return b, nil
}

// SeedUnit resets p to the random stream of the unit with the given serial:
// the same block seed and serial always give the same presentation, whatever
// was dealt before and on whichever core.
func (b BlockSeed) SeedUnit(p *mrand.PCG, serial int64) {
	k0 := binary.LittleEndian.Uint64(b[0:8])
	k1 := binary.LittleEndian.Uint64(b[8:16])
	p.Seed(splitmix(k0^uint64(serial)), splitmix(k1+uint64(serial)*0x9e3779b97f4a7c15))
}

// UnitRand returns a fresh random source for the unit with the given serial.
func (b BlockSeed) UnitRand(serial int64) *mrand.Rand {
	p := new(mrand.PCG)
	b.SeedUnit(p, serial)
	return mrand.New(p)
}

// drawSource returns the stream that orders the block's draws; it is
// independent of the units' streams.
func (b BlockSeed) drawSource() *mrand.ChaCha8 {
	var k [32]byte
	copy(k[:], b[:])
	k[31] ^= 0x5a // separate the draw stream from the seed as published
	return mrand.NewChaCha8(sha256.Sum256(k[:]))
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
