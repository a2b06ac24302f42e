package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestNeedsTerminal: under go test neither standard input nor output is a
// terminal, so the game refuses to start, with exit status 2, instead of
// hanging; so does replay. Bad flags are refused first.
func TestNeedsTerminal(t *testing.T) {
	if terminal() {
		t.Skip("the test runs in a terminal")
	}
	if code := play(nil); code != 2 {
		t.Errorf("play: exit %d, want 2", code)
	}
	if code := play([]string{"--lang", "de"}); code != 2 {
		t.Errorf("bad --lang: exit %d, want 2", code)
	}
	layouts := filepath.Join(t.TempDir(), "l.jsonl")
	os.WriteFile(layouts, []byte(`{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]}`+"\n"), 0o644)
	if code := replay([]string{layouts}); code != 2 {
		t.Errorf("replay: exit %d, want 2", code)
	}
	if code := replay([]string{filepath.Join(t.TempDir(), "none")}); code != 2 {
		t.Errorf("replay of a missing file: exit %d, want 2", code)
	}
}

// TestReplayBadFlag: a bad flag is one line and exit 2.
func TestReplayBadFlag(t *testing.T) {
	if code := replay([]string{"--nope", "x"}); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}

// TestFlagAfterDashes: a flag after "--" is named, with exit 2, before the
// game would take it for a game's name.
func TestFlagAfterDashes(t *testing.T) {
	err := flagAfterDashes([]string{"--", "--balance", "5"})
	if err == nil || err.Error() != `--balance comes after "--", which ends the flags: put it before "--", or leave "--" out` {
		t.Errorf("error %v", err)
	}
	for _, ok := range [][]string{nil, {"--balance", "5", "--"}, {"--", "yams"}, {"yams", "--seed", "1"}} {
		if err := flagAfterDashes(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if code := play([]string{"--", "--balance", "5"}); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}

// TestReplayNothingToShow: a file with no valid layout is said, exit 1.
func TestReplayNothingToShow(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	code := replay([]string{empty})
	os.Stderr = stderr
	w.Close()
	out, _ := io.ReadAll(r)
	if code != 1 || string(out) != "tapis replay: no valid layout to show\n" {
		t.Errorf("exit %d, stderr %q", code, out)
	}
}
