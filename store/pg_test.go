package store

import (
	"tapis/game"
	"tapis/ledger"

	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/internal/pgtest"
)

func openPostgres(t *testing.T, o Options) (*SQL, string) {
	url := pgtest.Fresh(t)
	s, err := Open(context.Background(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, url
}

func TestPostgresSellsOneBlockExactly(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(7), SeedSet: true, Tables: SmallTables})
	sellsOneBlockExactly(t, s)
}

func TestPostgresConcurrentSellers(t *testing.T) {
	s, url := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(9), SeedSet: true, Tables: SmallTables, OpenBlocks: 2})
	concurrentSellers(t, s, url)
}

func TestPostgresVerifyFindsEveryForgery(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(12), SeedSet: true, Tables: SmallTables, QA: true})
	verifyFindsEveryForgery(t, s)
}

func TestPostgresRetryReturnsTheSameUnit(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(8), SeedSet: true, Tables: SmallTables})
	retryReturnsTheSameUnit(t, s)
}

func TestPostgresPollerSeesSalesAndBigWins(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(21), SeedSet: true, Tables: SmallTables, OpenBlocks: 1})
	pollerSeesSalesAndBigWins(t, s, nil)
}

func BenchmarkSellPostgres(b *testing.B) {
	benchSell(b, pgtest.Fresh(b), decimal.Zero)
}

func BenchmarkSellerPostgres(b *testing.B) {
	benchSeller(b, pgtest.Fresh(b))
}

func BenchmarkSellLossLimitPostgres(b *testing.B) {
	benchSell(b, pgtest.Fresh(b), decimal.NewFromInt(1_000_000_000))
}

func BenchmarkFloorInsertPostgres(b *testing.B) {
	benchFloor(b, pgtest.Fresh(b))
}

func BenchmarkCheckPostgres(b *testing.B) {
	benchCheck(b, pgtest.Fresh(b))
}

func TestPostgresLossWindow(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(3), SeedSet: true, Tables: SmallTables})
	lossWindow(t, s)
}

// TestPostgresSellerKeepsItsBlock: a seller sells from the block it sold
// from last while no other seller holds it, so that it deals from the
// draw orders of few blocks; while another holds it, it takes a free one.
func TestPostgresSellerKeepsItsBlock(t *testing.T) {
	ctx := context.Background()
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(13), SeedSet: true, Tables: SmallTables, OpenBlocks: 3})
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(1000)); err != nil {
		t.Fatal(err)
	}
	g, stake := lottery.Yams(), decimal.NewFromInt(1)
	seq := g.Seq(stake)
	sell := func(n int) int64 {
		t.Helper()
		r, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: g, Stake: stake})
		if err != nil {
			t.Fatal(err)
		}
		return r.Sold.Unit.ID.Block
	}
	if b := sell(1); b != 1 {
		t.Fatalf("the first sale: block %d, want 1, the first on sale", b)
	}
	other, err := s.db.BeginTx(ctx, nil) // another seller, holding block 1
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.ExecContext(ctx, `SELECT number FROM blocks WHERE game = $1 AND stake = $2 AND number = 1 FOR UPDATE`, seq.Game, seq.Stake.String()); err != nil {
		t.Fatal(err)
	}
	if b := sell(2); b != 2 {
		t.Errorf("block 1 held by another: the sale took block %d, want 2", b)
	}
	if err := other.Rollback(); err != nil {
		t.Fatal(err)
	}
	for n := 3; n <= 5; n++ {
		if b := sell(n); b != 2 {
			t.Errorf("sale %d, block 1 free again: block %d, want 2, the block the seller sold from last", n, b)
		}
	}
}

// TestPostgresShownMarkFindsItsUnitBySerial: the statement marking a unit
// shown finds it by its serial's unique index, even in the plan
// PostgreSQL caches for a connection's life while the purchases table is
// young and unanalysed, when reading the account's purchases by
// purchases_at cost it the same: a mark would then read every purchase
// of its account.
func TestPostgresShownMarkFindsItsUnitBySerial(t *testing.T) {
	ctx := context.Background()
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(17), SeedSet: true, Tables: SmallTables})
	if err := s.Deposit(ctx, "ann", decimal.NewFromInt(1000)); err != nil {
		t.Fatal(err)
	}
	g, stake := lottery.Yams(), decimal.NewFromInt(1)
	var shown []lottery.Ref
	for n := 1; n <= 150; n++ {
		r, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: g, Stake: stake, Shown: shown})
		if err != nil {
			t.Fatal(err)
		}
		shown = []lottery.Ref{r.Sold.Ref()}
	}
	var shownRows int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM purchases WHERE account = 'ann' AND shown = 1`).Scan(&shownRows); err != nil {
		t.Fatal(err)
	}
	if shownRows != 149 {
		t.Errorf("%d of ann's purchases marked shown, want 149 (each but the last)", shownRows)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	defer func() { // the pool's connection given back as it was found
		for _, q := range []string{`DEALLOCATE mark`, `RESET plan_cache_mode`} {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				t.Error(err)
			}
		}
	}()
	for _, q := range []string{
		`PREPARE mark (TEXT, TEXT, BIGINT, BIGINT, TEXT, BYTEA) AS ` + shownQuery,
		`SET plan_cache_mode = force_generic_plan`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := conn.QueryContext(ctx, `EXPLAIN EXECUTE mark ('yams', '1', 1, 1, 'ann', '\x00')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "using purchases_serial") {
		t.Errorf("the cached plan of a shown mark does not find its unit by purchases_serial:\n%s", text)
	}
}
