package game

import (
	"math/bits"
	"math/rand/v2"
)

// Source is the stream of random words a unit is dealt from: a *rand.Rand
// (SourceOf), or a unit's own PCG read directly (PCGSource), as an audit
// deals its millions of units. Both give the same words, and the bounded
// draws below are math/rand/v2's own, so a unit dealt from PCGSource(p) is
// the very unit dealt from rand.New(p); only the cost differs: a PCG read
// directly is inlined, where a *rand.Rand calls its source through an
// interface (and keeps it on the heap).
type Source struct {
	pcg *rand.PCG  // the source when it is a PCG read directly
	r   *rand.Rand // the source otherwise
}

// SourceOf returns the Source that draws from r.
func SourceOf(r *rand.Rand) Source { return Source{r: r} }

// PCGSource returns the Source that draws from p directly: the words
// rand.New(p) would give.
func PCGSource(p *rand.PCG) Source { return Source{pcg: p} }

// Uint64 returns the next word of the source.
func (s Source) Uint64() uint64 {
	if s.pcg != nil {
		return s.pcg.Uint64()
	}
	return s.r.Uint64()
}

// IntN returns a number uniform in [0, n), as (*rand.Rand).IntN draws it
// from the same words (Uint64N). n must be positive.
func (s Source) IntN(n int) int { return int(s.Uint64N(uint64(n))) }

// Uint64N returns a number uniform in [0, n), drawn as (*rand.Rand).Uint64N,
// Int64N and IntN draw it, word for word: a power of two masks one word;
// any other n takes the high word of a word times n (Lemire), refusing, and
// drawing again, the 2⁶⁴ mod n words whose low word would favour some
// results. (On 32-bit platforms math/rand/v2 computes the same in 32-bit
// halves, to the same results.) n must be positive.
func (s Source) Uint64N(n uint64) uint64 {
	if n&(n-1) == 0 {
		return s.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(s.Uint64(), n)
	if lo < n {
		for thresh := -n % n; lo < thresh; {
			hi, lo = bits.Mul64(s.Uint64(), n)
		}
	}
	return hi
}
