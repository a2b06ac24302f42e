package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode/utf8"

	"tapis/game/lottery"
	"tapis/internal/hostile"
)

const yamsLine = `{"game":"yams","stake":"1","cups":[[1,2,3,5,6],[4,4,4,2,2],[6,6,1,2,3]]}`

// withUnit writes a yams layout with a "unit" holding raw, written as is
// between the quotes.
func withUnit(raw string) string {
	return `{"unit":"` + raw + `","game":"yams","stake":"1","cups":[[1,2,3,5,6],[4,4,4,2,2],[6,6,1,2,3]]}` + "\n"
}

// controls reports whether s holds a control character a terminal obeys.
func controls(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0
	})
}

// TestScoreJSONIsValid: whatever a unit holds (control characters, bytes
// that are not UTF-8), score --json writes valid JSON.
func TestScoreJSONIsValid(t *testing.T) {
	units := []string{`\u0001`, `\u001b]0;pwned\u0007`, "bad \xff\xfe", `quote \" and \\ backslash`, `<&>`}
	var input strings.Builder
	for _, u := range units {
		input.WriteString(withUnit(u))
	}
	// Raw control characters in a JSON string are no JSON: an error, escaped.
	input.WriteString(withUnit("\x01\x1b"))
	code, out, errOut := run(t, input.String(), "score", "--json")
	if code != ExitInvalid || errOut != `line 6: invalid JSON: invalid character '\x01' in string literal`+"\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(units) {
		t.Fatalf("exit %d, %d lines for %d layouts; stderr %q", code, len(lines), len(units), errOut)
	}
	for i, l := range lines {
		if !json.Valid([]byte(l)) || !utf8.ValidString(l) {
			t.Errorf("unit %q: invalid JSON %q", units[i], l)
			continue
		}
		var rec struct{ Unit string }
		json.Unmarshal([]byte(l), &rec)
		var want string
		json.Unmarshal([]byte(`"`+units[i]+`"`), &want)
		if rec.Unit != want {
			t.Errorf("unit %q came back as %q", want, rec.Unit)
		}
	}
}

// TestScoreEscapesControlCharacters: a unit setting the terminal's title or
// clipboard, or a die that is a string of escapes, reaches neither standard
// output nor standard error as it is.
func TestScoreEscapesControlCharacters(t *testing.T) {
	input := withUnit(`\u001b]0;pwned\u0007`) + withUnit(`\u001b]52;c;aGVsbG8=\u0007`) +
		`{"game":"yams","cups":[[1,2,3,4,"\u001b]0;pwned\u0007"],[1,2,3,4,5],[1,1,1,1,1]]}` + "\n"
	code, out, errOut := run(t, input, "score")
	if code != ExitInvalid || controls(out) || controls(errOut) {
		t.Fatalf("exit %d, out %q, err %q", code, out, errOut)
	}
	if !strings.Contains(out, `\x1b]0;pwned\a`) || !strings.Contains(out, `\x1b]52;c;aGVsbG8=\a`) {
		t.Errorf("out %q", out)
	}
	if errOut != `line 3: cups[0][4]: die \x1b]0;pwned\a is not a whole number`+"\n" {
		t.Errorf("err %q", errOut)
	}
	// File names too, when several are read.
	dir := t.TempDir()
	name := filepath.Join(dir, "a\x1b[2J")
	os.WriteFile(name, []byte(`{"game":"yams"}`), 0o644)
	_, _, errOut = run(t, "", "score", name, name)
	if controls(errOut) || !strings.Contains(errOut, `a\x1b[2J: line 1: cups: missing`) {
		t.Errorf("err %q", errOut)
	}
}

// TestScoreRefusesEndlessLine: a line that never ends is refused in one line
// once 1 MiB of it is read; what came before it is scored.
func TestScoreRefusesEndlessLine(t *testing.T) {
	for _, args := range [][]string{{"score"}, {"score", "--json"}} {
		z := &hostile.Zeros{}
		var out, errOut bytes.Buffer
		code := Run(Env{Stdin: io.MultiReader(strings.NewReader(yamsLine+"\n"), z), Stdout: &out, Stderr: &errOut}, args)
		if code != ExitInvalid || errOut.String() != "line 2 is longer than 1 MiB: not a layout file, reading stopped there\n" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
		if !strings.Contains(out.String(), "28") || z.N > lottery.MaxLine+1<<17 {
			t.Errorf("%v: read %d bytes, out %q", args, z.N, out.String())
		}
	}
}

// watched is an input that, once read to its end, checks what was written
// already.
type watched struct {
	r     io.Reader
	check func()
}

func (w *watched) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if err == io.EOF {
		w.check()
	}
	return n, err
}

