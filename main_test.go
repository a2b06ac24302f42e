package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tapis/cli"
)

// runArgs runs the program's command line args with buffers for outputs.
func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

// TestNeedsTerminal: under go test neither standard input nor output is a
// terminal, so the game refuses to start, with exit status 2, instead of
// hanging; so does replay. Bad flags are refused first.
func TestNeedsTerminal(t *testing.T) {
	if terminal() {
		t.Skip("the test runs in a terminal")
	}
	if code, _, errOut := runArgs(); code != 2 || !strings.Contains(errOut, "the game needs a terminal") {
		t.Errorf("play: exit %d, stderr %q, want 2", code, errOut)
	}
	if code, _, errOut := runArgs("--lang", "de"); code != 2 || errOut != "tapis: --lang: language \"de\" is not fr or en\n" {
		t.Errorf("bad --lang: exit %d, stderr %q, want 2", code, errOut)
	}
	layouts := filepath.Join(t.TempDir(), "l.jsonl")
	os.WriteFile(layouts, []byte(`{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]}`+"\n"), 0o644)
	if code, _, errOut := runArgs("replay", layouts); code != 2 || !strings.Contains(errOut, "showing layouts needs a terminal") {
		t.Errorf("replay: exit %d, stderr %q, want 2", code, errOut)
	}
	if code, _, errOut := runArgs("replay", filepath.Join(t.TempDir(), "none")); code != 2 || !strings.Contains(errOut, "no such file") {
		t.Errorf("replay of a missing file: exit %d, stderr %q, want 2", code, errOut)
	}
}

// TestReplayBadArguments: a bad flag, no file or two files: one line and
// exit 2.
func TestReplayBadArguments(t *testing.T) {
	for _, args := range [][]string{{"--nope", "x"}, {}, {"a", "b"}, {"x", "--lang", "de"}} {
		code, _, errOut := runArgs(append([]string{"replay"}, args...)...)
		if code != 2 || !strings.HasPrefix(errOut, "tapis replay: ") || strings.Count(errOut, "\n") != 1 {
			t.Errorf("replay %q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestFlagAfterDashes: a flag after "--" is named, with exit 2, before the
// game would take it for a game's name.
func TestFlagAfterDashes(t *testing.T) {
	code, _, errOut := runArgs("--", "--balance", "5")
	if code != 2 || errOut != "tapis: --balance comes after \"--\", which ends the flags: put it before \"--\", or leave \"--\" out\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestReplayNothingToShow: a file with no valid layout is said, exit 1.
func TestReplayNothingToShow(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	code, _, errOut := runArgs("replay", empty)
	if code != 1 || errOut != "tapis replay: no layout to show: the input is empty\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"game":"yams","cups":[]}`+"\n"), 0o644)
	code, _, errOut = runArgs("replay", bad)
	if code != 1 || !strings.HasSuffix(errOut, "tapis replay: no valid layout to show\n") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	// Random bytes: one line, exit 1, as score says it.
	random := filepath.Join(t.TempDir(), "random.bin")
	os.WriteFile(random, []byte("\xff\xfe\x00\x01{}\n\x9c\n"), 0o644)
	code, _, errOut = runArgs("replay", random)
	if code != 1 || errOut != "tapis replay: line 1 holds the byte \\xff outside any string: not a layout file, reading stopped there\ntapis replay: no valid layout to show\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestHelpIsOneText: every command prints one usage text for -h, -help,
// --help and "tapis help COMMAND", on standard output, with exit 0 and
// nothing on standard error; the game's (tapis, tapis yams, tapis vegas)
// is the program's usage, which lists every command.
func TestHelpIsOneText(t *testing.T) {
	_, program, _ := runArgs("help")
	programs := map[string]bool{"": true, "yams": true, "vegas": true, "help": true}
	for _, c := range append([]string{"", "yams", "vegas", "help"}, cli.Commands()...) {
		var runs [][]string
		for _, h := range []string{"-h", "-help", "--help"} {
			runs = append(runs, slices.DeleteFunc([]string{c, h}, func(s string) bool { return s == "" }))
		}
		switch {
		case c == "":
			runs = append(runs, []string{"help"}, []string{"--seed", "4", "--help"})
		case !programs[c]:
			runs = append(runs, []string{c, "--help", "--nope"})
			fallthrough
		default:
			runs = append(runs, []string{"help", c})
		}
		var first string
		for i, args := range runs {
			code, out, errOut := runArgs(args...)
			if code != 0 || errOut != "" || out == "" {
				t.Errorf("%q: exit %d, stderr %q, stdout %q", args, code, errOut, out)
			}
			if i == 0 {
				first = out
			} else if out != first {
				t.Errorf("%q prints:\n%s\n%q printed:\n%s", args, out, runs[0], first)
			}
		}
		if programs[c] != (first == program) {
			t.Errorf("%q -h prints the program's usage: %v", c, first == program)
		}
		if !programs[c] && !strings.Contains(program, "\n  tapis "+c+" ") {
			t.Errorf("the program's usage does not list %q", c)
		}
	}
	if code, out, errOut := runArgs("help", "dance"); code != 2 || out != "" || errOut != "tapis help: unknown command \"dance\" (see tapis help)\n" {
		t.Errorf("help dance: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestVersion: --version is one line on standard output, exit 0; under go
// test there is no module version, so it says devel.
func TestVersion(t *testing.T) {
	for _, flag := range []string{"--version", "-version"} {
		code, out, errOut := runArgs(flag)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "tapis devel") || strings.Count(out, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", flag, code, out, errOut)
		}
	}
	if code, _, errOut := runArgs("--version", "x"); code != 2 || errOut != "tapis: --version takes no argument\n" {
		t.Errorf("--version x: exit %d, stderr %q", code, errOut)
	}
}
