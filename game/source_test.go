package game

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// bounds returns the bounds the Source tests draw below: every bound up to
// 1 000, the powers of two and their neighbours, bounds just above 2⁶³ and
// near 2⁶⁴, where Lemire's draw refuses up to half the words, and random
// ones of every size.
func bounds(r *rand.Rand) []uint64 {
	var ns []uint64
	for n := uint64(1); n <= 1000; n++ {
		ns = append(ns, n)
	}
	for k := range 64 {
		p := uint64(1) << k
		ns = append(ns, p, p+1, p-1+p) // 2ᵏ, 2ᵏ+1, 2ᵏ⁺¹-1
	}
	ns = append(ns, 1<<63+1, 1<<63+1<<62+1, 1<<63+3, ^uint64(0), ^uint64(0)-1, 3<<62-1)
	for range 2000 {
		ns = append(ns, 1+r.Uint64()>>r.IntN(64))
	}
	return ns
}

// pair returns a PCG and a *rand.Rand over a PCG seeded alike: what the two
// ways of dealing draw from.
func pair(seed uint64) (*rand.PCG, *rand.Rand, *rand.PCG) {
	p, q := rand.NewPCG(seed, ^seed), rand.NewPCG(seed, ^seed)
	return p, rand.New(q), q
}

// TestSourceIsRand checks that Source's bounded draws are math/rand/v2's,
// word for word: for every bound, from many seeds, Uint64N and IntN drawn
// from a PCG directly (PCGSource) and through a *rand.Rand (SourceOf) give
// what rand.Rand's Uint64N, Int64N and IntN give from a PCG seeded alike,
// and leave the stream at the same word.
func TestSourceIsRand(t *testing.T) {
	ns := bounds(rand.New(rand.NewPCG(11, 12)))
	for seed := range uint64(40) {
		p, r, q := pair(seed)
		p2, r2, q2 := pair(seed + 1000)
		s, via := PCGSource(p), SourceOf(rand.New(p2))
		for _, n := range ns {
			want := r.Uint64N(n)
			if got := s.Uint64N(n); got != want {
				t.Fatalf("seed %d: Uint64N(%d) from a PCG: %d, rand.Rand: %d", seed, n, got, want)
			}
			if got, want := via.Uint64N(n), r2.Uint64N(n); got != want {
				t.Fatalf("seed %d: Uint64N(%d) through a Rand: %d, rand.Rand: %d", seed, n, got, want)
			}
			if n <= 1<<62 {
				if got, want := s.IntN(int(n)), r.IntN(int(n)); got != want {
					t.Fatalf("seed %d: IntN(%d): %d, rand.Rand: %d", seed, n, got, want)
				}
				if got, want := int64(s.Uint64N(n)), r.Int64N(int64(n)); got != want {
					t.Fatalf("seed %d: Uint64N(%d): %d, rand.Rand's Int64N: %d", seed, n, got, want)
				}
			}
			if p.Uint64() != q.Uint64() || p2.Uint64() != q2.Uint64() {
				t.Fatalf("seed %d, bound %d: the streams part", seed, n)
			}
		}
	}
}

// TestSourceDigitsAreDrawDigits checks that Digits and TwoDigits, from a
// PCG directly or through a *rand.Rand, draw what DrawDigits draws from a
// *rand.Rand, radices where Lemire refuses many words among them, and leave
// the stream at the same word.
func TestSourceDigitsAreDrawDigits(t *testing.T) {
	ns := bounds(rand.New(rand.NewPCG(13, 14)))
	for seed := range uint64(40) {
		p, r, q := pair(seed)
		v := rand.NewPCG(seed, ^seed)
		direct, via := PCGSource(p), SourceOf(rand.New(v))
		for i, n := range ns {
			m := ns[(i*7+int(seed))%len(ns)]
			a, b := DrawDigits(r, n), DrawDigits(r, m)
			var x, y, x2, y2 Digits
			if i%2 == 0 {
				x, y = direct.TwoDigits(n, m)
				x2, y2 = via.Digits(n), via.Digits(m)
			} else {
				x, y = direct.Digits(n), direct.Digits(m)
				x2, y2 = via.TwoDigits(n, m)
			}
			if x != a || y != b || x2 != a || y2 != b {
				t.Fatalf("seed %d, radices %d %d: from a PCG %#x %#x, through a Rand %#x %#x, DrawDigits %#x %#x",
					seed, n, m, x.f, y.f, x2.f, y2.f, a.f, b.f)
			}
			if w := q.Uint64(); p.Uint64() != w || v.Uint64() != w {
				t.Fatalf("seed %d, radices %d %d: the streams part", seed, n, m)
			}
		}
	}
}

