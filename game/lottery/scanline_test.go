package lottery

import (
	"math/rand/v2"
	"testing"
)

// scanLineBytewise is scanLine as it was first written, one byte at a
// time, for TestScanLine.
func scanLineBytewise(line []byte) lineScan {
	var s lineScan
	var str, esc bool
	low := 0
	var first, last byte
	for _, c := range line {
		switch {
		case esc:
			esc = false
		case str && c == '\\':
			esc = true
		case c == '"':
			str = !str
		case str:
		case c == '{' || c == '[':
			s.delta++
		case c == '}' || c == ']':
			s.delta--
			low = min(low, s.delta)
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			if first == 0 {
				first = c
			}
			last = c
		}
	}
	s.whole = first == '{' && last == '}' && !str && s.delta == 0 && low == 0
	return s
}

// TestScanLine: lines of brackets, quotes, backslashes, spaces and NULs
// scan as they did one byte at a time.
func TestScanLine(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte(`{}[]"\ a:,` + "\t\r\n\x00")
	for range 200000 {
		line := make([]byte, r.IntN(14))
		for i := range line {
			line[i] = alphabet[r.IntN(len(alphabet))]
		}
		if got, want := scanLine(line), scanLineBytewise(line); got != want {
			t.Fatalf("%q: %+v, want %+v", line, got, want)
		}
	}
	for _, line := range []string{goodLine, vegasLine, vegasDoc, `{"a":"}\"{"}`, `{"a":"\\"}`, ` { } `, `"{}"`} {
		if got, want := scanLine([]byte(line)), scanLineBytewise([]byte(line)); got != want {
			t.Errorf("%q: %+v, want %+v", line, got, want)
		}
	}
}
