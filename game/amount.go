package game

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"tapis/text"
)

// maxAmount bounds amounts read from outside, far above any lot.
var maxAmount = decimal.New(1, 12)

// groupSpaces are the spaces that may group thousands in an amount typed by
// a person: the space, the no-break space and the narrow no-break space.
const groupSpaces = " \u00a0\u202f"

// ParseAmount reads an amount in euros typed by a person (--balance,
// --prize, --stake). Spaces, also no-break spaces (U+00A0, U+202F), group
// thousands; one "," or "." is the decimal separator, unless exactly three
// digits follow it: that is ambiguous (a thousands separator?) and refused,
// and so is an amount holding both separators. So "1000", "1000.50",
// "1000,50", "1 000,50" and "1,5" read, and "1,000", "1.000" and "1,000.50"
// do not. The amount is not negative, and to the cent at most.
func ParseAmount(s string) (decimal.Decimal, error) {
	t := strings.TrimSpace(s)
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	if strings.Contains(t, ",") && strings.Contains(t, ".") {
		return decimal.Decimal{}, fmt.Errorf(`%q holds both "," and ".": write one decimal separator, and group thousands with spaces (1 000,50)`, s)
	}
	sep := ","
	if strings.Contains(t, ".") {
		sep = "."
	}
	if strings.Count(t, sep) > 1 {
		return decimal.Decimal{}, fmt.Errorf("%q holds more than one %q: group thousands with spaces (1 000 000)", s, sep)
	}
	whole, frac, hasFrac := strings.Cut(t, sep)
	groups := strings.FieldsFunc(whole, func(r rune) bool { return strings.ContainsRune(groupSpaces, r) })
	whole = strings.Join(groups, "")
	if (whole == "" && !hasFrac) || !digits(whole) || !digits(frac) || (hasFrac && frac == "") {
		return decimal.Decimal{}, fmt.Errorf("%q is not an amount in euros", s)
	}
	if !grouped(groups) {
		return decimal.Decimal{}, fmt.Errorf("%q: spaces group thousands, by three digits (1 000 000)", s)
	}
	if hasFrac && len(frac) == 3 {
		return decimal.Decimal{}, ambiguous(s, sep, whole, frac)
	}
	if whole == "" {
		whole = "0"
	}
	if hasFrac {
		whole += "." + frac
	}
	if neg {
		return decimal.Decimal{}, fmt.Errorf("amount %s is negative", text.Printable(strings.TrimSpace(s)))
	}
	d, err := decimal.NewFromString(whole)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%q is not an amount in euros", s)
	}
	return checkAmount(d, s)
}

// grouped reports whether the groups of digits of a whole number, as spaces
// separated them, group its thousands: the first holds one to three digits,
// each other three.
func grouped(groups []string) bool {
	for i, g := range groups {
		if i > 0 && len(g) != 3 || len(g) > 3 && len(groups) > 1 {
			return false
		}
	}
	return true
}

// ambiguous explains why an amount with three digits after its separator
// is refused, and how to write each of its readings.
func ambiguous(s, sep, whole, frac string) error {
	if strings.TrimLeft(whole, "0") == "" { // no thousands to read: say so plainly
		if frac[2] != '0' {
			return fmt.Errorf("%q is ambiguous: three digits after %q may group thousands; as a decimal it has more than two decimals", s, sep)
		}
		return fmt.Errorf("%q is ambiguous: three digits after %q may group thousands: write %s for the decimal", s, sep, "0"+sep+frac[:2])
	}
	thousands := fmt.Sprintf("%q is ambiguous: %q before three digits may group thousands: write %s (or %s) for thousands",
		s, sep, whole+frac, groupThousands(whole+frac))
	if frac[2] != '0' {
		return fmt.Errorf("%s; as a decimal it has more than two decimals", thousands)
	}
	if whole == "" {
		whole = "0"
	}
	return fmt.Errorf("%s, %s for the decimal", thousands, whole+sep+frac[:2])
}

// groupThousands writes a whole number with its thousands grouped by
// spaces: 1 000 000.
func groupThousands(n string) string {
	var b strings.Builder
	for i := range len(n) {
		if i > 0 && (len(n)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(n[i])
	}
	return b.String()
}

// digits reports whether s is made of ASCII digits only (or is empty).
func digits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ParsePlainAmount reads an amount in euros written by a program, as in a
// layout's or a journal's JSON: a plain decimal with a point or a comma
// ("2.5", "2,50", "40000"), not negative, to the cent at most. Unlike
// ParseAmount, "1.000" is one euro.
func ParsePlainAmount(s string) (decimal.Decimal, error) {
	if d, ok := simpleAmount(s); ok {
		return d, nil
	}
	return parsePlainAmount(s)
}

// parsePlainAmount is ParsePlainAmount for any amount.
func parsePlainAmount(s string) (decimal.Decimal, error) {
	t := strings.TrimSpace(s)
	if strings.Count(t, ",") == 1 && !strings.Contains(t, ".") {
		t = strings.Replace(t, ",", ".", 1)
	}
	if t == "" || strings.ContainsAny(t, "eE+") {
		return decimal.Decimal{}, fmt.Errorf("%q is not an amount in euros", s)
	}
	d, err := decimal.NewFromString(t)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%q is not an amount in euros", s)
	}
	if d.IsNegative() {
		return decimal.Decimal{}, fmt.Errorf("amount %s is negative", text.Printable(t))
	}
	return checkAmount(d, s)
}

// simpleAmount reads an amount as programs write it ("40000", "2.5",
// "0.25"): one to twelve digits, then maybe a point and one or two digits.
// It gives the decimal ParsePlainAmount gives, whose checks such an amount
// passes: the fast path of reading layouts and journals.
func simpleAmount(s string) (decimal.Decimal, bool) {
	whole, frac, point := s, "", false
	if i := strings.IndexByte(s, '.'); i >= 0 {
		whole, frac, point = s[:i], s[i+1:], true
	}
	if len(whole) < 1 || len(whole) > 12 || len(frac) > 2 || point && len(frac) == 0 {
		return decimal.Decimal{}, false
	}
	var v int64
	for _, part := range [2]string{whole, frac} {
		for i := range len(part) {
			c := part[i]
			if c < '0' || c > '9' {
				return decimal.Decimal{}, false
			}
			v = v*10 + int64(c-'0')
		}
	}
	return decimal.New(v, -int32(len(frac))), true
}

// checkAmount refuses an amount d, read from s, finer than the cent or
// beyond maxAmount.
func checkAmount(d decimal.Decimal, s string) (decimal.Decimal, error) {
	s = text.Printable(strings.TrimSpace(s))
	if !d.Equal(d.Round(2)) {
		return decimal.Decimal{}, fmt.Errorf("amount %s has more than two decimals", s)
	}
	if d.GreaterThan(maxAmount) {
		return decimal.Decimal{}, fmt.Errorf("amount %s is beyond %s", s, maxAmount)
	}
	return d, nil
}
