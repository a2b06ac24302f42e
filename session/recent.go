package session

import "slices"

// recentUnits keeps the last units played, at most limit of them (none when
// limit is 0), oldest first. It trims in batches, so that each unit added
// costs the same on average however long the session.
type recentUnits struct {
	units []Played
	limit int
}

// add keeps p as the newest unit.
func (r *recentUnits) add(p Played) {
	if r.limit <= 0 {
		return
	}
	r.units = append(r.units, p)
	if len(r.units) >= 2*r.limit {
		r.units = append(r.units[:0:0], r.units[len(r.units)-r.limit:]...)
	}
}

// list returns the units kept, oldest first, in a slice of its own.
func (r *recentUnits) list() []Played {
	h := r.units
	if len(h) > r.limit {
		h = h[len(h)-r.limit:]
	}
	return slices.Clone(h)
}
