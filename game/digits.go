package game

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Digits hands out several independent uniform numbers taken from one
// uniform draw: a number D drawn uniformly in [0, R), R = n₁·n₂·…, has
// mixed-radix digits that are independent and each uniform in [0, nᵢ). One
// call to the random source then serves a whole shuffle, exactly.
//
// D is held as a 64-bit fraction f, D = ⌊f·R⌋, and read most significant
// digit first by multiply-shift (Lemire), without a division: each digit is
// ⌊f·nᵢ⌋, the high word of f·nᵢ, and f moves on to its fractional part, the
// low word. Integer arithmetic throughout, so the digits are exactly those of
// D: ⌊f·n₁⌋ = ⌊⌊f·R⌋ / (R/n₁)⌋, and so on down.
type Digits struct{ f uint64 }

// DrawDigits draws D uniformly in [0, radix) from r; radix is the product of
// the bases that Next will be asked for, and must be at least 1. As in
// Lemire's bounded draw, the word drawn is refused, and another drawn, when
// it falls in the 2⁶⁴ mod radix values that would make some D more likely
// than others; that is rare (radix/2⁶⁴ at most) and costs the one division.
func DrawDigits(r *rand.Rand, radix uint64) Digits { return SourceOf(r).Digits(radix) }

// Digits draws D uniformly in [0, radix) from s, as DrawDigits draws it
// from a *rand.Rand: the same words give the same digits.
func (s Source) Digits(radix uint64) Digits {
	for {
		var f uint64
		if s.pcg != nil { // as s.Uint64(), the PCG inlined
			f = s.pcg.Uint64()
		} else {
			f = s.r.Uint64()
		}
		if fair(f, radix) {
			return Digits{f}
		}
	}
}

// TwoDigits draws D uniformly in [0, r1), then D' in [0, r2): the words
// and the digits that Digits(r1), then Digits(r2), draw, in one call.
func (s Source) TwoDigits(r1, r2 uint64) (Digits, Digits) {
	if s.pcg == nil {
		return s.Digits(r1), s.Digits(r2)
	}
	// As Digits, twice, the PCG inlined.
	f := s.pcg.Uint64()
	for !fair(f, r1) {
		f = s.pcg.Uint64()
	}
	g := s.pcg.Uint64()
	for !fair(g, r2) {
		g = s.pcg.Uint64()
	}
	return Digits{f}, Digits{g}
}

// fair reports whether Lemire's draw keeps the word f for the given radix:
// whether its low product with the radix falls outside the 2⁶⁴ mod radix
// values refused. The division only runs when the low product is below the
// radix, rarely.
func fair(f, radix uint64) bool {
	_, lo := bits.Mul64(f, radix)
	return lo >= radix || lo >= -radix%radix
}

// Next returns the next digit, uniform in [0, n), and the digits after it:
// v, d = d.Next(n). (A value rather than a pointer method, so that the
// fraction stays in a register from one digit to the next.) The bases asked
// for, in order, must multiply to the radix drawn, or divide it.
func (d Digits) Next(n int) (int, Digits) {
	hi, lo := bits.Mul64(d.f, uint64(n))
	return int(hi), Digits{lo}
}

// Divisor divides by a constant d without a division instruction: it
// multiplies by the reciprocal rounded up, m = ⌈2⁶⁴/d⌉, and keeps the high
// word. That is exact (Granlund and Montgomery, 1994, theorem 4.2: m·d is
// within d of 2⁶⁴) for every x below 2⁶⁴/2ᵏ, where 2ᵏ is the least power of
// two at or above d: Max says how far.
type Divisor struct{ d, m uint64 }

// NewDivisor returns the Divisor of d, from 2 to 2³².
func NewDivisor(d uint64) Divisor {
	if d < 2 || d > 1<<32 {
		panic(fmt.Sprintf("game: divisor %d is not from 2 to 2³²", d))
	}
	return Divisor{d, ^uint64(0)/d + 1}
}

// Max returns the bound below which DivMod is exact.
func (v Divisor) Max() uint64 { return 1 << (64 - bits.Len64(v.d-1)) }

// DivMod returns x/d and x%d, for x below Max.
func (v Divisor) DivMod(x uint64) (q, r uint64) {
	q, _ = bits.Mul64(x, v.m)
	return q, x - q*v.d
}
