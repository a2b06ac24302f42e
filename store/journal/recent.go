package journal

// recentUnits keeps the last purchases, at most limit of them (none when
// limit is 0), to answer Account and a retry: a ring, each purchase added
// taking the place of the oldest once it is full, so that each costs the
// same however long the journal.
type recentUnits struct {
	units []purchase // the ring, up to limit long
	next  int        // where the next unit goes once the ring is full: the oldest
	limit int
}

// add keeps p as the newest unit.
func (r *recentUnits) add(p purchase) {
	switch {
	case r.limit <= 0:
	case len(r.units) < r.limit:
		r.units = append(r.units, p)
	default:
		r.units[r.next] = p
		r.next = (r.next + 1) % len(r.units)
	}
}

// list returns the units kept, oldest first, in a slice of its own.
func (r *recentUnits) list() []purchase {
	out := make([]purchase, 0, len(r.units))
	out = append(out, r.units[r.next:]...)
	return append(out, r.units[:r.next]...)
}
