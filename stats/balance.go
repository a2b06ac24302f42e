package stats

import "github.com/shopspring/decimal"

// balance keeps a series of balances in bounded memory: every value while
// there are at most limit of them, then buckets of size values (a power of
// two), each remembering its lowest and highest value and where they came,
// so each gives two points. When the buckets would give more than limit
// points, pairs of neighbours are merged and size doubles: between limit/2
// and limit points are kept, and the last value.
type balance struct {
	limit   int
	size    int64 // values per bucket
	buckets []bucket
	n       int64 // values added
	last    decimal.Decimal
}

type bucket struct {
	lo, hi     decimal.Decimal
	loAt, hiAt int64 // the rank of lo and hi in the series
	n          int64 // values in the bucket
}

func (b *balance) add(v decimal.Decimal) {
	if b.size == 0 {
		b.size = 1
	}
	at := b.n
	b.n++
	b.last = v
	if k := len(b.buckets); k > 0 && b.buckets[k-1].n < b.size {
		last := &b.buckets[k-1]
		if v.LessThan(last.lo) {
			last.lo, last.loAt = v, at
		}
		if v.GreaterThan(last.hi) {
			last.hi, last.hiAt = v, at
		}
		last.n++
		return
	}
	b.buckets = append(b.buckets, bucket{lo: v, hi: v, loAt: at, hiAt: at, n: 1})
	for b.count() > b.limit {
		b.merge()
	}
}

// count returns how many points the buckets give.
func (b *balance) count() int {
	if b.size == 1 {
		return len(b.buckets)
	}
	return 2 * len(b.buckets)
}

// merge merges neighbouring buckets in pairs.
func (b *balance) merge() {
	merged := b.buckets[:0]
	for i := 0; i < len(b.buckets); i += 2 {
		m := b.buckets[i]
		if i+1 < len(b.buckets) {
			o := b.buckets[i+1]
			if o.lo.LessThan(m.lo) {
				m.lo, m.loAt = o.lo, o.loAt
			}
			if o.hi.GreaterThan(m.hi) {
				m.hi, m.hiAt = o.hi, o.hiAt
			}
			m.n += o.n
		}
		merged = append(merged, m)
	}
	clear(b.buckets[len(merged):])
	b.buckets = merged
	b.size *= 2
}

// points returns the series: every value, or each bucket's lowest and
// highest in the order they came, then the last value if it is not the
// last point already.
func (b *balance) points() []decimal.Decimal {
	if b.n == 0 {
		return nil
	}
	if b.size == 1 {
		out := make([]decimal.Decimal, len(b.buckets))
		for i, k := range b.buckets {
			out[i] = k.lo
		}
		return out
	}
	out := make([]decimal.Decimal, 0, 2*len(b.buckets)+1)
	for _, k := range b.buckets {
		if k.loAt <= k.hiAt {
			out = append(out, k.lo, k.hi)
		} else {
			out = append(out, k.hi, k.lo)
		}
	}
	if !out[len(out)-1].Equal(b.last) {
		out = append(out, b.last)
	}
	return out
}
