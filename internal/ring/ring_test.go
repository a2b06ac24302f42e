package ring

import (
	"slices"
	"testing"
)

// TestRing keeps the last items, oldest first in List and newest first in
// Newest, before and after it wraps; a ring of no limit keeps nothing.
func TestRing(t *testing.T) {
	r := Ring[int]{Limit: 3}
	for i := 1; i <= 2; i++ {
		r.Add(i)
	}
	if got := r.List(); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("before wrapping: %v", got)
	}
	for i := 3; i <= 7; i++ {
		r.Add(i)
	}
	if got := r.List(); !slices.Equal(got, []int{5, 6, 7}) || r.Len() != 3 {
		t.Errorf("after wrapping: %v", got)
	}
	if got := slices.Collect(r.Newest()); !slices.Equal(got, []int{7, 6, 5}) {
		t.Errorf("newest first: %v", got)
	}
	var none Ring[int]
	none.Add(1)
	if none.Len() != 0 || len(slices.Collect(none.Newest())) != 0 {
		t.Error("a ring of no limit kept an item")
	}
}
