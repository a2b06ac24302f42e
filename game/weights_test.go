package game

import (
	"math/rand/v2"
	"testing"
)

// TestWeightsSearch checks the search against a walk, for every x of tables
// of every length up to 40 (counted up to 6, halved beyond), zero weights
// among them.
func TestWeightsSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for n := 1; n <= 40; n++ {
		var w Weights
		for i := range n {
			if i > 0 && r.IntN(4) == 0 {
				w.Add(0)
			} else {
				w.Add(1 + r.Uint64N(5))
			}
		}
		for x := range w.Total() {
			want := 0
			for w.start[want+1] <= x {
				want++
			}
			if got := w.search(x); got != want {
				t.Fatalf("%v: x %d gives %d, want %d", w.start, x, got, want)
			}
		}
	}
}

// TestWeightsPick picks among weights 1, 2, 3 and 4: each about as often as
// its weight says, every place within a choice as often as any other, and a
// single choice draws nothing.
func TestWeightsPick(t *testing.T) {
	var w Weights
	for _, x := range []uint64{1, 2, 3, 4} {
		w.Add(x)
	}
	r := rand.New(rand.NewPCG(9, 10))
	var got [4]int
	const n = 100_000
	for range n {
		got[w.Pick(r)]++
	}
	for i, c := range got {
		if want := n * (i + 1) / 10; c < want*95/100 || c > want*105/100 {
			t.Errorf("choice %d: %d times, want about %d", i, c, want)
		}
	}
	var within [4][]int
	for i := range within {
		within[i] = make([]int, i+1)
	}
	for range n {
		i, x := w.Draw(r)
		within[i][x]++
	}
	for i, ws := range within {
		for x, c := range ws {
			if want := n / 10; c < want*95/100 || c > want*105/100 {
				t.Errorf("choice %d, %d within: %d times, want about %d", i, x, c, want)
			}
		}
	}
	var one Weights
	one.Add(5)
	s := &script{words: nil}
	if one.Pick(rand.New(s)) != 0 || s.n != 0 {
		t.Error("a single choice drew")
	}
}

// TestWeightsDrawRefuses checks Draw refuses, as Lemire's draw does, the
// words that would favour some results: with weights 1 and 2, 2⁶⁴ mod 3 = 1
// word, 0, is drawn again.
func TestWeightsDrawRefuses(t *testing.T) {
	var w Weights
	w.Add(1)
	w.Add(2)
	s := &script{words: []uint64{0, 0, 1 << 63}}
	if i, x := w.Draw(rand.New(s)); s.n != 3 || i != 1 || x != 0 {
		t.Errorf("drew %d words: choice %d, %d within", s.n, i, x)
	}
	s = &script{words: []uint64{^uint64(0)}}
	if i, x := w.Draw(rand.New(s)); s.n != 1 || i != 1 || x != 1 {
		t.Errorf("drew %d words: choice %d, %d within", s.n, i, x)
	}
}
