package lottery

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"tapis/internal/hostile"
)

const goodLine = `{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]}`

// readCounting reads input and returns its entries and the work done.
func readCounting(t *testing.T, input string) ([]Entry, readStats) {
	t.Helper()
	var es []Entry
	stats, err := read(strings.NewReader(input), func(e Entry) bool {
		es = append(es, e)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return es, stats
}

// prettyArray writes n layouts as an indented JSON array, one number per
// line as jq writes it, without its final bracket.
func prettyArray(n int) string {
	var b strings.Builder
	b.WriteString("[\n")
	for i := range n {
		b.WriteString("  {\n    \"game\": \"yams\",\n    \"cups\": [\n")
		for c := range 3 {
			b.WriteString("      [\n")
			for d := range 5 {
				fmt.Fprintf(&b, "        %d%s\n", c+1, map[bool]string{true: ",", false: ""}[d < 4])
			}
			b.WriteString("      ]" + map[bool]string{true: ",", false: ""}[c < 2] + "\n")
		}
		b.WriteString("    ]\n  }" + map[bool]string{true: ",", false: ""}[i < n-1] + "\n")
	}
	return b.String()
}

// TestReadLinear feeds the reader what used to make it quadratic or worse:
// whatever the input, each byte is scanned once and the JSON decoder is
// handed at most a few times its size; a value left open is one error.
func TestReadLinear(t *testing.T) {
	cases := []struct {
		name   string
		input  string
		errors int // entries in error
		good   int // layouts read
	}{
		{"20000 lines of [", strings.Repeat("[\n", 20000), 1, 0},
		{"20000 lines of {", strings.Repeat("{\n", 20000), 1, 0},
		{"20000 lines opening a key", strings.Repeat(`{"a":[`+"\n", 20000), 1, 0},
		{"a pretty array without its ]", prettyArray(2000), 1, 0},
		{"a line cut short, then good lines", goodLine[:30] + "\n" + strings.Repeat(goodLine+"\n", 5000), 1, 5000},
		{"lines cut short between good lines", strings.Repeat(goodLine[:30]+"\n"+goodLine+"\n", 3000), 1, 3000},
		{"brackets closed too often", strings.Repeat("]}\n", 20000), 20000, 0},
		{"a stray closer in each value", strings.Repeat("{\n\"a\": [1]]\n}\n", 5000), 10000, 0},
		{"long values closing on their last line", strings.Repeat(strings.Repeat("[\n", 300)+strings.Repeat("]\n", 300), 20), 20, 0},
	}
	for _, c := range cases {
		es, stats := readCounting(t, c.input)
		bad, good := 0, 0
		for _, e := range es {
			if e.Err != nil {
				bad++
			} else {
				good++
			}
		}
		if bad != c.errors || good != c.good {
			t.Errorf("%s: %d errors and %d layouts, want %d and %d (first: %+v)", c.name, bad, good, c.errors, c.good, es[0])
		}
		if stats.scanned > int64(len(c.input)) {
			t.Errorf("%s: %d bytes scanned for %d of input", c.name, stats.scanned, len(c.input))
		}
		if limit := 4*int64(len(c.input)) + 1024; stats.decoded > limit {
			t.Errorf("%s: %d bytes handed to the JSON decoder for %d of input (limit %d)", c.name, stats.decoded, len(c.input), limit)
		}
	}
}

// TestReadOpenValueLongerThanALayout lets go of a value left open past
// MaxLayout: one error, and the whole objects on the lines after it are
// still read, as many as there are.
func TestReadOpenValueLongerThanALayout(t *testing.T) {
	n := 2*MaxLayout/len(goodLine) + 10
	input := goodLine[:30] + "\n" + strings.Repeat(goodLine+"\n", n)
	es, stats := readCounting(t, input)
	if len(es) != n+1 || es[0].Err == nil || es[0].Line != 1 {
		t.Fatalf("%d entries, want %d; first %+v", len(es), n+1, es[0])
	}
	if !strings.Contains(es[0].Err.Error(), "invalid JSON") {
		t.Errorf("the line cut short: %v", es[0].Err)
	}
	for _, e := range es[1:] {
		if e.Err != nil {
			t.Fatalf("line %d: %v", e.Line, e.Err)
		}
	}
	if es[n].Line != n+1 {
		t.Errorf("the last layout is on line %d, want %d", es[n].Line, n+1)
	}
	if limit := 4 * int64(len(input)); stats.decoded > limit || stats.scanned > int64(len(input)) {
		t.Errorf("%+v for %d bytes of input", stats, len(input))
	}

	// A value too long but well formed is one error; reading goes on after it.
	long := "{\"a\": [\n" + strings.Repeat("1,\n", MaxLayout/2) + "1]}\n" + goodLine + "\n"
	es, _ = readCounting(t, long)
	if len(es) != 2 || es[0].Err == nil || !strings.Contains(es[0].Err.Error(), "longer than 1 MiB") || es[1].Err != nil {
		t.Fatalf("%d entries: %+v", len(es), es)
	}
}

// TestReadStopsAtLongLine reads an endless line: reading stops once MaxLine
// bytes of it are read, with an error naming the line.
func TestReadStopsAtLongLine(t *testing.T) {
	z := &hostile.Zeros{}
	r := io.MultiReader(strings.NewReader(goodLine+"\n"), z)
	var es []Entry
	err := Read(r, func(e Entry) { es = append(es, e) })
	var long *LineTooLongError
	if !errors.As(err, &long) || long.Line != 2 {
		t.Fatalf("error %v, want line 2 too long", err)
	}
	if len(es) != 1 || es[0].Err != nil {
		t.Errorf("entries %+v", es)
	}
	if z.N > MaxLine+2<<16 {
		t.Errorf("read %d bytes of the endless line, for a limit of %d", z.N, MaxLine)
	}
	// A line of exactly MaxLine bytes is read, and is an error of its own.
	es = nil
	if err := Read(strings.NewReader(strings.Repeat(" ", MaxLine-1)+"x\n"+goodLine), func(e Entry) { es = append(es, e) }); err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Err == nil || es[1].Err != nil {
		t.Errorf("entries %+v", es)
	}
}

// TestReadWhileStops stops reading an endless stream when asked.
func TestReadWhileStops(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		for {
			if _, err := w.Write([]byte(goodLine + "\n")); err != nil {
				return
			}
		}
	}()
	n := 0
	err := ReadWhile(r, func(Entry) bool {
		n++
		return n < 3
	})
	r.Close()
	if err != nil || n != 3 {
		t.Errorf("read %d entries, error %v; want 3", n, err)
	}
}

// TestReadByteOrderMark skips a UTF-8 byte-order mark at the start.
func TestReadByteOrderMark(t *testing.T) {
	es := readAll(t, "\xef\xbb\xbf"+goodLine+"\n"+goodLine)
	if len(es) != 2 || es[0].Err != nil || es[1].Err != nil || es[0].Line != 1 {
		t.Fatalf("%+v", es)
	}
	// Only at the start.
	es = readAll(t, goodLine+"\n\xef\xbb\xbf"+goodLine)
	if len(es) != 2 || es[1].Err == nil {
		t.Fatalf("%+v", es)
	}
}

// TestReadEscapesControlCharacters checks errors that quote a file's text
// hold no control character, but their escapes.
func TestReadEscapesControlCharacters(t *testing.T) {
	cases := map[string]string{
		`{"game":"yams","cups":[[1,2,3,4,"\u001b]0;pwned\u0007"],[1,2,3,4,5],[1,1,1,1,1]]}`: `die \x1b]0;pwned\a is not a whole number`,
		`{"game":"yams","stake":"\u000b-1","cups":[]}`:                                      `stake: amount -1 is negative`,
		`{"game":"yams","stake":"1\u009b2","cups":[]}`:                                      `"1\u009b2" is not an amount`,
		`{"game":"yams\u001b[2J"}`:                                                          `"yams\x1b[2J" is not yams or vegas`,
		"{\"game\":\"yams\", \"cups\":[[1,1,1,1,\"\xff\"],[1,2,3,4,5],[1,1,1,1,1]]}":        "die \ufffd is not a whole number",
	}
	for in, want := range cases {
		es := readAll(t, in)
		if len(es) != 1 || es[0].Err == nil {
			t.Errorf("%q: %+v", in, es)
			continue
		}
		msg := es[0].Err.Error()
		if !strings.Contains(msg, want) {
			t.Errorf("%q: %q, want %q", in, msg, want)
		}
		if bytes.ContainsFunc([]byte(msg), func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }) {
			t.Errorf("%q: %q holds control characters", in, msg)
		}
	}
}

