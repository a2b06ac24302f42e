package journal_test

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
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

// TestCrashChild is the scripted session that TestCrash kills: it takes the
// journal up and buys units in a loop, showing most of them, until killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv("TAPIS_CRASH_JOURNAL")
	if path == "" {
		t.Skip("run by TestCrash")
	}
	s, err := session.Open(session.Options{Seed: game.SeedFrom(21), Balance: decimal.NewFromInt(100000), Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables, QA: true})
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Restored(); p != nil {
		for _, u := range p.Pending {
			s.Shown(u.Sold.Ref()) // the offered units are revealed first
		}
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	for i := 0; ; i++ {
		g, stake := lottery.Yams(), decimal.NewFromInt(1)
		if r.IntN(2) == 0 {
			g, stake = lottery.Vegas(), vegas.Price()
		}
		var f *lottery.Force
		if r.IntN(10) == 0 {
			tier := r.IntN(10)
			f = &lottery.Force{Tier: &tier}
		}
		sold, _, err := s.Buy(g, stake, f, "QA")
		if err != nil {
			t.Fatal(err)
		}
		if r.IntN(4) > 0 {
			s.Shown(sold.Ref())
		}
	}
}

// TestCrash kills a session buying in a loop with SIGKILL at random moments,
// many times over. After each kill the journal reads whole (a line cut short
// aside), its balance follows from its purchases, no purchase is missing or
// doubled, every block's units follow each other, closed blocks match their
// seeds, and a unit bought but not shown is offered when the session opens.
func TestCrash(t *testing.T) {
	rounds := 25
	if testing.Short() {
		rounds = 4
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	r := rand.New(rand.NewPCG(3, 4))
	purchases := 0
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TAPIS_CRASH_JOURNAL="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(30+r.IntN(120)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && purchases == 0 {
			continue // killed before it wrote its journal (a loaded machine starts it slowly): nothing to read yet
		}
		rep := verify(t, path)
		if !rep.OK() {
			t.Fatalf("round %d: the journal after a kill: %v", round, rep.Problems)
		}
		if rep.Purchases < purchases {
			t.Fatalf("round %d: %d purchases, there were %d", round, rep.Purchases, purchases)
		}
		purchases = rep.Purchases
		s, err := session.Open(session.Options{Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables, QA: true})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		st := s.Restored()
		if st == nil { // a new journal: the child was killed as it began writing it
			s.Close()
			if rep.Purchases > 0 {
				t.Fatalf("round %d: the journal holds %d purchases, the session restored none", round, rep.Purchases)
			}
			continue
		}
		shown := map[string]bool{}
		var bought []journal.Record
		lines, _, _, _ := journal.ReadLines(mustOpen(t, path))
		for _, l := range lines {
			switch l.Record.Kind {
			case journal.KindShown:
				shown[l.Record.Unit] = true
			case journal.KindBuy:
				bought = append(bought, l.Record)
			}
		}
		if !s.Wallet().Balance().Equal(st.Balance) || (len(bought) > 0 && !st.Balance.Equal(decimal.RequireFromString(bought[len(bought)-1].After))) {
			t.Fatalf("round %d: balance %s, journal %s", round, s.Wallet().Balance(), st.Balance)
		}
		offered := map[string]bool{}
		for _, p := range st.Pending {
			offered[p.Op.Unit] = true
		}
		for _, op := range bought {
			if shown[op.Unit] == offered[op.Unit] {
				t.Fatalf("round %d: unit %s: shown %v, offered %v", round, op.Unit, shown[op.Unit], offered[op.Unit])
			}
		}
		s.Close()
	}
	if purchases == 0 {
		t.Fatal("the child never bought anything")
	}
	t.Logf("%d rounds, %d purchases, the journal holds %d closed blocks", rounds, purchases, verify(t, path).Closed)
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
