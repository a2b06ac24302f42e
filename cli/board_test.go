package cli

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapis/board"
	"tapis/ledger"
	"tapis/store"
)

// TestBoardUsageErrors: a bad flag, a store that does not exist (which
// tapis board never creates) or no terminal: one line, exit status 2.
func TestBoardUsageErrors(t *testing.T) {
	dir, house := houseStore(t)
	missing := filepath.Join(dir, "missing.db")
	usageErrors(t, "board", []usageCase{
		{[]string{"--nope"}, "flag provided but not defined: -nope"},
		{[]string{"--lang", "de"}, `--lang: language "de" is not fr or en`},
		{[]string{"--store", "tapis.json"}, "--store tapis.json: want sqlite:PATH"},
		{[]string{"--store", "sqlite:"}, "--store sqlite:: want sqlite:PATH"},
		{[]string{"now"}, `unexpected argument "now"`},
		{nil, "--store URL is required (the store tapis serve sells from, as sqlite:tapis.db)"},
		{[]string{"--lang", "fr"}, "--store URL is required"},
		{[]string{"--store", "sqlite:tapis.db", "--join-address", "stand.local:0"}, `--join-address "stand.local:0": port "0": want 1 to 65535`},
		{[]string{"--store", "sqlite:tapis.db", "--join-address", "a\x1b[2Jb"}, `--join-address "a\x1b[2Jb": host`},
		{[]string{"--store", "sqlite:" + missing}, "no such file or directory"},
		{[]string{"--store", "sqlite:" + house}, "the board needs a terminal"},
	})
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("tapis board created the store it was asked to show: %v", err)
	}
}

// houseStore makes a store in a new directory: the directory, and the
// store's path.
func houseStore(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "house.db")
	st, err := store.Open(context.Background(), "sqlite:"+path, store.Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	return dir, path
}

// usageCase is a command's arguments, and what its one line of error says.
type usageCase struct {
	args []string
	want string
}

// usageErrors checks that each case of a command exits with status 2 and
// one line on standard error, naming the command, saying want.
func usageErrors(t *testing.T, command string, cases []usageCase) {
	t.Helper()
	for _, c := range cases {
		code, out, errOut := run(t, "", append([]string{command}, c.args...)...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "tapis "+command+": ") {
			t.Errorf("%s %q: %d, %q, %q; want 2 and a line with %q", command, c.args, code, out, errOut, c.want)
		}
	}
}

// TestBoardHelp: tapis board -h and help board print its usage.
func TestBoardHelp(t *testing.T) {
	for _, args := range [][]string{{"board", "-h"}, {"help", "board"}} {
		code, out, errOut := run(t, "", args...)
		if code != ExitOK || errOut != "" || !strings.Contains(out, "tapis board --store URL [--lang fr|en]") || !strings.Contains(out, "-store URL") {
			t.Errorf("%q: %d, %q, %q", args, code, out, errOut)
		}
	}
}

// TestJoinAddress: tapis serve's --join-address takes the listener's
// port when it names none; without it, the listener's address is the
// join address, the machine's name when it listens on every address.
func TestJoinAddress(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	for in, want := range map[string]board.Join{
		"":                 {Host: "127.0.0.1", Port: port},
		"stand.local":      {Host: "stand.local", Port: port},
		"stand.local:2222": {Host: "stand.local", Port: 2222},
	} {
		if got, err := joinAddress(in, l.Addr()); err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", in, got, err, want)
		}
	}
	usageErrors(t, "serve", []usageCase{{[]string{"--join-address", "a b"}, `--join-address "a b": host "a b": letters, digits`}})
}
