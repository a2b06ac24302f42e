// Package quantile holds the order statistics the load figures are given
// in, one definition for the server's log, the load client and the
// measuring commands, so that their figures compare.
package quantile

import (
	"math"
	"slices"
	"time"
)

// Of returns the q-quantile of sorted durations, nearest rank; the
// durations must not be empty.
func Of(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// Median is the middle of xs (the mean of the two middles for an even
// count); NaN for none. xs is not changed.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
