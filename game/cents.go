package game

import (
	"math"
	"strconv"

	"github.com/shopspring/decimal"
)

// Cents is an amount of money in euro cents. Dealing, scoring and auditing
// count in Cents: integer arithmetic, nothing allocated. Amounts cross into
// decimal.Decimal at the boundaries (the wallet, the journal, the screens):
// see Decimal and CentsOf. Amounts read from outside are at most 10¹² €
// (ParsePlainAmount), 10¹⁴ cents: sums of a few of them do not overflow.
type Cents int64

// Euros returns n whole euros in cents.
func Euros(n int64) Cents { return Cents(n * 100) }

// Decimal returns the amount in euros as a decimal, for the boundaries.
func (c Cents) Decimal() decimal.Decimal { return decimal.New(int64(c), -2) }

// String writes the amount in euros as decimal.Decimal writes it, without
// trailing zeros: "0", "2.5", "0.05", "40000".
func (c Cents) String() string {
	var buf [24]byte
	b := buf[:0]
	u := uint64(c)
	if c < 0 {
		b = append(b, '-')
		u = -u
	}
	b = strconv.AppendUint(b, u/100, 10)
	switch f := u % 100; {
	case f == 0:
	case f%10 == 0:
		b = append(b, '.', byte('0'+f/10))
	default:
		b = append(b, '.', byte('0'+f/10), byte('0'+f%10))
	}
	return string(b)
}

// IsZero reports whether the amount is zero.
func (c Cents) IsZero() bool { return c == 0 }

// IsPositive reports whether the amount is above zero.
func (c Cents) IsPositive() bool { return c > 0 }

// pow10 holds the powers of ten an int64 holds.
var pow10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// CentsOf returns d in cents, or false when d is finer than the cent or too
// large for Cents. It allocates nothing unless d's coefficient has more than
// 18 digits.
func CentsOf(d decimal.Decimal) (Cents, bool) {
	if d.NumDigits() > 18 {
		c := d.Shift(2)
		if !c.IsInteger() || !c.BigInt().IsInt64() {
			return 0, false
		}
		return Cents(c.IntPart()), true
	}
	coef, exp := d.CoefficientInt64(), int(d.Exponent())+2 // d = coef × 10^(exp-2)
	switch {
	case coef == 0:
		return 0, true
	case exp >= 0:
		if exp >= len(pow10) || coef > math.MaxInt64/pow10[exp] || coef < math.MinInt64/pow10[exp] {
			return 0, false
		}
		return Cents(coef * pow10[exp]), true
	case -exp >= len(pow10) || coef%pow10[-exp] != 0:
		return 0, false
	}
	return Cents(coef / pow10[-exp]), true
}
