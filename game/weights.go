package game

import (
	"math/bits"
	"math/rand/v2"
)

// Weights lists choices with integer weights, to pick one with probability
// exactly proportional to its weight.
type Weights struct {
	start []uint64 // start[i]: the total weight of the choices before i; then the total
}

// Add adds a choice of the given weight; its index is the number of choices
// added before it. The weights must total less than 2⁶³.
func (w *Weights) Add(weight uint64) {
	if len(w.start) == 0 {
		w.start = append(w.start, 0)
	}
	w.start = append(w.start, w.Total()+weight)
}

// Len returns the number of choices.
func (w *Weights) Len() int { return max(len(w.start)-1, 0) }

// Total returns the sum of the weights.
func (w *Weights) Total() uint64 {
	if len(w.start) == 0 {
		return 0
	}
	return w.start[len(w.start)-1]
}

// Pick returns the index of a choice drawn with probability its weight over
// the total. A single choice is returned without drawing. The total must be
// positive.
func (w *Weights) Pick(r *rand.Rand) int { return w.PickFrom(SourceOf(r)) }

// PickFrom picks as Pick does, from any Source: the same words give the
// same choice.
func (w *Weights) PickFrom(s Source) int {
	if len(w.start) == 2 {
		return 0
	}
	i, _ := w.DrawFrom(s)
	return i
}

// Draw draws a choice with probability its weight over the total, as Pick
// does but always drawing, and also returns where the draw fell within the
// choice: given the choice, uniform in [0, its weight). It costs one bounded
// draw from r (multiply-shift), then a binary search whose steps are
// conditional moves rather than branches, since which way each goes is
// random. The total must be positive.
func (w *Weights) Draw(r *rand.Rand) (i int, within uint64) { return w.DrawFrom(SourceOf(r)) }

// DrawFrom draws as Draw does, from any Source: the same words give the
// same choice and place.
func (w *Weights) DrawFrom(s Source) (i int, within uint64) {
	total := w.Total()
	var u uint64
	if s.pcg != nil { // as s.Uint64(), the PCG inlined
		u = s.pcg.Uint64()
	} else {
		u = s.r.Uint64()
	}
	x, lo := bits.Mul64(u, total) // Lemire: x = ⌊u·total/2⁶⁴⌋
	if lo < total {
		x = redraw(s, total, x, lo)
	}
	i = w.search(x)
	return i, x - w.start[i]
}

// redraw finishes Lemire's bounded draw when its first word falls among the
// 2⁶⁴ mod n that would favour some results: it draws again until a word
// does not.
func redraw(s Source, n, x, lo uint64) uint64 {
	for thresh := -n % n; lo < thresh; {
		x, lo = bits.Mul64(s.Uint64(), n)
	}
	return x
}

// search returns the choice i with start[i] <= x < start[i+1], for x below
// the total: the number of choices ending at or before x. Up to 6 choices it
// counts them all, each test independent of the others; beyond, it halves.
// Either way the tests are arithmetic, the sign of a difference (the
// weights total less than 2⁶³), not branches.
func (w *Weights) search(x uint64) int {
	end := w.start[1:] // end[i] = start[i+1]: the first i with end[i] > x
	if len(end) <= 6 {
		i := 0
		for _, e := range end[:len(end)-1] {
			i += int(^(x - e) >> 63) // 1 when e <= x
		}
		return i
	}
	base, n := 0, len(end)
	for n > 1 { // the answer is in [base, base+n)
		half := n / 2
		// Past the first half when end[base+half-1] <= x.
		base += half &^ int(int64(x-end[base+half-1])>>63)
		n -= half
	}
	return base
}