// TestReadNotLayouts: random bytes, a control character or a byte that is
// not UTF-8 outside strings stop the reader at once with one error naming
// the line and the byte, escaped (\xff, not the Latin-1 'ÿ'), having
// scanned only that line; a UTF-8 letter outside strings is a JSON error
// of its line, and reading goes on.
func TestReadNotLayouts(t *testing.T) {
	random := make([]byte, 10<<20)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	cases := []struct {
		in   []byte
		want string
	}{
		{random, "line 1 holds the byte "},
		{[]byte(goodLine + "\n{\"game\":\"yams\", \xff}\n" + goodLine), `line 2 holds the byte \xff outside any string: not a layout file, reading stopped there`},
		{[]byte("{\"game\":\"yams\", \x1b}"), `line 1 holds the byte \x1b outside any string`},
		{[]byte("\x00\x00\x00"), `line 1 holds the byte \x00 outside any string`},
	}
	for _, c := range cases {
		var entries int
		stats, err := read(bytes.NewReader(c.in), func(e Entry) bool { entries++; return true })
		var binary *NotLayoutsError
		if !errors.As(err, &binary) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v, want %q", c.in, err, c.want)
			continue
		}
		if entries > 1 || stats.scanned > MaxLine {
			t.Errorf("%.40q: %d entries, %d bytes scanned", c.in, entries, stats.scanned)
		}
	}
	// A letter mistyped outside a string is no binary file.
	es := readAll(t, "{\"game\": “yams”}\n"+goodLine)
	if len(es) != 2 || es[0].Err == nil || !strings.Contains(es[0].Err.Error(), "invalid character '“' looking for beginning of value") || es[1].Err != nil {
		t.Errorf("%+v", es)
	}
}

