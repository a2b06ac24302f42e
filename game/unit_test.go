package game

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestNames: each name reads back as it was written, a decimal comma reads
// as the stake it writes, and bad input is one error naming the name and
// the field at fault, with its control characters escaped.
func TestNames(t *testing.T) {
	type parser func(string) (fmt.Stringer, error)
	seq := func(s string) (fmt.Stringer, error) { return ParseSeqKey(s) }
	block := func(s string) (fmt.Stringer, error) { return ParseBlockID(s) }
	unit := func(s string) (fmt.Stringer, error) { return ParseUnitID(s) }
	good := []struct {
		parse parser
		in    string
		want  string
	}{
		{seq, "yams:0.5", "yams:0.5"}, {seq, "vegas:3", "vegas:3"}, {seq, "yams:0,5", "yams:0.5"}, {seq, "yams:2.00", "yams:2"},
		{block, "yams:0.5:1", "yams:0.5:1"}, {block, "vegas:3:12", "vegas:3:12"}, {block, "yams:1,00:7", "yams:1:7"},
		{unit, "yams:0.5:1:48213", "yams:0.5:1:48213"}, {unit, "vegas:3:2:1499999", "vegas:3:2:1499999"},
		{unit, "yams:2:10:1", "yams:2:10:1"}, {unit, "yams:0,5:1:7", "yams:0.5:1:7"},
	}
	for _, c := range good {
		got, err := c.parse(c.in)
		if err != nil || got.String() != c.want {
			t.Errorf("%q read as %v, %v; want %s", c.in, got, err, c.want)
		}
	}
	bad := []struct {
		parse parser
		in    string
		want  string
	}{
		{seq, "", `sequence "": want GAME:STAKE`},
		{seq, "yams", `sequence "yams": want GAME:STAKE`},
		{seq, "yams:1:1", `sequence "yams:1:1": want GAME:STAKE`},
		{seq, ":1", `sequence ":1": the game is missing`},
		{seq, "yams:x", `sequence "yams:x": stake: `},
		{seq, "yams:-1", `sequence "yams:-1": stake: amount -1 is negative`},
		{block, "yams:1", `block "yams:1": want GAME:STAKE:BLOCK`},
		{block, "yams:1:0", `block "yams:1:0": block "0" is not a number from 1`},
		{block, "yams:1:x", `block "yams:1:x": block "x" is not a number from 1`},
		{block, "yams:1:1:1", `block "yams:1:1:1": want GAME:STAKE:BLOCK`},
		{block, "yams:1:\x1b[2J", `block "yams:1:\x1b[2J": block "\x1b[2J" is not a number from 1`},
		{unit, "yams:1:1", `unit "yams:1:1": want GAME:STAKE:BLOCK:SERIAL`},
		{unit, "yams:x:1:1", `unit "yams:x:1:1": stake: `},
		{unit, "yams:1:0:1", `unit "yams:1:0:1": block "0" is not a number from 1`},
		{unit, "yams:1:1:0", `unit "yams:1:1:0": serial "0" is not a number from 1`},
		{unit, "yams:1:1:-3", `serial "-3" is not a number from 1`},
		{unit, "yams:1:a:1", `block "a" is not a number from 1`},
		{unit, "yams:2:QA:1", `block "QA" is not a number from 1`},
		{unit, "a:1:1:1:1", `want GAME:STAKE:BLOCK:SERIAL`},
		{unit, ":1:1:1", `the game is missing`},
	}
	for _, c := range bad {
		_, err := c.parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.in, err, c.want)
		} else if strings.ContainsAny(err.Error(), "\x1b\n") {
			t.Errorf("%q: %q holds control characters", c.in, err)
		}
	}
}

// TestNamesCompose: a unit's sequence and block are named as the unit is,
// up to their own fields.
func TestNamesCompose(t *testing.T) {
	id := UnitID{Game: "yams", Stake: decimal.New(5, -1), Block: 3, Serial: 9}
	if k, b := id.Seq(), id.BlockID(); k.String() != "yams:0.5" || b.String() != "yams:0.5:3" || b.Seq().String() != k.String() || k.Block(3).String() != b.String() {
		t.Errorf("unit %s: sequence %s, block %s", id, k, b)
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
	if s, err := ParseSeed("18446744073709551615"); err != nil || s != SeedFrom(1<<64-1) {
		t.Errorf("the largest seed: %s, %v", s, err)
	}
	r, _ := RandomSeed()
	if s, err := ParseSeed(r.String()); err != nil || s != r {
		t.Errorf("a seed does not read back from its hexadecimal: %s, %v", s, err)
	}
	for in, want := range map[string]string{"18446744073709551616": "too large", "99999999999999999999999": "too large", "-1": "is not a seed", "x": "is not a seed"} {
		if _, err := ParseSeed(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSeed(%q) = %v, want %q", in, err, want)
		}
	}
}

// TestReadSeqKey reads a key from a store's two columns as ParseSeqKey
// reads it written whole, and refuses what it refuses.
func TestReadSeqKey(t *testing.T) {
	for _, c := range [][2]string{{"yams", "0.5"}, {"vegas", "3"}, {"yams", "2"}} {
		got, err := ReadSeqKey(c[0], c[1])
		want, werr := ParseSeqKey(c[0] + ":" + c[1])
		if err != nil || werr != nil || got.String() != want.String() {
			t.Errorf("%v: %v, %v; ParseSeqKey %v, %v", c, got, err, want, werr)
		}
	}
	for _, c := range [][2]string{{"", "1"}, {"yams", ""}, {"yams", "one"}, {"ya:ms", "1"}, {"yams", "-1"}} {
		if _, err := ReadSeqKey(c[0], c[1]); err == nil {
			t.Errorf("%q read as a sequence", c)
		}
		if _, err := ParseSeqKey(c[0] + ":" + c[1]); err == nil && c[0] != "ya:ms" {
			t.Errorf("ParseSeqKey takes %q", c)
		}
	}
}
