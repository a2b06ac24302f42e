package sshload

import "testing"

// TestParseSize: COLSxROWS with x or X, within bounds; anything else is
// refused, naming the flag and what it was given.
func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in         string
		cols, rows int
	}{{"100x30", 100, 30}, {"80X24", 80, 24}, {"20x10", 20, 10}, {"500x500", 500, 500}} {
		if cols, rows, err := ParseSize(c.in); err != nil || cols != c.cols || rows != c.rows {
			t.Errorf("ParseSize(%q) = %d, %d, %v", c.in, cols, rows, err)
		}
	}
	for _, in := range []string{"", "100", "10x30", "100x9", "501x30", "100xy", "x30", "100x30x2"} {
		if _, _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}
