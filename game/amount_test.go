package game

import "testing"

// TestSimpleAmount: every amount the fast path reads is the decimal the
// full reading gives, to its exponent; strings of digits, points and
// commas up to six characters, and the longest amounts, are all tried.
func TestSimpleAmount(t *testing.T) {
	var inputs []string
	var grow func(s string)
	grow = func(s string) {
		inputs = append(inputs, s)
		if len(s) < 6 {
			for _, c := range "019.,-" {
				grow(s + string(c))
			}
		}
	}
	grow("")
	inputs = append(inputs, "999999999999.99", "1000000000000", "000000000000.5", "40000", " 5", "5 ", "1e3", "+5")
	fast := 0
	for _, s := range inputs {
		d, ok := simpleAmount(s)
		if !ok {
			continue
		}
		fast++
		want, err := parsePlainAmount(s)
		if err != nil || d.Coefficient().Cmp(want.Coefficient()) != 0 || d.Exponent() != want.Exponent() {
			t.Errorf("%q: fast %s (exponent %d), full %s (exponent %d), %v", s, d, d.Exponent(), want, want.Exponent(), err)
		}
	}
	if fast < 100 {
		t.Errorf("the fast path read %d amounts only", fast)
	}
}
