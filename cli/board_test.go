package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapis/store"
)

// TestBoardUsageErrors: a bad flag, a store that does not exist (which
// tapis board never creates) or no terminal: one line, exit status 2.
func TestBoardUsageErrors(t *testing.T) {
	dir := t.TempDir()
	house := filepath.Join(dir, "house.db")
	st, err := store.Open(context.Background(), "sqlite:"+house, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	missing := filepath.Join(dir, "missing.db")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--nope"}, "flag provided but not defined: -nope"},
		{[]string{"--lang", "de"}, `--lang: language "de" is not fr or en`},
		{[]string{"--store", "tapis.json"}, "--store tapis.json: want sqlite:PATH"},
		{[]string{"--store", "sqlite:"}, "--store sqlite:: want sqlite:PATH"},
		{[]string{"now"}, `unexpected argument "now"`},
		{[]string{"--store", "sqlite:" + missing}, "no such file or directory"},
		{[]string{"--store", "sqlite:" + house}, "the board needs a terminal"},
	}
	for _, c := range cases {
		code, out, errOut := run(t, "", append([]string{"board"}, c.args...)...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "tapis board: ") {
			t.Errorf("board %q: %d, %q, %q; want 2 and a line with %q", c.args, code, out, errOut, c.want)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("tapis board created the store it was asked to show: %v", err)
	}
}

// TestBoardHelp: tapis board -h and help board print its usage.
func TestBoardHelp(t *testing.T) {
	for _, args := range [][]string{{"board", "-h"}, {"help", "board"}} {
		code, out, errOut := run(t, "", args...)
		if code != ExitOK || errOut != "" || !strings.Contains(out, "tapis board [--store URL] [--lang fr|en]") || !strings.Contains(out, "-store URL") {
			t.Errorf("%q: %d, %q, %q", args, code, out, errOut)
		}
	}
}
