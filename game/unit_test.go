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

func TestParseAmount(t *testing.T) {
	good := map[string]string{"0.5": "0.5", "0,5": "0.5", "2,50": "2.5", "40000": "40000", " 3 ": "3", "0": "0", "1.25": "1.25"}
	for in, want := range good {
		d, err := ParseAmount(in)
		if err != nil || !d.Equal(decimal.RequireFromString(want)) {
			t.Errorf("ParseAmount(%q) = %s, %v; want %s", in, d, err, want)
		}
	}
	bad := map[string]string{
		"-1": "negative", "1.234": "two decimals", "abc": "not an amount", "": "not an amount",
		"1e3": "not an amount", "1,000.5": "not an amount", "1e999999999": "not an amount", "9999999999999": "beyond",
	}
	for in, want := range bad {
		_, err := ParseAmount(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAmount(%q) = %v, want an error saying %q", in, err, want)
		}
	}
}
