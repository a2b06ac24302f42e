package cli

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestNextProcs: a processor more when the load keeps three quarters of
// them busy, one fewer when it would keep under half of one fewer busy,
// from 1 to max, and no move between the two.
func TestNextProcs(t *testing.T) {
	for _, c := range []struct {
		n, max int
		used   float64
		want   int
	}{
		{1, 2, 0.22, 1}, // 200 sessions pressing Auto
		{1, 2, 0.8, 2},  // a core's worth: a second one
		{1, 1, 0.99, 1}, // no more than Go chose
		{2, 2, 1.9, 2},  // at max
		{2, 4, 1.6, 3},  // three quarters of two
		{2, 4, 1.4, 2},  // under: stays
		{2, 4, 0.6, 2},  // more than half of one: stays
		{2, 4, 0.45, 1}, // under half of one
		{4, 8, 1.4, 3},  // under half of three
		{4, 8, 1.6, 4},  // over half of three: stays
		{1, 8, 0, 1},    // idle: never under one
		{3, 8, 2.26, 4}, // over three quarters of three
		{8, 16, 6.1, 9}, // many cores
		{9, 16, 3.9, 8}, // and back
	} {
		if got := nextProcs(c.n, c.max, c.used); got != c.want {
			t.Errorf("nextProcs(%d, %d, %.2f) = %d, want %d", c.n, c.max, c.used, got, c.want)
		}
	}
}

// TestProcsFollowTheLoad runs procs on a CPU clock of its own: a load of
// one core on one processor gives it a second, and one tenth of a core
// takes it back; each change is set and told once.
func TestProcsFollowTheLoad(t *testing.T) {
	var used atomic.Int64 // read by run's goroutine
	var set, told []int
	p := &procs{n: 1, max: 2, cpu: func() time.Duration { return time.Duration(used.Load()) },
		set:     func(n int) { set = append(set, n) },
		changed: func(n int, _ float64) { told = append(told, n) }}
	tick, done, over := make(chan time.Time), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		p.run(tick, done)
	}()
	start := time.Now()
	second := func(i int, cores float64) {
		used.Add(int64(cores * float64(time.Second)))
		tick <- start.Add(time.Duration(i) * time.Second)
	}
	second(1, 0.95) // a core busy
	second(2, 0.95) // stays at 2: 0.95 is not three quarters of two
	second(3, 0.1)  // back to one
	second(4, 0.1)
	close(done)
	<-over
	if len(set) != 2 || set[0] != 2 || set[1] != 1 {
		t.Errorf("processors set %v, want [2 1]", set)
	}
	if len(told) != 2 || told[0] != 2 || told[1] != 1 {
		t.Errorf("changes told %v, want [2 1]", told)
	}
}