// BenchmarkReadBrackets reads lines of "[" that never close, which used to
// take time growing with the square of their number (and more).
func BenchmarkReadBrackets(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		input := []byte(strings.Repeat("[\n", n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(input)))
			for b.Loop() {
				if err := Read(bytes.NewReader(input), func(Entry) {}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadLines reads JSON lines of layouts.
func BenchmarkReadLines(b *testing.B) {
	input := []byte(strings.Repeat(goodLine+"\n", 1000))
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		if err := Read(bytes.NewReader(input), func(Entry) {}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNothingVanishes: after a value left open, a layout spread over lines
// inside it is not read, and its error says which lines were not.
func TestNothingVanishes(t *testing.T) {
	in := `{"game":"yams",
{"game":"yams","stake":"1",
 "cups":[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]}
{"game":"yams","cups":[[6,6,6,6,6],[2,2,2,2,2],[3,3,3,3,3]]}
`
	var got []string
	Read(strings.NewReader(in), func(e Entry) {
		if e.Err != nil {
			got = append(got, fmt.Sprintf("line %d: %v", e.Line, e.Err))
			return
		}
		got = append(got, fmt.Sprintf("line %d: %s", e.Line, e.Layout.Score().Prize()))
	})
	want := []string{"line 1: invalid JSON: invalid character '{' looking for beginning of object key string (lines 2 to 3, inside it, are not read)", "line 4: 0"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
