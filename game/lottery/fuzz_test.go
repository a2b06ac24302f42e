package lottery

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"tapis/text"
)

// FuzzRead feeds the layout reader anything: it must report each layout or
// an error, never panic, scan each byte once and decode a few times the
// input at most, quote no control character in its errors, and every layout
// it accepts must score and write back to a layout that reads the same.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"game": "yams", "stake": "1", "cups": [[1,2,3,5,6], [4,4,4,2,2], [6,6,1,2,3]]}`))
	f.Add([]byte(vegasDoc))
	f.Add([]byte("{\"game\":\"yams\",\n\"cups\":[[1,1,1,1,1],\n[2,2,2,2,2],[3,3,3,3,3]]}\n{]\n"))
	f.Add([]byte(`{"unit":"yams:1:1:1","game":"yams","stake":0.5,"cups":[[1,1,1,1,1],[1,1,1,1,1],[6,6,6,6,6]],"prize":"0"}`))
	f.Add([]byte(`{"game":"vegas","roulette":{"number":1e3}}`))
	f.Add([]byte(strings.Repeat("[\n", 300)))
	f.Add([]byte(prettyArray(3)))
	f.Add([]byte(goodLine[:30] + "\n" + goodLine + "\n" + goodLine))
	f.Add([]byte("\xef\xbb\xbf" + goodLine))
	f.Add([]byte(`{"game":"yams","cups":[[1,2,3,4,"\u001b]0;pwned\u0007"],[1,2,3,4,5],[1,1,1,1,1]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		stats, err := read(bytes.NewReader(data), func(e Entry) bool {
			if e.Err != nil {
				if msg := e.Err.Error(); text.Printable(msg) != msg {
					t.Fatalf("line %d: %q holds control characters", e.Line, msg)
				}
				return true
			}
			s := e.Layout.Score()
			if s.Prize().IsNegative() {
				t.Fatalf("negative prize %s", s.Prize())
			}
			b, err := e.Layout.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse(b)
			if err != nil {
				t.Fatalf("%s does not read back: %v", b, err)
			}
			if !back.Score().Prize().Equal(s.Prize()) {
				t.Fatalf("%s scores %s, read back %s", b, s.Prize(), back.Score().Prize())
			}
			return true
		})
		var binary *NotLayoutsError
		switch {
		case errors.As(err, &binary):
			if msg := err.Error(); text.Printable(msg) != msg {
				t.Fatalf("%q holds control characters", msg)
			}
		case err != nil:
			t.Fatal(err)
		}
		if n := int64(len(data)); stats.scanned > n || stats.decoded > 4*n {
			t.Fatalf("%+v for %d bytes of input", stats, n)
		}
	})
}
