// Package ring keeps the last items added, at most a limit of them: each
// item added takes the place of the oldest once it is full, so that each
// costs the same however many came before. The session's recent units
// and the journal's recent purchases are kept in one.
package ring

import "iter"

// Ring is the last items added, at most Limit of them (none when it is 0
// or less). The zero Ring keeps nothing; set Limit before adding.
type Ring[T any] struct {
	Limit int
	items []T // up to Limit long
	next  int // where the next item goes once full: the oldest
}

// Add keeps v as the newest item.
func (r *Ring[T]) Add(v T) {
	switch {
	case r.Limit <= 0:
	case len(r.items) < r.Limit:
		r.items = append(r.items, v)
	default:
		r.items[r.next] = v
		r.next = (r.next + 1) % len(r.items)
	}
}

// List returns the items kept, oldest first, in a slice of its own.
func (r *Ring[T]) List() []T {
	out := make([]T, 0, len(r.items))
	out = append(out, r.items[r.next:]...)
	return append(out, r.items[:r.next]...)
}

// Newest yields the items kept, newest first.
func (r *Ring[T]) Newest() iter.Seq[T] {
	return func(yield func(T) bool) {
		n := len(r.items)
		for i := range n {
			if !yield(r.items[(r.next-1-i+2*n)%n]) {
				return
			}
		}
	}
}

// Len returns how many items are kept.
func (r *Ring[T]) Len() int { return len(r.items) }
