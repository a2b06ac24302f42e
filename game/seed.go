package game

import (
	"crypto/hmac"
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

// Seed is the master seed of an emission, a session or a command-line run:
// 256 bits, beyond search (GLI-19). Every block's seed, and through it every
// draw and every presentation, derives from it with HMAC-SHA256 keyed by it
// (ruling G5), so a block's published commitment says nothing of it.
type Seed [32]byte

// RandomSeed draws a master seed from the operating system's secure source.
func RandomSeed() (Seed, error) {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("reading a random seed: %w", err)
	}
	return s, nil
}

// SeedFrom widens a number to a master seed: QA's `--seed 42`, reproducible
// and never secret (anyone can widen 42 again), for tests and replays.
func SeedFrom(n uint64) Seed {
	return sha256.Sum256([]byte("tapis/seed\x00" + strconv.FormatUint(n, 10)))
}

// ParseSeed reads a master seed as String writes it (64 hexadecimal
// digits), or a whole number from 0 to 2⁶⁴−1, widened by SeedFrom.
func ParseSeed(s string) (Seed, error) {
	s = strings.TrimSpace(s)
	if len(s) == 64 {
		if raw, err := hex.DecodeString(s); err == nil {
			return Seed(raw), nil
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return Seed{}, fmt.Errorf("%q is too large: a seed is 64 hexadecimal digits, or a whole number up to %d", s, uint64(math.MaxUint64))
	}
	if err != nil {
		return Seed{}, fmt.Errorf("%q is not a seed: 64 hexadecimal digits, or a whole number from 0", s)
	}
	return SeedFrom(n), nil
}

// String returns the seed in hexadecimal, as ParseSeed reads it.
func (s Seed) String() string { return hex.EncodeToString(s[:]) }

// Commitment is the SHA-256 that an emission seals in place of its seed:
// it names the seed without telling it.
func (s Seed) Commitment() [32]byte {
	h := sha256.New()
	h.Write([]byte("tapis/master\x00"))
	h.Write(s[:])
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Stream returns a random stream for a purpose that deals nothing (the
// screens' animations): derived from the seed, it tells nothing of it.
func (s Seed) Stream(purpose string) *mrand.PCG {
	h := hmac.New(sha256.New, s[:])
	h.Write([]byte("tapis/stream\x00" + purpose))
	d := h.Sum(nil)
	return mrand.NewPCG(binary.LittleEndian.Uint64(d[0:8]), binary.LittleEndian.Uint64(d[8:16]))
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

// derive is HMAC-SHA256 keyed by the master seed, of what the seed is for
// and the block's identity.
func (s Seed) derive(kind, game string, stake decimal.Decimal, n int64) BlockSeed {
	h := hmac.New(sha256.New, s[:])
	h.Write([]byte("tapis/" + kind + "\x00" + game + "\x00" + stake.String() + "\x00"))
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	h.Write(b[:])
	var out BlockSeed
	h.Sum(out[:0])
	return out
}

// Commitment returns the block's commitment: the SHA-256 of its identity
// and its seed. Published before the block's first sale, it lets anyone
// check the seed once it is revealed, and binds it to this one block: a
// seed cannot be shown again as another block's.
func (b BlockSeed) Commitment(id BlockID) [32]byte {
	h := sha256.New()
	h.Write([]byte("tapis/commitment\x00" + id.String() + "\x00"))
	h.Write(b[:])
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// CommitmentHex returns the commitment in hexadecimal, as journals and
// screens show it.
func (b BlockSeed) CommitmentHex(id BlockID) string {
	c := b.Commitment(id)
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
