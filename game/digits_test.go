package game

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestDigitsAreTheDrawsDigits checks that Next reads the mixed-radix digits
// of D = ⌊f·R⌋, most significant first, for random fractions and bases.
func TestDigitsAreTheDrawsDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		var bases []uint64
		radix := uint64(1)
		for {
			n := 1 + r.Uint64N(7776)
			if hi, _ := bits.Mul64(radix, n); hi != 0 {
				break
			}
			bases = append(bases, n)
			radix *= n
		}
		f := r.Uint64()
		x, _ := bits.Mul64(f, radix) // D
		want := make([]uint64, len(bases))
		for i := len(bases) - 1; i >= 0; i-- {
			want[i] = x % bases[i]
			x /= bases[i]
		}
		d := Digits{f}
		for i, n := range bases {
			var got int
			got, d = d.Next(int(n))
			if uint64(got) != want[i] {
				t.Fatalf("f %#x, bases %v: digit %d is %d, want %d", f, bases, i, got, want[i])
			}
		}
	}
}

// script is a random source that hands out the given words in turn.
type script struct {
	words []uint64
	n     int
}

func (s *script) Uint64() uint64 { s.n++; return s.words[s.n-1] }

// TestDrawDigitsRefuses checks the refusals of Lemire's draw: for radix 3,
// 2⁶⁴ mod 3 = 1 word is refused, f = 0; any other is kept.
func TestDrawDigitsRefuses(t *testing.T) {
	s := &script{words: []uint64{0, 0, 1 << 63}}
	d := DrawDigits(rand.New(s), 3)
	if v, _ := d.Next(3); s.n != 3 || d.f != 1<<63 || v != 1 {
		t.Errorf("drew %d words, kept %#x", s.n, d.f)
	}
	s = &script{words: []uint64{1}}
	if v, _ := DrawDigits(rand.New(s), 3).Next(3); s.n != 1 || v != 0 {
		t.Errorf("radix 3: word 1 refused")
	}
	s = &script{words: []uint64{0}}
	if v, _ := DrawDigits(rand.New(s), 1).Next(1); s.n != 1 || v != 0 {
		t.Errorf("radix 1: word 0 refused")
	}
}

// TestDigitsExactOnSmallWords runs the same arithmetic on 12-bit words, where
// every word can be tried: for each radix up to 300, the words kept give
// every D, and so every tuple of digits, exactly as often.
func TestDigitsExactOnSmallWords(t *testing.T) {
	const w = 12
	for radix := uint32(1); radix <= 300; radix++ {
		thresh := (1 << w) % radix
		count := make([]int, radix)
		for f := range uint32(1 << w) {
			p := f * radix
			if p&(1<<w-1) < thresh {
				continue
			}
			count[p>>w]++
		}
		for x, c := range count {
			if c != count[0] || c == 0 {
				t.Fatalf("radix %d: D = %d kept %d times, D = 0 %d times", radix, x, c, count[0])
			}
		}
	}
}

// TestDigitsAreUniform draws digits of bases 6, 35 and 11 from one draw
// each time: every value of each comes about equally often.
func TestDigitsAreUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	bases := []int{6, 35, 11}
	counts := [][]int{make([]int, 6), make([]int, 35), make([]int, 11)}
	const n = 385_000
	for range n {
		d := DrawDigits(r, 6*35*11)
		for i, b := range bases {
			var v int
			v, d = d.Next(b)
			counts[i][v]++
		}
	}
	for i, b := range bases {
		want := n / b
		for v, c := range counts[i] {
			if c < want*95/100 || c > want*105/100 {
				t.Errorf("base %d: digit %d drawn %d times, want about %d", b, v, c, want)
			}
		}
	}
}

// TestDivisor checks DivMod against the division, for every divisor up to
// 5 000 and random ones up to 2³², at numerators spread up to Max and at its
// edges.
func TestDivisor(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	check := func(d uint64) {
		v := NewDivisor(d)
		xs := []uint64{0, 1, d - 1, d, d + 1, v.Max() - 1, v.Max() - d, v.Max() / 2}
		for range 200 {
			xs = append(xs, r.Uint64N(v.Max()))
		}
		for _, x := range xs {
			if q, m := v.DivMod(x); q != x/d || m != x%d {
				t.Fatalf("%d / %d: %d rest %d, want %d rest %d", x, d, q, m, x/d, x%d)
			}
		}
	}
	for d := uint64(2); d <= 5000; d++ {
		check(d)
	}
	for range 20_000 {
		check(2 + r.Uint64N(1<<32-1))
	}
	check(1 << 32)
}
