package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
)

// sellInStore makes a SQLite store of small blocks and sells n Vegas
// tickets in it to one account.
func sellInStore(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(4), SeedSet: true, Tables: store.SmallTables})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.OpenAccount(ctx, "ann", decimal.NewFromInt(1000)); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if _, err := st.Sell(ctx, store.Purchase{Account: "ann", Number: i, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3)}); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestVerifyStore(t *testing.T) {
	path := sellInStore(t, 75)
	code, out, errOut := run(t, "", "verify", "--store", "sqlite:"+path)
	// A store made with the default blocks on sale: one more opened as the
	// first sold out.
	opened := fmt.Sprintf("75 purchases by 1 account, %d blocks opened, 1 sold out (75 units dealt again", store.DefaultOpenBlocks+1)
	if code != ExitOK || !strings.Contains(out, opened) ||
		!strings.HasSuffix(out, "ok: nothing in the store contradicts it\n") || errOut != "" {
		t.Fatalf("verify a clean store: %d\n%s%s", code, out, errOut)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE purchases SET prize = prize + 1000, after_cents = after_cents + 1000 WHERE number = 9`); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, "", "verify", "--store", path, "--json")
	var rep struct {
		OK       bool     `json:"ok"`
		Problems []string `json:"problems"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("verify --json: %v\n%s", err, out)
	}
	// The prize against the block's seed, the purchase's hash against its
	// content, the balance of the purchase after it.
	if code != ExitInvalid || rep.OK || len(rep.Problems) != 3 || !strings.Contains(rep.Problems[0], "ann#9") ||
		errOut != "tapis verify: "+path+": 3 problems found\n" {
		t.Errorf("verify a forged store: %d %+v %q", code, rep, errOut)
	}
}

func TestVerifyStoreBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ args []string }{
		{[]string{"--store", "sqlite:" + filepath.Join(dir, "none.db")}},
		{[]string{"--store", "mysql://x"}},
		{[]string{"--store", "a.db", "--journal", "j"}},
	} {
		code, out, errOut := run(t, "", append([]string{"verify"}, c.args...)...)
		if code != ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "tapis verify: ") {
			t.Errorf("verify %q: %d %q %q", c.args, code, out, errOut)
		}
	}
}

// A unit dealt from its block's revealed seed is the unit the master seed
// deals; a bad seed is one line.
func TestDealFromBlockSeed(t *testing.T) {
	bs := game.SeedFrom(7).Block("yams", decimal.NewFromInt(1), 2)
	code, bySeed, errOut := run(t, "", "deal", "--unit", "yams:1:2:5", "--seed", "7", "--count", "3")
	if code != ExitOK || errOut != "" {
		t.Fatalf("deal --seed: %d %s", code, errOut)
	}
	code, byBlock, errOut := run(t, "", "deal", "--unit", "yams:1:2:5", "--block-seed", bs.String(), "--count", "3")
	if code != ExitOK || errOut != "" || byBlock != bySeed || strings.Count(byBlock, "\n") != 3 {
		t.Errorf("deal --block-seed: %d %s\n%s\nwant\n%s", code, errOut, byBlock, bySeed)
	}
	for _, args := range [][]string{
		{"--unit", "yams:1:2:5", "--block-seed", "xyz"},
		{"--unit", "yams:1:2:5", "--block-seed", bs.String(), "--seed", "7"},
		{"--unit", "yams:1:2:999999999", "--block-seed", bs.String()},
		{"--game", "yams", "--block-seed", bs.String()},
	} {
		code, out, errOut := run(t, "", append([]string{"deal"}, args...)...)
		if code != ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("deal %q: %d %q %q", args, code, out, errOut)
		}
	}
}

// TestNewStoreOpensDefaultBlocks: a store made by a seller run with its
// default flags puts store.DefaultOpenBlocks blocks of each game and stake
// on sale side by side, so that many sellers do not queue on one counter;
// --open-blocks chooses another count, and every seller's flags default to
// the same one.
func TestNewStoreOpensDefaultBlocks(t *testing.T) {
	dir := t.TempDir()
	key := testKeyFile(t)
	for _, c := range []struct {
		flags []string
		want  int
	}{{nil, store.DefaultOpenBlocks}, {[]string{"--open-blocks", "1"}, 1}, {[]string{"--open-blocks", "3"}, 3}} {
		url := "sqlite:" + filepath.Join(dir, fmt.Sprintf("new-%d.db", c.want))
		args := append([]string{"simulate", "--store", url, "--house-key", key, "--count", "2"}, c.flags...)
		if code, _, errOut := run(t, "", args...); code != ExitOK {
			t.Fatalf("simulate %v: exit %d: %s", c.flags, code, errOut)
		}
		st, err := store.Open(context.Background(), url, store.Options{Existing: true})
		if err != nil {
			t.Fatal(err)
		}
		board, err := st.NewPoller(1).Poll(context.Background())
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		var blocks []store.OpenBlock
		for _, sq := range board.Sequences {
			if sq.Seq.String() == "yams:1" { // simulate's game and stake
				blocks = sq.Blocks
			}
		}
		if got := st.Emission().OpenBlocks; got != c.want || len(blocks) != c.want {
			t.Errorf("simulate %v: the emission sells %d blocks side by side, %d on sale; want %d", c.flags, got, len(blocks), c.want)
		}
	}
	g, err := GameArgs([]string{"--store", "sqlite:x.db"}, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s, err := serveArgs(Env{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Session.OpenBlocks != store.DefaultOpenBlocks || s.openBlocks != store.DefaultOpenBlocks {
		t.Errorf("the game's and serve's default --open-blocks: %d and %d, want %d", g.Session.OpenBlocks, s.openBlocks, store.DefaultOpenBlocks)
	}
}
