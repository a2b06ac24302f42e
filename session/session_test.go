package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/store"
)

// smallTables are blocks of 60 units with the regulations' lots, so that
// tests sell whole blocks in a few hundred purchases: the store's.
func smallTables(g lottery.Game, stake decimal.Decimal) (*game.Table, error) {
	return store.SmallTables(g, stake)
}

func clock() func() time.Time {
	t := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func open(t *testing.T, path string, seed game.Seed) *Session {
	t.Helper()
	s, err := Open(Options{Seed: seed, SeedSet: true, Balance: decimal.NewFromInt(1000), Journal: path, Tables: smallTables, Now: clock(), QA: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play buys n units, alternating Yam's at 1 € and Vegas, and shows all but
// the last; it returns the names bought.
func play(t *testing.T, s *Session, n int) []string {
	t.Helper()
	var names []string
	for i := range n {
		g, stake := lottery.Yams(), decimal.NewFromInt(1)
		if i%2 == 1 {
			g, stake = lottery.Vegas(), vegas.Price()
		}
		sold, _, err := s.Buy(g, stake, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, sold.Name()+"="+sold.Unit.Prize.String())
		if i < n-1 {
			if err := s.Shown(sold.Name()); err != nil {
				t.Fatal(err)
			}
		}
	}
	return names
}

// TestResume plays, stops, and takes the session up from the journal: the
// balance, the history and the blocks go on exactly as if it had never
// stopped, and the unit never shown is offered.
func TestResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	a := open(t, path, 5)
	first := play(t, a, 50)
	total := 1
	forced, _, err := a.Buy(lottery.Yams(), decimal.NewFromInt(1), &lottery.Force{Total: &total}, "QA")
	if err == nil {
		t.Fatalf("a 1-point total was forced: %s", forced.Name())
	}
	total = 100
	if forced, _, err = a.Buy(lottery.Yams(), decimal.NewFromInt(1), &lottery.Force{Total: &total}, "QA"); err != nil {
		t.Fatal(err)
	}
	balance := a.Wallet().Balance()
	a.Close()

	b := open(t, path, 5)
	st := b.Restored()
	if !b.Wallet().Balance().Equal(balance) || st.Purchases != 51 || len(st.Pending) != 2 || st.Pending[1].Op.Unit != forced.Name() {
		t.Fatalf("restored %s (want %s), %d purchases, pending %+v", b.Wallet().Balance(), balance, st.Purchases, st.Pending)
	}
	second := play(t, b, 150)
	b.Close()

	// One uninterrupted session sells the same units.
	c, _ := Open(Options{Seed: 5, Balance: decimal.NewFromInt(1000), Tables: smallTables})
	all := play(t, c, 200)
	if got := strings.Join(append(first, second...), " "); got != strings.Join(all, " ") {
		t.Fatalf("resumed units differ from an uninterrupted session:\n%s\n%s", got, strings.Join(all, " "))
	}
	rep := verify(t, path)
	if !rep.OK() || rep.Closed < 2 || rep.Checked < 120 {
		t.Fatalf("verify: %+v", rep)
	}
}

func verify(t *testing.T, path string) Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := Verify(f, smallTables)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestTornLine cuts the last line short, as a crash while writing would:
// the journal is read up to the line before, and goes on from there.
func TestTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	a := open(t, path, 8)
	play(t, a, 10)
	a.Close()
	good, _ := os.ReadFile(path)
	torn := append(append([]byte{}, good...), []byte(`{"kind":"buy","time":"2026-11-29T20:00:00Z","seq":11,"unit":"yams:1:1`)...)
	os.WriteFile(path, torn, 0o644)
	b := open(t, path, 8)
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
	a := open(t, path, 3)
	play(t, a, 6)
	a.Close()
	good, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(good), "\n")
	corrupt := strings.Join(append(append(append([]string{}, lines[:3]...), "{garbage\n"), lines[4:]...), "")
	os.WriteFile(path, []byte(corrupt), 0o644)
	if _, err := Open(Options{Seed: 3, Journal: path, Tables: smallTables}); err == nil || !strings.Contains(err.Error(), "line 4: not a journal record") {
		t.Errorf("corrupt journal: %v", err)
	}
	if now, _ := os.ReadFile(path); string(now) != corrupt {
		t.Error("a refused journal was changed")
	}
	os.WriteFile(path, good, 0o644)
	if _, err := Open(Options{Seed: 4, SeedSet: true, Journal: path, Tables: smallTables}); err == nil || !strings.Contains(err.Error(), "another seed") {
		t.Errorf("other seed: %v", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, good) {
		t.Error("a journal of another seed was changed")
	}
	// Without --seed, the journal's seed is taken.
	s, err := Open(Options{Journal: path, Tables: smallTables})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Seed() != 3 {
		t.Errorf("seed %d", s.Seed())
	}
}

// TestVerifyFindsTampering tampers with a journal of closed blocks in
// several ways; verify names each.
func TestVerifyFindsTampering(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	s := open(t, path, 11)
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

// swapLosingCups exchanges the first two cups of the unit at line at: the
// layout still pays nothing, so only the block's seed can tell.
func swapLosingCups(ls []string, at int) []string {
	l := ls[at]
	i := strings.Index(l, `"cups":[`) + len(`"cups":[`)
	j := strings.Index(l[i:], "]") + i + 1
	k := strings.Index(l[j+1:], "]") + j + 2
	first, second := l[i:j], l[j+1:k]
	if first == second {
		panic(fmt.Sprintf("equal cups in %s", l))
	}
	ls[at] = l[:i] + second + "," + first + l[k:]
	return ls
}

// pick alternates Yam's at 1 € and Vegas.
func pick(i int) (lottery.Game, decimal.Decimal) {
	if i%2 == 1 {
		return lottery.Vegas(), vegas.Price()
	}
	return lottery.Yams(), decimal.NewFromInt(1)
}

// TestResumeOffersEveryUnshownUnit buys a Yam's unit left covered, then a
// Vegas ticket shown, and stops: the Yam's unit is still offered, and with
// it every other unit never shown, oldest first. The origin gives the net
// result of the whole journal.
func TestResumeOffersEveryUnshownUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	a := open(t, path, 9)
	covered, _, err := a.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	ticket, _, err := a.Buy(lottery.Vegas(), vegas.Price(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Shown(ticket.Name()); err != nil {
		t.Fatal(err)
	}
	last, _, err := a.Buy(lottery.Vegas(), vegas.Price(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	balance := a.Wallet().Balance()
	a.Close()

	b := open(t, path, 9)
	defer b.Close()
	var got []string
	for _, p := range b.Restored().Pending {
		got = append(got, p.Op.Unit)
	}
	if want := []string{covered.Name(), last.Name()}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("offered %v, want %v", got, want)
	}
	if !b.Origin().Equal(decimal.NewFromInt(1000)) || !b.Wallet().Balance().Equal(balance) {
		t.Errorf("origin %s, balance %s (want 1000, %s)", b.Origin(), b.Wallet().Balance(), balance)
	}
}
