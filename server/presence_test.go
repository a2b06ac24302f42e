package server

import (
	"testing"

	"tapis/store"
)

// A count of players is written when it changes, and again every
// presenceRefresh ticks when it does not, within the boards' window; a
// write that failed is tried again at the next tick.
func TestPresenceWritesChangesAndRefreshes(t *testing.T) {
	if presenceRefresh*store.PresenceEvery >= store.PresenceWithin {
		t.Fatalf("a count unchanged is written every %s: the boards forget a server after %s",
			presenceRefresh*store.PresenceEvery, store.PresenceWithin)
	}
	w := presenceWrites{last: -1}
	ticks := []struct {
		n     int
		fails bool
		want  bool
	}{
		{0, false, true},  // the first count
		{0, false, false}, // unchanged
		{0, false, true},  // refreshed
		{3, false, true},  // changed
		{3, true, false},  // unchanged, not due
		{3, true, true},   // refreshed, and the write fails
		{3, false, true},  // tried again
		{3, false, false},
	}
	for i, tk := range ticks {
		due := w.due(tk.n)
		if due != tk.want {
			t.Fatalf("tick %d (count %d): due %v, want %v", i, tk.n, due, tk.want)
		}
		if due && !tk.fails {
			w.written(tk.n)
		}
	}
}
