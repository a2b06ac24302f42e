package vegas

import "testing"

// TestReadCard: every string of two bytes reads as ParseCard reads it.
func TestReadCard(t *testing.T) {
	for a := range 256 {
		for b := range 256 {
			s := string([]byte{byte(a), byte(b)})
			c, ok := readCard(s)
			wc, wok := ParseCard(s)
			if c != wc || ok != wok {
				t.Fatalf("%q: %v %v, ParseCard %v %v", s, c, ok, wc, wok)
			}
		}
	}
}
