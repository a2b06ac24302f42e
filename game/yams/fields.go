package yams

import "github.com/shopspring/decimal"

// UnitFields are a Yam's layout's own fields as one typed encoding/json
// decode reads them: the fast path of ParseUnit, which still reads the
// layouts this path cannot tell valid, to name the field at fault. Its
// storage is kept from one decode to the next (Reset).
type UnitFields struct {
	Cups [][]int `json:"cups"`
}

// Reset empties the fields for the next decode, keeping their storage. A
// decode fills the cups it meets in place, and leaves a null die as it
// finds it: every die kept is cleared.
func (f *UnitFields) Reset() {
	all := f.Cups[:cap(f.Cups)]
	for i := range all {
		clear(all[i][:cap(all[i])])
	}
	f.Cups = all[:0]
}

// Unit returns the unit the fields hold at a stake checked by the caller,
// and true, when ParseUnit would read the same: three cups of five dice,
// each from 1 to 6. Otherwise it returns false, and ParseUnit says what is
// wrong.
func (f *UnitFields) Unit(stake decimal.Decimal) (*Unit, bool) {
	if len(f.Cups) != len(Unit{}.Cups) {
		return nil, false
	}
	u := &Unit{Stake: stake}
	for i, cup := range f.Cups {
		if len(cup) != len(u.Cups[i]) {
			return nil, false
		}
		for j, d := range cup {
			if d < 1 || d > 6 {
				return nil, false
			}
			u.Cups[i][j] = uint8(d)
		}
	}
	return u, true
}

// Equal reports whether two units show the same: MarshalJSON writes the
// same of both.
func (u *Unit) Equal(o *Unit) bool {
	return u.Stake.Equal(o.Stake) && u.Cups == o.Cups
}
