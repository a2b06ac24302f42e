package lottery

import (
	"bytes"
	"testing"
)

// FuzzRead feeds the layout reader anything: it must report each layout or
// an error, never panic, and every layout it accepts must score and write
// back to a layout that reads the same.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"game": "yams", "stake": "1", "cups": [[1,2,3,5,6], [4,4,4,2,2], [6,6,1,2,3]]}`))
	f.Add([]byte(vegasDoc))
	f.Add([]byte("{\"game\":\"yams\",\n\"cups\":[[1,1,1,1,1],\n[2,2,2,2,2],[3,3,3,3,3]]}\n{]\n"))
	f.Add([]byte(`{"unit":"yams:1:1:1","game":"yams","stake":0.5,"cups":[[1,1,1,1,1],[1,1,1,1,1],[6,6,6,6,6]],"prize":"0"}`))
	f.Add([]byte(`{"game":"vegas","roulette":{"number":1e3}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Read(bytes.NewReader(data), func(e Entry) {
			if e.Err != nil {
				return
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
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
