package store

import (
	"tapis/game"
	"tapis/ledger"

	"context"
	"testing"

	"github.com/shopspring/decimal"

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

func BenchmarkSellLossLimitPostgres(b *testing.B) {
	benchSell(b, pgtest.Fresh(b), decimal.NewFromInt(1_000_000_000))
}

func BenchmarkFloorInsertPostgres(b *testing.B) {
	benchFloor(b, pgtest.Fresh(b))
}

func TestPostgresLossWindow(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(3), SeedSet: true, Tables: SmallTables})
	lossWindow(t, s)
}
