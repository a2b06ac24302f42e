package session

import "github.com/shopspring/decimal"

// unseenPrizes are the prizes of the units bought and not shown yet, by
// unit name, and their sum: kept as units are bought and seen, so that
// the spendable balance costs a frame no walk over them.
type unseenPrizes struct {
	by  map[string]decimal.Decimal
	sum decimal.Decimal
}

// add counts a unit bought; a unit counted already is counted once.
func (u *unseenPrizes) add(unit string, prize decimal.Decimal) {
	if u.by == nil {
		u.by = map[string]decimal.Decimal{}
	}
	if old, ok := u.by[unit]; ok {
		u.sum = u.sum.Sub(old)
	}
	u.by[unit] = prize
	u.sum = u.sum.Add(prize)
}

// drop counts a unit seen.
func (u *unseenPrizes) drop(unit string) {
	if prize, ok := u.by[unit]; ok {
		delete(u.by, unit)
		u.sum = u.sum.Sub(prize)
	}
}

// reset forgets every unit.
func (u *unseenPrizes) reset() { *u = unseenPrizes{} }
