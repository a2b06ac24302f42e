package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/ledger"
	"tapis/store"
	"tapis/store/journal"
)

func clock() func() time.Time {
	t := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func open(t *testing.T, path string, seed game.Seed) *Session {
	t.Helper()
	s, err := Open(Options{Seed: seed, SeedSet: true, Balance: decimal.NewFromInt(1000), Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables, Now: clock(), QA: true})
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
			if err := s.Shown(sold.Ref()); err != nil {
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
	a := open(t, path, game.SeedFrom(5))
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

	b := open(t, path, game.SeedFrom(5))
	st := b.Restored()
	if !b.Wallet().Balance().Equal(balance) || st.Purchases != 51 || len(st.Pending) != 2 || st.Pending[1].Op.Unit != forced.Name() {
		t.Fatalf("restored %s (want %s), %d purchases, pending %+v", b.Wallet().Balance(), balance, st.Purchases, st.Pending)
	}
	second := play(t, b, 150)
	b.Close()

	// One uninterrupted session sells the same units.
	c, _ := Open(Options{Seed: game.SeedFrom(5), Balance: decimal.NewFromInt(1000), Tables: store.SmallTables})
	all := play(t, c, 200)
	if got := strings.Join(append(first, second...), " "); got != strings.Join(all, " ") {
		t.Fatalf("resumed units differ from an uninterrupted session:\n%s\n%s", got, strings.Join(all, " "))
	}
	rep := verify(t, path)
	if !rep.OK() || rep.Closed < 2 || rep.Checked < 120 {
		t.Fatalf("verify: %+v", rep)
	}
}

func verify(t *testing.T, path string) journal.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := journal.Verify(f, store.SmallTables)
	if err != nil {
		t.Fatal(err)
	}
	return rep
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
	a := open(t, path, game.SeedFrom(9))
	covered, _, err := a.Buy(lottery.Yams(), decimal.NewFromInt(1), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	ticket, _, err := a.Buy(lottery.Vegas(), vegas.Price(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Shown(ticket.Ref()); err != nil {
		t.Fatal(err)
	}
	last, _, err := a.Buy(lottery.Vegas(), vegas.Price(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	balance := a.Wallet().Balance()
	a.Close()

	b := open(t, path, game.SeedFrom(9))
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
