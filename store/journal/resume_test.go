package journal_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapis/game"
	"tapis/ledger"
	"tapis/session"
	"tapis/store"
)

// TestTornLine cuts the last line short, as a crash while writing would:
// the journal is read up to the line before, and goes on from there.
func TestTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	a := open(t, path, game.SeedFrom(8))
	play(t, a, 10)
	a.Close()
	good, _ := os.ReadFile(path)
	torn := append(append([]byte{}, good...), []byte(`{"kind":"buy","time":"2026-11-29T20:00:00Z","seq":11,"unit":"yams:1:1`)...)
	os.WriteFile(path, torn, 0o644)
	b := open(t, path, game.SeedFrom(8))
	if !strings.Contains(b.Note, "line") || b.Restored().Balance.String() == "" || b.Restored().Purchases != 10 {
		t.Fatalf("note %q, %d purchases", b.Note, b.Restored().Purchases)
	}
	play(t, b, 3)
	b.Close()
	if rep := verify(t, path); !rep.OK() || rep.Purchases != 13 {
		t.Fatalf("after a torn line: %+v", rep)
	}
}

// TestRefusedJournals refuses a journal corrupt in the middle, and one of
// another seed, and changes neither.
func TestRefusedJournals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	a := open(t, path, game.SeedFrom(3))
	play(t, a, 6)
	a.Close()
	good, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(good), "\n")
	corrupt := strings.Join(append(append(append([]string{}, lines[:3]...), "{garbage\n"), lines[4:]...), "")
	os.WriteFile(path, []byte(corrupt), 0o644)
	if _, err := session.Open(session.Options{Seed: game.SeedFrom(3), Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables}); err == nil || !strings.Contains(err.Error(), "line 4: not a journal record") {
		t.Errorf("corrupt journal: %v", err)
	}
	if now, _ := os.ReadFile(path); string(now) != corrupt {
		t.Error("a refused journal was changed")
	}
	os.WriteFile(path, good, 0o644)
	if _, err := session.Open(session.Options{Seed: game.SeedFrom(4), SeedSet: true, Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables}); err == nil || !strings.Contains(err.Error(), "another seed") {
		t.Errorf("other seed: %v", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, good) {
		t.Error("a journal of another seed was changed")
	}
	// Without --seed, the journal's seed is taken.
	s, err := session.Open(session.Options{Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Seed() != game.SeedFrom(3) {
		t.Errorf("seed %s", s.Seed())
	}
}

// TestVerifyFindsTampering tampers with a journal of closed blocks in
// several ways; verify names each.
func TestVerifyFindsTampering(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	s := open(t, path, game.SeedFrom(11))
	play(t, s, 130)
	s.Close()
	good, _ := os.ReadFile(path)
	if rep := verify(t, path); !rep.OK() || rep.Closed != 2 {
		t.Fatalf("the honest journal: %+v", rep)
	}
	lines := strings.SplitAfter(string(good), "\n")
	// A losing Yam's unit of block 1, turned into a winner.
	at := -1
	for i, l := range lines {
		if strings.Contains(l, `"unit":"yams:1:1:`) && strings.Contains(l, `"prize":"0"`) {
			at = i
			break
		}
	}
	cases := map[string]func([]string) []string{
		"a changed prize": func(ls []string) []string {
			ls[at] = strings.Replace(ls[at], `"prize":"0"`, `"prize":"5"`, 1)
			return ls
		},
		"a removed line":   func(ls []string) []string { return append(ls[:at:at], ls[at+1:]...) },
		"a changed layout": func(ls []string) []string { return swapLosingCups(ls, at) },
	}
	want := map[string]string{
		"a changed prize":  "its layout pays 0, the journal says 5",
		"a removed line":   "a purchase is missing or doubled",
		"a changed layout": "its layout is not the one its block's seed deals",
	}
	for name, tamper := range cases {
		ls := tamper(append([]string{}, lines...))
		os.WriteFile(path, []byte(strings.Join(ls, "")), 0o644)
		rep := verify(t, path)
		found := false
		for _, p := range rep.Problems {
			found = found || strings.Contains(p.Msg, want[name])
		}
		if !found {
			t.Errorf("%s was not found: %v", name, rep.Problems)
		}
	}
}
