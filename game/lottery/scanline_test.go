package lottery

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// scanLineBytewise is scanLine as it was first written, one byte at a
// time (a UTF-8 letter outside strings one letter at a time), for
// TestScanLine.
func scanLineBytewise(line []byte) lineScan {
	var s lineScan
	var str, esc bool
	low := 0
	var first, last byte
	for i := 0; i < len(line); i++ {
		c := line[i]
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
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f:
			if !s.bad {
				s.bad, s.badByte = true, c
			}
		case c >= 0x80:
			if r, n := utf8.DecodeRune(line[i:]); r == utf8.RuneError && n == 1 {
				if !s.bad {
					s.bad, s.badByte = true, c
				}
			} else {
				i += n - 1
			}
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
	alphabet := []byte(`{}[]"\ a:,` + "\t\r\n\x00\x01\x7f\xff\xc3\xa9")
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
