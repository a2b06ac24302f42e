package quantile

import (
	"math"
	"testing"
	"time"
)

func TestOf(t *testing.T) {
	d := make([]time.Duration, 100)
	for i := range d {
		d[i] = time.Duration(i+1) * time.Millisecond
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.50, 50 * time.Millisecond}, {0.99, 99 * time.Millisecond}, {1, 100 * time.Millisecond}, {0, time.Millisecond}} {
		if got := Of(d, c.q); got != c.want {
			t.Errorf("Of(1..100 ms, %v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := Of(d[:1], 0.99); got != time.Millisecond {
		t.Errorf("Of of one = %v", got)
	}
}

func TestMedian(t *testing.T) {
	xs := []float64{3, 1, 2}
	if got := Median(xs); got != 2 || xs[0] != 3 {
		t.Errorf("Median(3 1 2) = %v, xs now %v", got, xs)
	}
	if got := Median([]float64{4, 1, 2, 3}); got != 2.5 {
		t.Errorf("Median(4 1 2 3) = %v, want 2.5", got)
	}
	if got := Median(nil); !math.IsNaN(got) {
		t.Errorf("Median(nil) = %v, want NaN", got)
	}
}
