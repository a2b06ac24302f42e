package journal_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/ledger"
	"tapis/session"
	"tapis/store"
	"tapis/store/journal"
)

// The journal as the game keeps it: these tests buy through a session on
// the store, as the game does, and read the journal it writes.

func clock() func() time.Time {
	t := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func open(t *testing.T, path string, seed game.Seed) *session.Session {
	t.Helper()
	s, err := session.Open(session.Options{Seed: seed, SeedSet: true, Balance: decimal.NewFromInt(1000), Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables, Now: clock(), QA: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play buys n units, alternating Yam's at 1 € and Vegas, and shows all but
// the last; it returns the names bought.
func play(t *testing.T, s *session.Session, n int) []string {
	t.Helper()
	var names []string
	for i := range n {
		g, stake := pick(i)
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
