package game

import (
	"encoding/json"
	"testing"
)

// TestAppendJSONString: every string is written as json.Marshal writes it.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "pair", "0.5", "a b", "<", ">", "&", `"`, `\`, "\x00", "\x1f", "\x7f", "é", "\u2028", "\xff", "two_pairs"} {
		want, _ := json.Marshal(s)
		if got := AppendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	}
}
