package wallclock

import (
	"testing"
	"time"
)

// TestNext: the wait to the next multiple of the period past the one
// nearest to now, early or late.
func TestNext(t *testing.T) {
	base := time.Date(2026, 12, 7, 3, 0, 10, 0, time.UTC)
	for _, c := range []struct {
		now  time.Duration // after base
		d    time.Duration
		want time.Duration
	}{
		{200 * time.Millisecond, time.Second, 800 * time.Millisecond},
		{time.Millisecond, time.Second, 999 * time.Millisecond},             // fired late for :10
		{-time.Millisecond, time.Second, 1001 * time.Millisecond},           // fired early for :10: :11 next
		{600 * time.Millisecond, time.Second, 1400 * time.Millisecond},      // :11 is nearest: :12
		{0, 2 * time.Second, 2 * time.Second},                               // :10 is even: :12
		{1500 * time.Millisecond, 3 * time.Second, 3500 * time.Millisecond}, // :12 is nearest: :15
	} {
		if got := Next(base.Add(c.now), c.d); got != c.want {
			t.Errorf("Next(:10%+v, %v) = %v, want %v", c.now, c.d, got, c.want)
		}
	}
}

// TestTickerOnTheSecond: a ticker of a second ticks near each whole
// second of the wall clock, a second apart, and nothing after Stop.
func TestTickerOnTheSecond(t *testing.T) {
	tk := NewTicker(time.Second)
	var last time.Time
	for i := range 3 {
		at := <-tk.C
		if off := at.Sub(at.Round(time.Second)).Abs(); off > 100*time.Millisecond {
			t.Errorf("tick %d at %v, %v from a whole second", i, at.Format(time.StampMicro), off)
		}
		if !last.IsZero() {
			if gap := at.Sub(last).Round(100 * time.Millisecond); gap != time.Second {
				t.Errorf("tick %d %v after the one before, want a second", i, gap)
			}
		}
		last = at
	}
	tk.Stop()
	select {
	case at := <-tk.C:
		t.Errorf("a tick at %v after Stop", at.Format(time.StampMicro))
	case <-time.After(1500 * time.Millisecond):
	}
}
