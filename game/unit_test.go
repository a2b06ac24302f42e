package game

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestUnitID(t *testing.T) {
	for _, s := range []string{"yams:0.5:1:48213", "vegas:3:2:1499999", "yams:2:10:1"} {
		id, err := ParseUnitID(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if id.String() != s {
			t.Errorf("%s read back as %s", s, id)
		}
	}
	id, err := ParseUnitID("yams:0,5:1:7")
	if err != nil || id.String() != "yams:0.5:1:7" {
		t.Errorf("decimal comma: %v, %v", id, err)
	}
	for _, s := range []string{"", "yams", "yams:1:1", "yams:x:1:1", "yams:1:0:1", "yams:1:1:0", "yams:1:1:-3", "yams:1:a:1", "a:1:1:1:1"} {
		if _, err := ParseUnitID(s); err == nil {
			t.Errorf("ParseUnitID(%q) accepted it", s)
		}
	}
}

// TestParseAmount checks the rule for amounts typed by a person.
func TestParseAmount(t *testing.T) {
	good := map[string]string{
		"0.5": "0.5", "0,5": "0.5", "2,50": "2.5", "40000": "40000", " 3 ": "3", "0": "0", "1.25": "1.25",
		"1000": "1000", "1000.50": "1000.5", "1000,50": "1000.5", "1 000,50": "1000.5", "1,5": "1.5",
		"1\u00a0000": "1000", "12\u202f345 678,9": "12345678.9", "1 000 000": "1000000", ".5": "0.5",
	}
	for in, want := range good {
		d, err := ParseAmount(in)
		if err != nil || !d.Equal(decimal.RequireFromString(want)) {
			t.Errorf("ParseAmount(%q) = %s, %v; want %s", in, d, err, want)
		}
	}
	bad := map[string]string{
		"-1": "negative", "1.2345": "two decimals", "abc": "not an amount", "": "not an amount",
		"1e3": "not an amount", "1e999999999": "not an amount", "9999999999999": "beyond",
		"1,000": `ambiguous: "," before three digits may group thousands: write 1000 (or 1 000) for thousands, 1,00 for the decimal`,
		"2.001": "ambiguous: \".\" before three digits may group thousands: write 2001 (or 2 001) for thousands; as a decimal it has more than two decimals",
		"1.000": "ambiguous", "1.234": "ambiguous", "0,500": "ambiguous",
		"1,000.50": `holds both "," and "."`, "1.000,50": "both", "1.000.000": `more than one "."`,
		"1 00": "spaces group thousands", "1000 000": "spaces group thousands", "1,": "not an amount",
		"1 000.5x": "not an amount", "12 3456": "spaces group thousands", "+1": "not an amount", "1\x1b]0;x\a": "not an amount",
	}
	for in, want := range bad {
		_, err := ParseAmount(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAmount(%q) = %v, want an error saying %q", in, err, want)
		} else if strings.ContainsAny(err.Error(), "\x1b\a") {
			t.Errorf("ParseAmount(%q): %q holds control characters", in, err)
		}
	}
}

// TestParsePlainAmount checks amounts written in files keep their plain
// reading: a point or a comma, "1.000" is one euro.
func TestParsePlainAmount(t *testing.T) {
	good := map[string]string{"0.5": "0.5", "0,5": "0.5", "1.000": "1", "2.50": "2.5", "40000": "40000", "1.500": "1.5"}
	for in, want := range good {
		d, err := ParsePlainAmount(in)
		if err != nil || !d.Equal(decimal.RequireFromString(want)) {
			t.Errorf("ParsePlainAmount(%q) = %s, %v; want %s", in, d, err, want)
		}
	}
	bad := map[string]string{"-1": "negative", "1.234": "two decimals", "1 000": "not an amount", "1,000.5": "not an amount", "\v-1\a": "not an amount", "\v-1": "amount -1 is negative"}
	for in, want := range bad {
		_, err := ParsePlainAmount(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePlainAmount(%q) = %v, want an error saying %q", in, err, want)
		}
	}
}

// TestParseSeed checks a seed past 2⁶⁴−1 is said to be too large.
func TestParseSeed(t *testing.T) {
	if s, err := ParseSeed("18446744073709551615"); err != nil || s != Seed(1<<64-1) {
		t.Errorf("the largest seed: %d, %v", s, err)
	}
	for in, want := range map[string]string{"18446744073709551616": "too large", "99999999999999999999999": "too large", "-1": "not a whole number", "x": "not a whole number"} {
		if _, err := ParseSeed(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSeed(%q) = %v, want %q", in, err, want)
		}
	}
}
