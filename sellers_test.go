package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	tgame "tapis/game"
	"tapis/game/lottery"
	"tapis/internal/pgtest"
	"tapis/ledger"
	"tapis/store"
)

// buildTapis builds the program once for a test.
func buildTapis(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the program and runs sellers as processes")
	}
	bin := filepath.Join(t.TempDir(), "tapis")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	return bin
}

func TestSQLiteSellersKilledAndRestarted(t *testing.T) {
	sellersKilled(t, buildTapis(t), "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
}

func TestPostgresSellersKilledAndRestarted(t *testing.T) {
	url := pgtest.Fresh(t)
	sellersKilled(t, buildTapis(t), url)
}

// sellersKilled runs four `tapis simulate --store` processes, one account
// each, that sell ten small blocks out between them (600 units of Yam's
// at 1 €), each killed at random moments (its first ten runs always) and
// started again until its account has made its 150 purchases; `tapis
// verify --store` runs after every kill, while the others sell. Then
// the blocks paid exactly their tables, no serial was sold twice or
// skipped, no purchase was lost or doubled, and retrying a purchase made
// returns the same unit.
func sellersKilled(t *testing.T, bin, url string) {
	ctx := context.Background()
	st, err := store.Open(ctx, url, store.Options{Key: ledger.PublicTestKey(), Seed: tgame.SeedFrom(77), SeedSet: true, Tables: store.SmallTables, OpenBlocks: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const sellers, each = 4, 150
	key := testKeyFile(t)
	g, stake := lottery.Yams(), decimal.NewFromInt(1)
	made := func(name string) int {
		a, err := st.Account(ctx, name, 0)
		if err != nil {
			return 0 // not opened yet
		}
		return a.Purchases
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		kills int
		errs  []string
	)
	for i := range sellers {
		name := fmt.Sprintf("seller%d", i+1)
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(i), 9))
			for round := 0; ; round++ {
				left := each - made(name)
				if left == 0 {
					return
				}
				if round > 200 {
					mu.Lock()
					errs = append(errs, name+": still not done after 200 rounds")
					mu.Unlock()
					return
				}
				cmd := exec.Command(bin, "simulate", "--store", url, "--house-key", key, "--account", name, "--balance", "1000",
					"--game", g.Name, "--stake", "1", "--count", fmt.Sprint(left), "--json")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					mu.Lock()
					errs = append(errs, err.Error())
					mu.Unlock()
					return
				}
				killed := false
				var timer *time.Timer
				if round < 10 || r.IntN(4) != 0 { // most rounds are cut short, the first ten always
					timer = time.AfterFunc(time.Duration(5+r.IntN(60))*time.Millisecond, func() { cmd.Process.Signal(syscall.SIGKILL) })
					killed = true
				}
				err := cmd.Wait()
				if timer != nil {
					timer.Stop()
				}
				if err != nil && !(killed && strings.Contains(err.Error(), "killed")) {
					mu.Lock()
					errs = append(errs, fmt.Sprintf("%s round %d: %v: %s", name, round, err, stderr.String()))
					mu.Unlock()
					return
				}
				if err != nil {
					mu.Lock()
					kills++
					mu.Unlock()
					out, verr := exec.Command(bin, "verify", "--store", url).CombinedOutput()
					if verr != nil {
						mu.Lock()
						errs = append(errs, fmt.Sprintf("verify after killing %s: %v: %s", name, verr, out))
						mu.Unlock()
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatal(strings.Join(errs, "\n"))
	}
	if kills < 3*sellers {
		t.Errorf("only %d kills", kills)
	}
	t.Logf("%d kills", kills)
	rep, err := st.Verify(ctx)
	if err != nil || !rep.OK() || rep.Purchases != sellers*each || rep.Closed < 9 {
		t.Fatalf("verify at the end: %d purchases, %d blocks closed, %q, %v", rep.Purchases, rep.Closed, rep.Problems, err)
	}
	// The blocks sold out paid exactly their tables. (With two blocks on
	// sale side by side, the last two may be on sale still.)
	table, _ := st.Emission().Table(g.Seq(stake))
	db := openDB(t, url)
	rows, err := db.QueryContext(ctx, `SELECT p.block, p.tier, COUNT(*) FROM purchases p JOIN blocks b
		ON b.game = p.game AND b.stake = p.stake AND b.number = p.block WHERE b.seed IS NOT NULL GROUP BY p.block, p.tier`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var block int64
		var tier int
		var n int64
		if err := rows.Scan(&block, &tier, &n); err != nil {
			t.Fatal(err)
		}
		if n != table.Count(tier) {
			t.Errorf("block %d, lot %d: %d sold, the table has %d", block, tier+1, n, table.Count(tier))
		}
	}
	// Each purchase made, asked again, is the same unit.
	for i := range sellers {
		name := fmt.Sprintf("seller%d", i+1)
		a, err := st.Account(ctx, name, each)
		if err != nil || a.Purchases != each {
			t.Fatalf("%s: %d purchases, %v", name, a.Purchases, err)
		}
		for _, p := range a.Recent {
			again, err := st.Sell(ctx, store.Purchase{Account: name, Number: p.Op.Seq, Game: g, Stake: stake})
			if err != nil || !again.Again || again.Op.Unit != p.Op.Unit || !again.Op.After.Equal(p.Op.After) {
				t.Fatalf("%s: purchase %d asked again: %+v, %v; it was %s", name, p.Op.Seq, again.Op, err, p.Op.Unit)
			}
		}
	}
}

// openDB opens a store's database directly, to count what it holds.
func openDB(t *testing.T, url string) *sql.DB {
	t.Helper()
	driver, dsn := "pgx", url
	if strings.HasPrefix(url, "sqlite:") {
		driver, dsn = "sqlite", strings.TrimPrefix(url, "sqlite:")
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// testKeyFile writes the tests' house key (ledger.PublicTestKey, which
// the tests' stores are sealed with) to a file of a new directory, for the
// sellers run as processes.
func testKeyFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "house_ed25519")
	if err := ledger.PublicTestKey().Write(path); err != nil {
		t.Fatal(err)
	}
	return path
}
