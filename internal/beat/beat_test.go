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
	const d = 20 * time.Millisecond
	tk := NewTicker(d)
	defer tk.Stop()
	var last time.Time
	for i := range 5 {
		select {
		case at := <-tk.C:
			// A timer never ends early: each tick is at or just after a
			// multiple of d, never two on one multiple.
			if !last.IsZero() && at.Truncate(d).Equal(last.Truncate(d)) {
				t.Fatalf("ticks %v and %v on one beat", last, at)
			}
			last = at
		case <-time.After(time.Second):
			t.Fatalf("no tick %d within a second", i)
		}
	}
}

func TestTicksAfterAnOffsetStayOnTheBeat(t *testing.T) {
	const d = 30 * time.Millisecond
	time.Sleep(Until(time.Now(), d) + d/2) // started half a period past a beat
	tk := NewTicker(d)
	defer tk.Stop()
	late := 0
	for range 4 {
		at := <-tk.C
		if at.Sub(at.Truncate(d)) < d/3 {
			continue
		}
		late++
	}
	// A loaded machine may fire one late; a ticker counting from its start
	// would fire all four half a period past theirs.
	if late > 1 {
		t.Fatalf("%d of 4 ticks fell a third of a period past their beat", late)
	}
}

func TestStopStopsTicks(t *testing.T) {
	tk := NewTicker(5 * time.Millisecond)
	<-tk.C
	tk.Stop()
	select {
	case <-tk.C: // one tick may have been sent as Stop ran
	default:
	}
	select {
	case at := <-tk.C:
		t.Fatalf("a tick at %v after Stop", at)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestAnUnreadTickIsDropped(t *testing.T) {
	tk := NewTicker(5 * time.Millisecond)
	defer tk.Stop()
	time.Sleep(40 * time.Millisecond) // some 8 ticks come and go unread
	<-tk.C
	select {
	case <-tk.C:
		// The next beat's, maybe: not more than one held.
		select {
		case <-tk.C:
			t.Fatal("ticks queued while unread")
		default:
		}
	default:
	}
}
