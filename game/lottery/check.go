package lottery

import (
	"fmt"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/text"
)

// PrizeMismatchError is what `score --check` reports of a record whose
// "prize" is not what the regulation's score of its layout pays: a test
// vector, or a `deal` record, that another implementation or an edit got
// wrong.
type PrizeMismatchError struct {
	Claimed decimal.Decimal // the record's "prize"
	Scored  decimal.Decimal // the regulation's score of its layout
}

// Error names both amounts.
func (e *PrizeMismatchError) Error() string {
	return fmt.Sprintf("prize mismatch: the record claims %s, the regulation's score of its layout pays %s", e.Claimed, e.Scored)
}

// UnitMismatchError is what `score --check` reports of a record whose
// "unit" names a game or a stake other than its layout's.
type UnitMismatchError struct {
	Unit       string // the record's "unit", as written
	What       string // "game" or "stake"
	Named, Has string // what the unit names, and what the layout holds
}

// Error names the unit and what differs.
func (e *UnitMismatchError) Error() string {
	return fmt.Sprintf("unit mismatch: unit %q names %s %s, the layout's %s is %s",
		text.Printable(e.Unit), e.What, e.Named, e.What, e.Has)
}

// MissingPrizeError is what `score --check` reports of a valid layout that
// carries no "prize" to check.
type MissingPrizeError struct{}

// Error says what is missing.
func (MissingPrizeError) Error() string {
	return `prize: missing (score --check wants a "prize" on every record)`
}

// Check compares what a record read by Read claims with the regulation's
// score of its layout: its "prize" must be the prize the layout scores,
// and its "unit", when it has one, must name the layout's game and stake.
// It returns nil when they agree, and otherwise a *PrizeMismatchError, a
// *UnitMismatchError, a MissingPrizeError or a *game.FieldError naming a
// "prize" or "unit" that does not read. e.Err must be nil.
func Check(e Entry) error {
	if e.Unit != "" {
		if err := checkUnit(e.Unit, e.Layout); err != nil {
			return err
		}
	}
	if len(e.Prize) == 0 {
		return MissingPrizeError{}
	}
	claimed, err := game.Amount(e.Prize, "prize")
	if err != nil {
		return err
	}
	if scored := e.Layout.Prize(); !claimed.Equal(scored) {
		return &PrizeMismatchError{Claimed: claimed, Scored: scored}
	}
	return nil
}

// checkUnit checks that a record's unit names its layout's game and stake.
func checkUnit(unit string, l Layout) error {
	id, _, err := ParseName(unit)
	if err != nil {
		return game.Errorf("unit", "%v", err)
	}
	if id.Game != l.Game() {
		return &UnitMismatchError{Unit: unit, What: "game", Named: text.Printable(id.Game), Has: l.Game()}
	}
	if !id.Stake.Equal(l.Stake()) {
		return &UnitMismatchError{Unit: unit, What: "stake", Named: id.Stake.String(), Has: l.Stake().String()}
	}
	return nil
}
