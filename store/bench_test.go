package store

import (
	"tapis/game"
	"tapis/ledger"

	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
)

// The purchase and its floor, through the same driver with the same
// settings: WAL, synchronous=FULL, the same busy timeout, one transaction
// a purchase on disk before it returns. The floor is the database's least
// durable write: one row inserted in its own transaction. Run:
//
//	go test ./store -run '^$' -bench 'Sell|Floor' -count 6

func BenchmarkSellSQLite(b *testing.B) {
	url := "sqlite:" + filepath.Join(b.TempDir(), "bench.db")
	benchSell(b, url, decimal.Zero)
}

// BenchmarkSellLossLimitSQLite: each purchase checked against a loss
// limit it never reaches, in its transaction: the sum of the account's
// day of purchases (all of the run's) read by their index. Its cost
// grows with the purchases of the day: -benchtime 2000x compares.
func BenchmarkSellLossLimitSQLite(b *testing.B) {
	benchSell(b, "sqlite:"+filepath.Join(b.TempDir(), "bench.db"), decimal.NewFromInt(1_000_000_000))
}

func BenchmarkFloorInsertSQLite(b *testing.B) {
	benchFloor(b, "sqlite:"+filepath.Join(b.TempDir(), "floor.db"))
}

// BenchmarkSellerSQLite: a purchase as a seller (simulate, the game, a
// server's session) makes it: the account held (its lease checked by
// each purchase), each unit marked shown once bought, its mark carried by
// the next purchase.
func BenchmarkSellerSQLite(b *testing.B) {
	benchSeller(b, "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
}

// benchSeller sells to one account it holds, each unit marked shown as
// soon as it is bought.
func benchSeller(b *testing.B, url string) {
	ctx := context.Background()
	s := openBench(b, url)
	defer s.Close()
	l, err := s.Hold(ctx, "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Release()
	if _, err := s.OpenAccount(ctx, "bench", decimal.NewFromInt(1_000_000_000)); err != nil {
		b.Fatal(err)
	}
	g, stake := lottery.Yams(), decimal.NewFromInt(1)
	sell := func(n int) {
		r, err := s.Sell(ctx, Purchase{Account: "bench", Number: n, Game: g, Stake: stake, Lease: l.Token()})
		if err != nil {
			b.Fatal(err)
		}
		s.ShownSoon("bench", r.Sold.Ref())
	}
	sell(1) // the block's draw order, once
	b.ResetTimer()
	for i := range b.N {
		sell(i + 2)
	}
}

// benchSell sells to one account, one purchase after another, each
// checked against limit (zero: none).
func benchSell(b *testing.B, url string, limit decimal.Decimal) {
	ctx := context.Background()
	s := openBench(b, url)
	defer s.Close()
	if _, err := s.OpenAccount(ctx, "bench", decimal.NewFromInt(1_000_000_000)); err != nil {
		b.Fatal(err)
	}
	g, stake := lottery.Yams(), decimal.NewFromInt(1)
	if _, err := s.Sell(ctx, Purchase{Account: "bench", Number: 1, Game: g, Stake: stake}); err != nil { // the block's draw order, once
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.Sell(ctx, Purchase{Account: "bench", Number: i + 2, Game: g, Stake: stake, LossLimit: limit}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchFloor inserts rows in the store at url, each in its transaction,
// through the store's driver and settings.
func benchFloor(b *testing.B, url string) {
	ctx := context.Background()
	e, err := parseURL(url)
	if err != nil {
		b.Fatal(err)
	}
	db, err := e.connect(false)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS floor (id BIGINT PRIMARY KEY, v TEXT NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	insert := e.q(`INSERT INTO floor (id, v) VALUES ($1, $2)`)
	b.ResetTimer()
	for i := range b.N {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, insert, i, fmt.Sprint("row ", i)); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckSQLite: the check a server's store runs every CheckEvery
// on its own (Check), with 200 accounts held that have each bought once:
// the emission's seal, the blocks on sale, each account's head and its
// last purchase read back and its link hashed again. Beside it its floor:
// the same 200 purchases' rows read in one query and scanned as the check
// scans them, nothing checked.
func BenchmarkCheckSQLite(b *testing.B) {
	benchCheck(b, "sqlite:"+filepath.Join(b.TempDir(), "check.db"))
}

// benchCheck measures Check on a store at url holding 200 accounts, and
// its floor.
func benchCheck(b *testing.B, url string) {
	ctx := context.Background()
	s := openBench(b, url)
	defer s.Close()
	holdBuyers(b, s, "a", 200, decimal.NewFromInt(100))
	b.Run("check", func(b *testing.B) {
		for range b.N {
			if err := s.Check(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor", func(b *testing.B) {
		for range b.N {
			rows, err := s.db.QueryContext(ctx, `SELECT account, `+receiptColumns+` FROM purchases`)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for rows.Next() {
				if _, _, err := scanRecorded(rows); err != nil {
					b.Fatal(err)
				}
				n++
			}
			if err := rows.Err(); err != nil || n != 200 {
				b.Fatalf("%d rows read: %v", n, err)
			}
			rows.Close()
		}
	})
}

// openBench opens the store at url that a benchmark sells from; the
// caller closes it.
func openBench(b *testing.B, url string) *SQL {
	b.Helper()
	s, err := Open(context.Background(), url, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(1), SeedSet: true})
	if err != nil {
		b.Fatal(err)
	}
	return s
}
