package cli

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestNextProcs: a processor more when the load keeps three quarters of
// them busy, one fewer when it would keep under half of one fewer busy,
// from 1 to most, and no move between the two.
func TestNextProcs(t *testing.T) {
	for _, c := range []struct {
		n, most int
		used    float64
		want    int
	}{
		{1, 2, 0.22, 1}, // 200 sessions pressing Auto
		{1, 2, 0.8, 2},  // a core's worth: a second one
		{1, 1, 0.99, 1}, // no more than Go chose
		{2, 2, 1.9, 2},  // at most
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
		if got := nextProcs(c.n, c.most, c.used); got != c.want {
			t.Errorf("nextProcs(%d, %d, %.2f) = %d, want %d", c.n, c.most, c.used, got, c.want)
		}
	}
}

// TestProcsFollowTheLoad: one look at a core busy gives a second
// processor at once; a lighter load takes it back only once procsCalm
// looks since, taken together, are under half a core; each change is set
// and told once.
func TestProcsFollowTheLoad(t *testing.T) {
	looks := 0
	var set, told []int
	p := &procs{n: 1, most: 2,
		set:     func(n int) { set = append(set, n, looks) },
		changed: func(n int, _ float64) { told = append(told, n) }}
	look := func(cores float64) {
		looks++
		p.look(time.Duration(cores*float64(procsEvery)), procsEvery)
	}
	look(0.95) // look 1, a room logging in: a second processor at once
	for range procsCalm - 1 {
		look(0.1) // looks 2 to 8: calm, not for long enough
	}
	look(0.1) // look 9: procsCalm calm looks since the change, back to one
	look(0.8) // look 10: busy, a second one again
	for range procsCalm {
		look(0.6) // looks 11 to 18: over half of one together, it stays
	}
	look(0.1) // look 19: the last 8 still over half of one
	look(0.1) // look 20: under: back to one
	if want := []int{2, 1, 1, 9, 2, 10, 1, 20}; !slices.Equal(set, want) {
		t.Errorf("processors set (each with its look) %v, want %v", set, want)
	}
	if want := []int{2, 1, 2, 1}; !slices.Equal(told, want) {
		t.Errorf("changes told %v, want %v", told, want)
	}
}

// TestProcsRunLooksAtEachTick: run reads the CPU time at each tick and
// weighs it over the time since the last, half a period at least: a core
// busy over a tick's quarter of a second gives a second processor.
func TestProcsRunLooksAtEachTick(t *testing.T) {
	var used atomic.Int64 // written here, read by run's goroutine
	began := make(chan struct{})
	var once sync.Once
	changed := make(chan int, 1)
	p := &procs{n: 1, most: 2,
		cpu: func() time.Duration {
			c := time.Duration(used.Load())
			once.Do(func() { close(began) })
			return c
		},
		set:     func(int) {},
		changed: func(n int, _ float64) { changed <- n }}
	tick, done, over := make(chan time.Time), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		p.run(tick, nil, done)
	}()
	<-began                    // run's first reading, and its time, taken
	used.Add(int64(time.Hour)) // far more than any wall time since: busy however late the tick
	// The first tick, on the beat, may come a moment after the start: a
	// window that short is no measure, and the next one spans it.
	tick <- time.Now().Add(time.Millisecond)
	select {
	case n := <-changed:
		t.Fatalf("a look over a millisecond changed the processors to %d", n)
	case <-time.After(50 * time.Millisecond):
	}
	tick <- time.Now().Add(procsEvery)
	select {
	case n := <-changed:
		if n != 2 {
			t.Errorf("a core busy: %d processors, want 2", n)
		}
	case <-time.After(10 * time.Second):
		t.Error("a core busy over a tick: no change")
	}
	close(done)
	<-over
}

// TestProcsRestWhenLight: on one processor under procsLight cores the
// looks come every procsRestEvery; a heavier load, two processors, or a
// nudge (someone arrived) bring them back to every procsEvery.
func TestProcsRestWhenLight(t *testing.T) {
	var paces []time.Duration
	p := &procs{n: 1, most: 2, set: func(int) {}, changed: func(int, float64) {},
		pace: func(d time.Duration) { paces = append(paces, d) }, every: procsEvery}
	look := func(cores float64) { p.look(time.Duration(cores*float64(procsEvery)), procsEvery) }
	look(0.01) // sitting: rest
	look(0.01) // still: no change to set
	look(0.5)  // busier, still one processor: every quarter
	look(0.1)  // light again
	look(0.9)  // two processors
	look(0.1)  // light, on two: every quarter until one is taken back
	if want := []time.Duration{procsRestEvery, procsEvery, procsRestEvery, procsEvery}; !slices.Equal(paces, want) {
		t.Fatalf("paces %v, want %v", paces, want)
	}

	// A nudge while at rest: every quarter at once, and the next look
	// weighs what was used from the nudge on, not the quiet second before
	// it; another nudge changes nothing; procsCalm light looks later, at
	// rest again.
	paces = nil
	var used atomic.Int64
	began := make(chan struct{})
	var once sync.Once
	changed := make(chan float64, 1)
	p = &procs{n: 1, most: 2, cpu: func() time.Duration {
		c := time.Duration(used.Load())
		once.Do(func() { close(began) })
		return c
	}, set: func(int) {},
		changed: func(_ int, cores float64) { changed <- cores },
		pace:    func(d time.Duration) { paces = append(paces, d) }, every: procsRestEvery}
	tick, nudge, done, over := make(chan time.Time), make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		p.run(tick, nudge, done)
	}()
	<-began                         // run's first reading taken
	used.Add(int64(10 * time.Hour)) // before the nudge: not the next look's
	nudge <- struct{}{}
	nudge <- struct{}{} // looking every quarter already: nothing to change
	tick <- time.Now().Add(procsEvery)
	select {
	case cores := <-changed:
		t.Fatalf("the look after a nudge counted the CPU used before it: %.2f cores", cores)
	case <-time.After(50 * time.Millisecond):
	}
	close(done)
	<-over
	// Every quarter for procsCalm looks since the arrival, however light,
	// then at rest again.
	if want := []time.Duration{procsEvery}; !slices.Equal(paces, want) {
		t.Fatalf("after a nudge and a light look, paces %v, want %v", paces, want)
	}
	for range procsCalm - 1 {
		p.look(0, procsEvery)
	}
	if want := []time.Duration{procsEvery, procsRestEvery}; !slices.Equal(paces, want) {
		t.Fatalf("procsCalm light looks after a nudge, paces %v, want %v", paces, want)
	}
}
