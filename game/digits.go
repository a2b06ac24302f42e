package game

import "math/rand/v2"

// Digits hands out several independent uniform numbers taken from one
// uniform draw: drawn uniformly in [0, n₁·n₂·…), a number's mixed-radix
// digits are independent and each uniform in [0, nᵢ). One call to the random
// source then serves a whole shuffle, exactly.
type Digits struct{ x uint64 }

// DrawDigits draws x uniformly in [0, radix) from r; radix is the product of
// the bases that Next will be asked for, and must be at least 1.
func DrawDigits(r *rand.Rand, radix uint64) Digits { return Digits{r.Uint64N(radix)} }

// Next returns the next digit, uniform in [0, n).
func (d *Digits) Next(n int) int {
	v := d.x % uint64(n)
	d.x /= uint64(n)
	return int(v)
}
