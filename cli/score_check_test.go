package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vectorFiles are the published test vectors.
var vectorFiles = []string{
	filepath.Join("..", "testdata", "vectors", "yams.jsonl"),
	filepath.Join("..", "testdata", "vectors", "vegas.jsonl"),
}

// TestScoreCheckVectors: the published test vectors pass score --check
// (as .ci/run checks them too), and one vector altered, its prize or its
// layout, fails it, naming its line.
func TestScoreCheckVectors(t *testing.T) {
	code, out, errOut := run(t, "", append([]string{"score", "--check"}, vectorFiles...)...)
	if code != ExitOK || errOut != "" || !strings.HasPrefix(out, "checked ") || !strings.Contains(out, "every prize is the regulation's score") {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(vectorFiles[1])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	const at = 7 // a winning ticket: a split of the 40 000 € lot
	if !strings.Contains(lines[at-1], `"prize":"40000"`) {
		t.Fatalf("line %d: %s", at, lines[at-1])
	}
	altered := strings.Replace(lines[at-1], `"prize":"40000"`, `"prize":"39999"`, 1)
	input := strings.Join(lines[:at-1], "") + altered + strings.Join(lines[at:], "")
	code, out, errOut = run(t, input, "score", "--check")
	if code != ExitInvalid {
		t.Errorf("an altered prize: exit %d, want 1", code)
	}
	if want := "line 7: prize mismatch: the record claims 39999, the regulation's score of its layout pays 40000\n"; errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if !strings.Contains(out, "checked 1406 records: 1 problem, named on standard error") {
		t.Errorf("stdout %q", out)
	}
	// A layout altered under its prize: a cup of nothing made a yam's.
	yams, err := os.ReadFile(vectorFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(yams), "\n")
	if !strings.Contains(first, `"cups":[[1,2,3,5,6],`) || !strings.Contains(first, `"prize":"0"`) {
		t.Fatalf("line 1: %s", first)
	}
	cheat := strings.Replace(first, `"cups":[[1,2,3,5,6],`, `"cups":[[6,6,6,6,6],`, 1) // 50 points: 10 × 0,5 €
	code, _, errOut = run(t, cheat+"\n", "score", "--check")
	if want := "line 1: prize mismatch: the record claims 0, the regulation's score of its layout pays 5\n"; code != ExitInvalid || errOut != want {
		t.Errorf("an altered layout: exit %d, stderr %q, want %q", code, errOut, want)
	}
}

// TestScoreCheckRecords: score --check names a record without a prize, a
// prize that is no amount, a unit of another game or stake than its
// layout's, and checks deal's own records.
func TestScoreCheckRecords(t *testing.T) {
	const cups = `"cups":[[1,2,3,5,6],[4,4,4,2,2],[6,6,1,2,3]]`
	input := strings.Join([]string{
		`{"game":"yams","stake":"1",` + cups + `,"prize":"4"}`,
		`{"game":"yams","stake":"1",` + cups + `}`,
		`{"game":"yams","stake":"1",` + cups + `,"prize":"four"}`,
		`{"unit":"yams:2:1:5","game":"yams","stake":"1",` + cups + `,"prize":"4"}`,
		`{"unit":"vegas:3:1:5","game":"yams","stake":"1",` + cups + `,"prize":"4"}`,
		`{"unit":"yams:1:QA:2","game":"yams","stake":"1",` + cups + `,"prize":4.0}`,
		`{"unit":"not a unit","game":"yams","stake":"1",` + cups + `,"prize":"4"}`,
	}, "\n")
	code, out, errOut := run(t, input, "score", "--check")
	want := strings.Join([]string{
		`line 2: prize: missing (score --check wants a "prize" on every record)`,
		`line 3: prize: "four" is not an amount in euros`,
		`line 4: unit mismatch: unit "yams:2:1:5" names stake 2, the layout's stake is 1`,
		`line 5: unit mismatch: unit "vegas:3:1:5" names game vegas, the layout's game is yams`,
		`line 7: unit: unit "not a unit": want GAME:STAKE:BLOCK:SERIAL`,
	}, "\n") + "\n"
	if code != ExitInvalid || errOut != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, errOut, want)
	}
	if out != "checked 7 records: 5 problems, named on standard error\n" {
		t.Errorf("stdout %q", out)
	}
	// What deal writes passes.
	code, dealt, _ := run(t, "", "deal", "--game", "vegas", "--count", "50", "--seed", "3")
	if code != ExitOK {
		t.Fatalf("deal: exit %d", code)
	}
	if code, out, errOut := run(t, dealt, "score", "--check"); code != ExitOK || out != "checked 50 records: every prize is the regulation's score\n" {
		t.Errorf("deal's records: exit %d: %s%s", code, out, errOut)
	}
	if code, _, errOut := run(t, dealt, "score", "--check", "--json"); code != ExitUsage || !strings.Contains(errOut, "--check prints no score") {
		t.Errorf("--check --json: exit %d: %s", code, errOut)
	}
	// Nothing to check is no success.
	if code, out, _ := run(t, "", "score", "--check"); code != ExitInvalid || out != "checked 0 records: 1 problem, named on standard error\n" {
		t.Errorf("empty: exit %d: %q", code, out)
	}
}

// TestScoreEmptyInput: an empty input, or one of blank lines, is said to
// be empty and exits 1, as a file with no valid layout does.
func TestScoreEmptyInput(t *testing.T) {
	for _, in := range []string{"", "\n\n  \n"} {
		code, out, errOut := run(t, in, "score")
		if code != ExitInvalid || out != "" || errOut != "tapis score: standard input: no layout in it: the input is empty\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", in, code, out, errOut)
		}
	}
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "", "score", "--json", empty)
	if code != ExitInvalid || !strings.Contains(errOut, "empty.jsonl: no layout in it: the input is empty") {
		t.Errorf("a file: exit %d, stderr %q", code, errOut)
	}
}
