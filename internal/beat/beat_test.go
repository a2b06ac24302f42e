package beat

import (
	"testing"
	"time"
)

func TestUntilTheNextMultiple(t *testing.T) {
	base := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		now  time.Duration // after base
		d    time.Duration
		want time.Duration
	}{
		{0, time.Second, time.Second}, // on a beat: the next one, a whole period ahead
		{300 * time.Millisecond, time.Second, 700 * time.Millisecond},
		{999 * time.Millisecond, time.Second, time.Millisecond},
		{100 * time.Millisecond, 250 * time.Millisecond, 150 * time.Millisecond},
		{4 * time.Second, 3 * time.Second, 2 * time.Second}, // 10:00:06
		{1500 * time.Millisecond, 10 * time.Second, 8500 * time.Millisecond},
	} {
		if got := Until(base.Add(c.now), c.d); got != c.want {
			t.Errorf("Until(base+%v, %v) = %v, want %v", c.now, c.d, got, c.want)
		}
	}
}

func TestTicksFallOnTheBeat(t *testing.T) {
	const d = 100 * time.Millisecond
	time.Sleep(Until(time.Now(), d) + d/2) // started half a period past a beat
	tk := NewTicker(d)
	defer tk.Stop()
	var last time.Time
	late := 0
	for i := range 4 {
		select {
		case at := <-tk.C:
			if !last.IsZero() && at.Truncate(d).Equal(last.Truncate(d)) {
				t.Fatalf("ticks %v and %v on one beat", last, at)
			}
			last = at
			// A timer never ends early: each tick is at or just after a
			// multiple of d. A ticker counting from its start would tick
			// half a period past each.
			if at.Sub(at.Truncate(d)) >= d/4 {
				late++
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("no tick %d within 2 s", i)
		}
	}
	if late > 1 { // a loaded machine may be late once
		t.Fatalf("%d of 4 ticks fell a quarter of a period or more past their beat", late)
	}
}

func TestStopStopsTicks(t *testing.T) {
	for range 200 {
		tk := NewTicker(100 * time.Microsecond)
		<-tk.C
		time.Sleep(150 * time.Microsecond) // a tick sent, or being sent
		tk.Stop()
		select {
		case at := <-tk.C:
			t.Fatalf("a tick at %v received after Stop", at)
		case <-time.After(300 * time.Microsecond):
		}
	}
}

// TestResetChangesThePeriod: a ticker reset to a longer period ticks on
// that period's multiples, and back to a shorter one on that one's.
func TestResetChangesThePeriod(t *testing.T) {
	const short, long = 40 * time.Millisecond, 200 * time.Millisecond
	tk := NewTicker(short)
	defer tk.Stop()
	<-tk.C
	tk.Reset(long)
	ticks, over := 0, time.After(2*long+long/4)
	for done := false; !done; {
		select {
		case at := <-tk.C:
			ticks++
			if off := at.Sub(at.Truncate(long)); off >= long/2 && ticks > 1 {
				t.Fatalf("tick %d at %v, %v past a multiple of %v", ticks, at, off, long)
			}
		case <-over:
			done = true
		}
	}
	if ticks < 1 || ticks > 3 { // the first may be the one held from before
		t.Fatalf("%d ticks in %v at a period of %v", ticks, 2*long+long/4, long)
	}
	tk.Reset(short)
	start := time.Now()
	<-tk.C
	if waited := time.Since(start); waited >= long {
		t.Errorf("reset to %v, the next tick came %v later", short, waited)
	}
}