// TestScoreTableStreams: the table is written as layouts are read, not held
// until the end.
func TestScoreTableStreams(t *testing.T) {
	var out, errOut bytes.Buffer
	rows := 3 * heldRows
	in := &watched{r: strings.NewReader(strings.Repeat(yamsLine+"\n", rows))}
	in.check = func() {
		if n := strings.Count(out.String(), "\n"); n < rows-heldRows {
			t.Errorf("%d rows written once the whole input is read, want at least %d", n, rows-heldRows)
		}
	}
	if code := Run(Env{Stdin: in, Stdout: &out, Stderr: &errOut}, []string{"score"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if n := strings.Count(out.String(), "\n"); n != rows+1 {
		t.Errorf("%d lines, want %d", n, rows+1)
	}
}

// TestTableAsTabwriter: below heldRows rows, the table is text/tabwriter's.
func TestTableAsTabwriter(t *testing.T) {
	rows := [][]string{
		{"LINE", "UNIT", "GAME", "STAKE", "SCORE", "PRIZE"},
		{"1", "yams:1:1:3", "yams", "€1.00", "pair 3 · none 0 · yams 50 = 53 points", "€2.00"},
		{"12", "-", "vegas", "€3.00", "roulette €13.00 on color+half", "€46.00"},
		{"f.json: 3", "é€", "yams", "€0.50", "", "€0.00"},
	}
	var got, want bytes.Buffer
	tb := newTable(&got)
	tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		tb.Row(r...)
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tb.Flush()
	tw.Flush()
	if got.String() != want.String() {
		t.Errorf("table:\n%s\ntabwriter:\n%s", got.String(), want.String())
	}
}

// TestReplayLayoutsKeepsAtMostMaxRecords: replay keeps MaxRecords layouts,
// says so, and reads no further.
func TestReplayLayoutsKeepsAtMostMaxRecords(t *testing.T) {
	r, w := io.Pipe()
	go func() {
		for {
			if _, err := w.Write([]byte(yamsLine + "\n")); err != nil {
				return
			}
		}
	}()
	var errOut bytes.Buffer
	rep := ReplayLayouts(&errOut, r)
	r.Close()
	if len(rep.Entries) != lottery.MaxRecords || rep.Status != ExitOK || !rep.LeftOut {
		t.Errorf("%d layouts, status %d", len(rep.Entries), rep.Status)
	}
	if want := "tapis replay: more than 10000 layouts: the first 10000 are shown, the rest (from line 10001) is left out\n"; errOut.String() != want {
		t.Errorf("stderr %q", errOut.String())
	}
	// A file of open brackets is one error; the whole layout after them is
	// still read.
	errOut.Reset()
	rep = ReplayLayouts(&errOut, strings.NewReader(strings.Repeat("[\n", 20000)+yamsLine+"\n"))
	if len(rep.Entries) != 1 || rep.Status != ExitInvalid || strings.Count(errOut.String(), "\n") != 1 {
		t.Errorf("brackets: %d layouts, status %d, stderr %q", len(rep.Entries), rep.Status, errOut.String())
	}
	// A million invalid lines: twenty are listed, the others counted.
	errOut.Reset()
	rep = ReplayLayouts(&errOut, strings.NewReader(yamsLine+"\n"+strings.Repeat("not json\n", 1_000_000)))
	if len(rep.Entries) != 1 || rep.Invalid != 1_000_000 || strings.Count(errOut.String(), "\n") != 21 ||
		!strings.HasSuffix(errOut.String(), "tapis replay: 999980 more invalid layouts are not listed\n") {
		t.Errorf("%d layouts, %d invalid, stderr of %d bytes", len(rep.Entries), rep.Invalid, errOut.Len())
	}
}

// TestHostileArguments: values typed on the command line that used to be
// misread, and extra arguments, are named in one line with exit 2.
func TestHostileArguments(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"verify", "a", "b"}, `unexpected argument "b"`},
		{[]string{"verify", "--journal", "a", "b"}, `unexpected argument "b"`},
		{[]string{"deal", "--game", "yams", "--seed", "18446744073709551616"}, "is too large"},
		{[]string{"audit", "--game", "yams", "--seed", "18446744073709551616"}, "is too large"},
		{[]string{"deal", "--game", "yams", "--prize", "1,000"}, `"1,000" is ambiguous`},
		{[]string{"deal", "--game", "yams", "--prize", "1.000"}, `"1.000" is ambiguous`},
		{[]string{"deal", "--game", "yams", "--prize", "1,000.50"}, `holds both "," and "."`},
		{[]string{"deal", "--game", "yams", "--prize", "5\x1b[2J"}, `"5\x1b[2J" is not an amount`},
		{[]string{"deal", "--game", "yams", "--stake", "0,500"}, "ambiguous"},
	}
	for _, c := range cases {
		code, _, errOut := run(t, "", c.args...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 || controls(errOut) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
	code, out, errOut := run(t, "", "deal", "--game", "yams", "--prize", "1 000,00", "--stake", "0,5", "--seed", "1")
	if code != ExitUsage || !strings.Contains(errOut, "is not a lot") {
		t.Errorf("1 000,00 reads as a thousand: exit %d, %q %q", code, out, errOut)
	}
}

// TestVerifyEscapes: a journal's units and blocks reach the terminal with
// their control characters escaped, and verify --json stays valid JSON.
func TestVerifyEscapes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	os.WriteFile(path, []byte(startedJournal(t, filepath.Join(t.TempDir(), "start.jsonl"))+
		`{"kind":"shown","time":"2026-11-29T20:00:01Z","unit":"x\u001b]0;pwned\u0007"}`+"\n"+
		`{"kind":"reveal","time":"2026-11-29T20:00:02Z","block":"\u001b[2J","block_seed":"00"}`+"\n"), 0o600)
	code, out, errOut := run(t, "", "verify", path)
	if code != ExitInvalid || controls(out) || controls(errOut) || !strings.Contains(out, `unit x\x1b]0;pwned\a`) {
		t.Errorf("exit %d, out %q, err %q", code, out, errOut)
	}
	_, out, _ = run(t, "", "verify", path, "--json")
	if !json.Valid([]byte(out)) || controls(out) {
		t.Errorf("--json: %q", out)
	}
}
