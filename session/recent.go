package session

import (
	"time"

	"tapis/game/lottery"
	"tapis/wallet"
)

// Played is a unit bought in the session: the purchase as the wallet
// settled it and the unit as the shop sold it, to be listed and shown again.
type Played struct {
	Op   wallet.Operation // number, name, stake, prize, balances
	Sold lottery.Sold     // identity (game, stake; block and serial, or forced label and rank), tier, prize, layout
	Time time.Time        // when it was bought, by the store's clock, as a journal records it
	Line int              // the journal line that records it; 0 on a store that keeps no lines
}

// recentUnits keeps the last units played, at most limit of them (none when
// limit is 0): a ring, each unit added taking the place of the oldest once
// it is full, so that each costs the same however long the session.
type recentUnits struct {
	units []Played // the ring, up to limit long
	next  int      // where the next unit goes once the ring is full: the oldest
	limit int
}

// add keeps p as the newest unit.
func (r *recentUnits) add(p Played) {
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
func (r *recentUnits) list() []Played {
	out := make([]Played, 0, len(r.units))
	out = append(out, r.units[r.next:]...)
	return append(out, r.units[:r.next]...)
}
