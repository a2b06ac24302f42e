package text

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestPrintable(t *testing.T) {
	cases := map[string]string{
		"":                             "",
		"yams:1:1:3":                   "yams:1:1:3",
		"\x1b]0;pwned\a":               `\x1b]0;pwned\a`,
		"\x1b]52;c;aGVsbG8=\a":         `\x1b]52;c;aGVsbG8=\a`,
		"tab\there\nnew\rline\x00\x7f": `tab\there\nnew\rline\x00\x7f`,
		"\u009b2J":                     `\u009b2J`,
		"right\u202eto left":           `right\u202eto left`,
		"bad \xff\xfe byte":            `bad \xff\xfe byte`,
		"café 2,50 € · ok":             "café 2,50 € · ok",
		"\ufffd written out":           "\ufffd written out",
		`a \x1b already escaped`:       `a \x1b already escaped`,
	}
	for in, want := range cases {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
		if got := Printable(Printable(in)); got != Printable(in) {
			t.Errorf("Printable is not idempotent on %q: %q", in, got)
		}
	}
	// As %q writes them, quotes aside, for every control character.
	for r := rune(0); r < 0xa0; r++ {
		if r >= 0x20 && r < 0x7f {
			continue
		}
		q := fmt.Sprintf("%q", string(r))
		if got := Printable(string(r)); got != q[1:len(q)-1] {
			t.Errorf("Printable(%q) = %q, want %s", string(r), got, q)
		}
	}
}

// endless reads as a line that never ends, and counts what it gave.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.n += len(p)
	return len(p), nil
}

func TestReadLine(t *testing.T) {
	br := bufio.NewReaderSize(strings.NewReader("one\n"+strings.Repeat("y", 100)+"\nlast"), 16)
	var got []string
	for {
		line, err := ReadLine(br, 100)
		if len(line) > 0 {
			got = append(got, string(line))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"one\n", strings.Repeat("y", 100) + "\n", "last"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
	for _, in := range []string{strings.Repeat("y", 101) + "\n", strings.Repeat("y", 101)} {
		if _, err := ReadLine(bufio.NewReaderSize(strings.NewReader(in), 16), 100); !errors.Is(err, ErrLineTooLong) {
			t.Errorf("%d bytes: %v, want ErrLineTooLong", len(in), err)
		}
	}
	// An endless line is refused after the limit and a buffer, at most.
	e := &endless{}
	if _, err := ReadLine(bufio.NewReaderSize(e, 4096), 1<<20); !errors.Is(err, ErrLineTooLong) || e.n > 1<<20+2*4096 {
		t.Errorf("endless line: %v after %d bytes", err, e.n)
	}
}

// TestLineReader: a LineReader reads the lines ReadLine reads, and refuses
// the same long lines.
func TestLineReader(t *testing.T) {
	in := "one\n" + strings.Repeat("y", 100) + "\n\n" + strings.Repeat("z", 40) + "\nlast"
	lr, br := NewLineReader(bufio.NewReaderSize(strings.NewReader(in), 16), 100), bufio.NewReaderSize(strings.NewReader(in), 16)
	for {
		got, err := lr.ReadLine()
		want, werr := ReadLine(br, 100)
		if string(got) != string(want) || err != werr {
			t.Fatalf("%q, %v; ReadLine %q, %v", got, err, want, werr)
		}
		if err != nil {
			break
		}
	}
	for _, in := range []string{strings.Repeat("y", 101) + "\n", strings.Repeat("y", 101), strings.Repeat("y", 100) + "\n"} {
		_, err := NewLineReader(bufio.NewReaderSize(strings.NewReader(in), 16), 100).ReadLine()
		_, werr := ReadLine(bufio.NewReaderSize(strings.NewReader(in), 16), 100)
		if err != werr {
			t.Errorf("%d bytes: %v, ReadLine %v", len(in), err, werr)
		}
	}
	e := &endless{}
	if _, err := NewLineReader(bufio.NewReaderSize(e, 4096), 1<<20).ReadLine(); !errors.Is(err, ErrLineTooLong) || e.n > 1<<20+2*4096 {
		t.Errorf("endless line: %v after %d bytes", err, e.n)
	}
}

// TestJSONSafe: runes a terminal would obey become \u escapes, and the
// JSON still reads the same.
func TestJSONSafe(t *testing.T) {
	in, _ := json.Marshal(map[string]string{"unit": "a\u202eb\u0085c\U000e0001é€"})
	out := JSONSafe(in)
	if strings.ContainsRune(string(out), '\u202e') || strings.ContainsRune(string(out), '\u0085') || !strings.Contains(string(out), `\u202e`) ||
		!strings.Contains(string(out), `\udb40\udc01`) || !strings.Contains(string(out), "é€") {
		t.Errorf("%s", out)
	}
	var back, want map[string]string
	json.Unmarshal(in, &want)
	if err := json.Unmarshal(out, &back); err != nil || back["unit"] != want["unit"] {
		t.Errorf("%q reads back as %q (%v)", out, back["unit"], err)
	}
}