// TestSourceWeights checks that PickFrom and DrawFrom from a PCG directly
// draw what Pick and Draw draw from a *rand.Rand, for tables of every
// length up to 40, light and heavy.
func TestSourceWeights(t *testing.T) {
	g := rand.New(rand.NewPCG(15, 16))
	for seed := range uint64(200) {
		var w Weights
		for range 1 + seed%40 {
			w.Add(1 + g.Uint64()>>(1+g.IntN(63)))
		}
		p, r, q := pair(seed)
		s := PCGSource(p)
		for range 50 {
			i, x := w.Draw(r)
			if j, y := w.DrawFrom(s); i != j || x != y {
				t.Fatalf("seed %d: DrawFrom %d %d, Draw %d %d", seed, j, y, i, x)
			}
			if a, b := w.Pick(r), w.PickFrom(s); a != b {
				t.Fatalf("seed %d: PickFrom %d, Pick %d", seed, b, a)
			}
		}
		if p.Uint64() != q.Uint64() {
			t.Fatalf("seed %d: the streams part", seed)
		}
	}
}

// words is a source handing out the given words in turn, then zeros.
type words struct {
	w []uint64
	n int
}

func (s *words) Uint64() uint64 {
	s.n++
	if s.n > len(s.w) {
		return 0
	}
	return s.w[s.n-1]
}

// inverse returns the inverse of an odd n modulo 2⁶⁴ (Newton's iteration).
func inverse(n uint64) uint64 {
	x := n
	for range 6 {
		x *= 2 - n*x
	}
	return x
}

// lemireDigits is Lemire's draw as DrawDigits made it before Source: the
// reference the Source's refusals are checked against.
func lemireDigits(r *rand.Rand, radix uint64) Digits {
	for {
		f := r.Uint64()
		if _, lo := bits.Mul64(f, radix); lo >= radix || lo >= -radix%radix {
			return Digits{f}
		}
	}
}

// TestSourceRefusesAsRand checks the edge of Lemire's refusal, where random
// words never fall: for odd bounds, the word whose low product is the last
// refused, 2⁶⁴ mod n − 1, then the first kept, 2⁶⁴ mod n. Uint64N and
// Digits (whose test TwoDigits shares) draw from the same words what
// rand.Rand's Uint64N and Lemire's draw draw, and as many.
func TestSourceRefusesAsRand(t *testing.T) {
	for _, n := range []uint64{3, 5, 7, 1001, 1<<32 + 1, 1<<63 + 1, 1<<63 + 1<<62 + 1, ^uint64(0)} {
		thresh := -n % n
		inv := inverse(n)
		script := []uint64{(thresh - 1) * inv, thresh * inv}
		want, wantDigits := &words{w: script}, &words{w: script}
		got, gotDigits := &words{w: script}, &words{w: script}
		a, b := rand.New(want).Uint64N(n), SourceOf(rand.New(got)).Uint64N(n)
		if a != b || want.n != got.n || want.n != 2 {
			t.Errorf("bound %d: Uint64N %d after %d words, rand.Rand %d after %d", n, b, got.n, a, want.n)
		}
		c, d := lemireDigits(rand.New(wantDigits), n), SourceOf(rand.New(gotDigits)).Digits(n)
		if c != d || wantDigits.n != gotDigits.n || wantDigits.n != 2 {
			t.Errorf("bound %d: Digits %#x after %d words, Lemire's %#x after %d", n, d.f, gotDigits.n, c.f, wantDigits.n)
		}
	}
}
