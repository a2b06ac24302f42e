package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/wallet"
)

func openSQLite(t *testing.T, o Options) (*SQL, string) {
	t.Helper()
	url := "sqlite:" + filepath.Join(t.TempDir(), "tapis.db")
	s, err := Open(context.Background(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, url
}

func TestSQLiteSellsOneBlockExactly(t *testing.T) {
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(7), SeedSet: true, Tables: SmallTables})
	sellsOneBlockExactly(t, s)
}

// sellsOneBlockExactly sells a whole block through one account and checks
// it pays exactly its table, each serial once, its seed revealed.
func sellsOneBlockExactly(t *testing.T, s *SQL) {
	ctx := context.Background()
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(1000)); err != nil {
		t.Fatal(err)
	}
	g := lottery.Yams()
	stake := decimal.NewFromInt(1)
	table, _ := s.Emission().Table(g.Seq(stake))
	st, err := s.Block(ctx, g.Seq(stake))
	if err != nil || st.Number != 1 || st.Sold != 0 {
		t.Fatalf("the first block before any sale: %+v, %v", st, err)
	}
	counts := make([]int64, table.Tiers())
	serials := map[int64]bool{}
	balance := decimal.NewFromInt(1000)
	for n := 1; n <= int(table.Units); n++ {
		r, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: g, Stake: stake})
		if err != nil {
			t.Fatalf("purchase %d: %v", n, err)
		}
		id := r.Sold.Unit.ID
		if id.Block != 1 || serials[id.Serial] {
			t.Fatalf("purchase %d: unit %s: block 1 once each serial", n, id)
		}
		serials[id.Serial] = true
		counts[r.Sold.Unit.Tier]++
		if !r.Sold.Layout.Score().Prize().Equal(r.Sold.Unit.Prize) {
			t.Errorf("unit %s: layout pays %s, sold for %s", id, r.Sold.Layout.Score().Prize(), r.Sold.Unit.Prize)
		}
		if !r.Op.Before.Equal(balance) || !r.Op.After.Equal(balance.Sub(stake).Add(r.Sold.Unit.Prize)) {
			t.Fatalf("purchase %d: balance %s → %s, was %s", n, r.Op.Before, r.Op.After, balance)
		}
		balance = r.Op.After
	}
	for tier, n := range counts {
		if n != table.Count(tier) {
			t.Errorf("tier %d: %d units sold, the table has %d", tier, n, table.Count(tier))
		}
	}
	// Its units all being revealed, the block's seed waits for them.
	rev, err := s.Revealed(ctx)
	if err != nil || len(rev) != 0 {
		t.Fatalf("revealed %+v, %v, its units all being revealed", rev, err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE purchases SET shown = 2 WHERE serial <> 7`); err != nil {
		t.Fatal(err)
	}
	if rev, err = s.Revealed(ctx); err != nil || len(rev) != 0 {
		t.Fatalf("revealed %+v, %v, unit 7 still being revealed", rev, err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE purchases SET shown = 1 WHERE serial = 7`); err != nil {
		t.Fatal(err)
	}
	if rev, err = s.Revealed(ctx); err != nil {
		t.Fatal(err)
	}
	want := s.emission.seed.Block(g.Name, stake, 1).String()
	if len(rev) != 1 || rev[0].Block.String() != g.Seq(stake).Block(1).String() || rev[0].Seed != want {
		t.Errorf("revealed %+v, want block 1's seed %q", rev, want)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE purchases SET shown = 0`); err != nil { // as they were
		t.Fatal(err)
	}
	st, err = s.Block(ctx, g.Seq(stake))
	if err != nil || st.Number != 2 || st.Sold != 0 {
		t.Errorf("after block 1 sold out: %+v, %v", st, err)
	}
	a, err := s.Account(ctx, "ann", 5)
	if err != nil || !a.Balance.Equal(balance) || a.Purchases != int(table.Units) || len(a.Pending) != int(table.Units) || len(a.Recent) != 5 {
		t.Errorf("account: %+v, %v", a, err)
	}
	for _, r := range a.Pending[:10] {
		if err := s.Shown(ctx, "ann", r.Sold.Ref()); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Shown(ctx, "ann", lottery.Ref{ID: game.UnitID{Game: "yams", Stake: decimal.NewFromInt(1), Block: 9, Serial: 9}}); err == nil {
		t.Error("a unit never bought marked shown")
	}
	if a, err = s.Account(ctx, "ann", 0); err != nil || len(a.Pending) != int(table.Units)-10 || a.Pending[0].Op.Seq != 11 {
		t.Errorf("after ten units shown: %d pending, %v", len(a.Pending), err)
	}
}

func TestSQLiteRetryReturnsTheSameUnit(t *testing.T) {
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(8), SeedSet: true, Tables: SmallTables})
	retryReturnsTheSameUnit(t, s)
}

// retryReturnsTheSameUnit asks purchases again: the same unit, once; an
// unpaid stake takes no serial.
func retryReturnsTheSameUnit(t *testing.T, s *SQL) {
	ctx := context.Background()
	if _, err := s.OpenAccount(ctx, "bob", decimal.NewFromInt(10)); err != nil {
		t.Fatal(err)
	}
	if created, err := s.OpenAccount(ctx, "bob", decimal.NewFromInt(10)); created || err != nil {
		t.Fatalf("opening bob again: created %v, %v", created, err)
	}
	p := Purchase{Account: "bob", Number: 1, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3), Attempt: "seller-a"}
	first, err := s.Sell(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Sell(ctx, p)
	if err != nil || !again.Again || again.Op.Unit != first.Op.Unit || !again.Op.After.Equal(first.Op.After) {
		t.Fatalf("the retry: %+v, %v; first %+v", again.Op, err, first.Op)
	}
	a, _ := s.Account(ctx, "bob", 0)
	if a.Purchases != 1 || len(a.Pending) != 1 {
		t.Errorf("a retried purchase made %d purchases, %d pending", a.Purchases, len(a.Pending))
	}
	// The first unit's shown record rides with the second purchase.
	second := Purchase{Account: "bob", Number: 2, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3), Shown: []lottery.Ref{first.Sold.Ref()}}
	if _, err := s.Sell(ctx, second); err != nil {
		t.Fatal(err)
	}
	if a, _ = s.Account(ctx, "bob", 0); a.Purchases != 2 || len(a.Pending) != 1 || a.Pending[0].Op.Seq != 2 {
		t.Errorf("after a purchase carrying the first unit's shown record: %d purchases, %d pending", a.Purchases, len(a.Pending))
	}
	theirs := p
	theirs.Attempt = "seller-b" // another seller's purchase of that number, at the same game and stake
	if _, err := s.Sell(ctx, theirs); !errors.Is(err, ErrOtherPurchase) {
		t.Errorf("purchase 1 asked by another seller: %v", err)
	}
	other := Purchase{Account: "bob", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}
	if _, err := s.Sell(ctx, other); !errors.Is(err, ErrOtherPurchase) {
		t.Errorf("purchase 1 asked again as another: %v", err)
	}
	if _, err := s.Sell(ctx, Purchase{Account: "bob", Number: 4, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); !errors.Is(err, ErrOutOfTurn) {
		t.Errorf("purchase 4 after 2: %v", err)
	}
	before, _ := s.Block(ctx, lottery.Vegas().Seq(decimal.NewFromInt(3)))
	if _, err := s.OpenAccount(ctx, "cat", decimal.NewFromInt(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sell(ctx, Purchase{Account: "cat", Number: 1, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3)}); !errors.Is(err, wallet.ErrShort) {
		t.Errorf("3 € from 2 €: %v", err)
	}
	after, _ := s.Block(ctx, lottery.Vegas().Seq(decimal.NewFromInt(3)))
	if after.Sold != before.Sold {
		t.Errorf("a refused purchase took a serial: %d sold, was %d", after.Sold, before.Sold)
	}
}

// Sellers in goroutines, each with its own account, sell blocks out:
// every serial once, the counts equal the table.
func TestSQLiteConcurrentSellers(t *testing.T) {
	s, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(9), SeedSet: true, Tables: SmallTables, OpenBlocks: 2})
	concurrentSellers(t, s, url)
}

func concurrentSellers(t *testing.T, s *SQL, url string) {
	ctx := context.Background()
	const sellers, each = 6, 40 // 240 units: four blocks of 60
	g, stake := lottery.Yams(), decimal.NewFromInt(2)
	var wg sync.WaitGroup
	errs := make(chan error, sellers)
	for i := range sellers {
		wg.Go(func() {
			own, err := Open(ctx, url, Options{Key: ledger.PublicTestKey()})
			if err != nil {
				errs <- err
				return
			}
			defer own.Close()
			name := "seller" + string(rune('a'+i))
			if _, err := own.OpenAccount(ctx, name, decimal.NewFromInt(1000)); err != nil {
				errs <- err
				return
			}
			for n := 1; n <= each; n++ {
				if _, err := own.Sell(ctx, Purchase{Account: name, Number: n, Game: g, Stake: stake}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	table, _ := s.Emission().Table(g.Seq(stake))
	rows, err := s.db.QueryContext(ctx, s.engine.q(`SELECT block, serial, tier FROM purchases WHERE game = $1 AND stake = $2`), g.Name, stake.String())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := map[game.UnitID]bool{}
	counts := map[int64][]int64{}
	for rows.Next() {
		var id game.UnitID
		var tier int
		if err := rows.Scan(&id.Block, &id.Serial, &tier); err != nil {
			t.Fatal(err)
		}
		if seen[id] {
			t.Fatalf("block %d serial %d sold twice", id.Block, id.Serial)
		}
		seen[id] = true
		if counts[id.Block] == nil {
			counts[id.Block] = make([]int64, table.Tiers())
		}
		counts[id.Block][tier]++
	}
	if len(seen) != sellers*each {
		t.Fatalf("%d units recorded, %d sold", len(seen), sellers*each)
	}
	full := 0
	for b, c := range counts {
		var sold int64
		for _, n := range c {
			sold += n
		}
		if sold < table.Units {
			continue // still on sale
		}
		full++
		for tier, n := range c {
			if n != table.Count(tier) {
				t.Errorf("block %d, tier %d: %d sold, the table has %d", b, tier, n, table.Count(tier))
			}
		}
	}
	if full < 2 {
		t.Errorf("%d blocks sold out of %d touched", full, len(counts))
	}
}

func TestSQLiteKeepsItsEmission(t *testing.T) {
	s, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(3), SeedSet: true, OpenBlocks: 3, Tables: SmallTables})
	s.Close()
	again, err := Open(context.Background(), url, Options{Key: ledger.PublicTestKey(), OpenBlocks: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	table, _ := again.Emission().Table(lottery.Yams().Seq(decimal.NewFromInt(1)))
	if again.Seed() != game.SeedFrom(3) || again.Emission().OpenBlocks != 3 || table.Units != 60 {
		t.Errorf("reopened: seed %s, %d open blocks, %d units a block", again.Seed(), again.Emission().OpenBlocks, table.Units)
	}
	if _, err := Open(context.Background(), url, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(4), SeedSet: true}); err == nil || !strings.Contains(err.Error(), "own seed") {
		t.Errorf("another seed for an existing emission: %v", err)
	}
}

func TestOneLine(t *testing.T) {
	err := errors.New("failed to connect to `user=bob`:\n\thost a: refused\n\thost a: refused\n\thost b: timeout")
	if got := (oneLine{err}).Error(); got != "failed to connect to `user=bob`: host a: refused; host b: timeout" {
		t.Errorf("oneLine: %q", got)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://ann:secret@db:5432/tapis?sslmode=disable":  "postgres://ann:…@db:5432/tapis?sslmode=disable",
		"postgres://db/tapis?password=hunter2&sslmode=disable": "postgres://db/tapis?password=…&sslmode=disable",
		"postgresql://ann@db/tapis?sslpassword=x":              "postgresql://ann@db/tapis?sslpassword=…",
		"sqlite:/tmp/a.db":              "sqlite:/tmp/a.db",
		"postgres://ann:sec ret@db/%zz": "a store URL that does not parse",
	} {
		if got := Redact(in); got != want || strings.Contains(got, "secret") || strings.Contains(got, "hunter2") {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSQLitePathsAndOtherDatabases(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, bad := range []string{"sqlite::memory:", "sqlite://x.db", "sqlite:", "sqlite:a.db?mode=memory"} {
		if _, err := Open(ctx, bad, Options{Key: ledger.PublicTestKey()}); err == nil {
			t.Errorf("%s opened", bad)
		}
	}
	odd := filepath.Join(dir, "a%20b.db") // a percent sign is part of the name
	s, err := Open(ctx, odd, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if again, err := Open(ctx, odd, Options{Key: ledger.PublicTestKey(), Existing: true}); err != nil {
		t.Errorf("reopening %s: %v", odd, err)
	} else {
		again.Close()
	}
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE accounts (id INTEGER, name TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.Chmod(other, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, other, Options{Key: ledger.PublicTestKey()}); err == nil || !strings.Contains(err.Error(), "another program's tables") {
		t.Errorf("another program's database: %v", err)
	}
}

// TestSQLiteStoreIsPrivate: a new SQLite store's files hold the house's
// master seed: readable by their owner only.
func TestSQLiteStoreIsPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "house.db")
	st, err := Open(context.Background(), "sqlite:"+path, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, name := range []string{path, path + "-wal"} {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if mode := fi.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s: mode %o, want 600", filepath.Base(name), mode)
		}
	}
}

// TestSQLiteStoreReadableIsRefused: a store whose file, write-ahead log or
// shared memory others may read is refused, named with its mode, and left
// as it is; readable by its owner alone, it opens again.
func TestSQLiteStoreReadableIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "house.db")
	st, err := Open(context.Background(), "sqlite:"+path, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	for _, name := range []string{path + "-wal", path + "-shm"} { // as a seller running leaves them
		if err := os.WriteFile(name, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		for _, existing := range []bool{false, true} {
			if err := os.Chmod(name, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Open(context.Background(), "sqlite:"+path, Options{Key: ledger.PublicTestKey(), Existing: existing})
			want := "store " + name + " can be read by others (mode 0644): chmod 600 " + name
			if err == nil || err.Error() != want {
				t.Errorf("%s readable by others (existing %v): %v, want %q", filepath.Base(name), existing, err, want)
			}
			if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o644 {
				t.Errorf("%s after the refusal: %v, %v", filepath.Base(name), fi.Mode(), err)
			}
			if err := os.Chmod(name, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	st, err = Open(context.Background(), "sqlite:"+path, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatalf("the store private again: %v", err)
	}
	st.Close()
}
