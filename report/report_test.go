package report

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/internal/pgtest"
	"tapis/ledger"
	"tapis/store"
)

func TestReportIsOneSnapshot(t *testing.T) {
	reportIsOneSnapshot(t, "sqlite:"+filepath.Join(t.TempDir(), "show.db"))
}

func TestPostgresReportIsOneSnapshot(t *testing.T) {
	reportIsOneSnapshot(t, pgtest.Fresh(t))
}

// reportIsOneSnapshot: reports read while a seller sells add up: the
// accounts' balances are their deposits less the stakes plus the prizes
// of the purchases counted, the blocks on sale sold as many units as the
// purchases counted, the hours, blocks and lots sum to the total. Read
// outside one snapshot, sales made between two readings break them.
func reportIsOneSnapshot(t *testing.T, url string) {
	ctx := context.Background()
	st, err := store.Open(ctx, url, store.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(4), SeedSet: true, OpenBlocks: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reader, err := store.Open(ctx, url, store.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if err := st.Deposit(ctx, "ann", decimal.NewFromInt(100_000)); err != nil {
		t.Fatal(err)
	}
	var sold atomic.Int64
	stop := make(chan struct{})
	done := make(chan error)
	go func() {
		games := []lottery.Game{lottery.Yams(), lottery.Vegas()}
		for n := 1; ; n++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			g := games[n%2]
			if _, err := st.Sell(ctx, store.Purchase{Account: "ann", Number: n, Game: g, Stake: g.Stakes[len(g.Stakes)-1]}); err != nil {
				done <- err
				return
			}
			sold.Add(1)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	reads := 0
	for ; reads < 15 || sold.Load() < 60; reads++ {
		if time.Now().After(deadline) {
			break
		}
		r, err := Read(ctx, reader, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		a := r.Accounts
		if want := a.Deposited.Sub(r.Total.Staked).Add(r.Total.Paid); !want.Equal(a.Balance) {
			t.Errorf("read %d: balances %s, deposits less stakes plus prizes %s", reads, a.Balance, want)
		}
		var onSale, blocks, hours, lots int64
		for _, o := range r.OnSale {
			onSale += o.Sold
		}
		for _, b := range r.Blocks {
			blocks += b.Units
		}
		for _, h := range r.Hours {
			hours += h.Units
		}
		for _, s := range r.Stakes {
			for _, l := range s.Lots {
				lots += l.Units
			}
		}
		if u := r.Total.Units; onSale != u || blocks != u || hours != u || lots != u {
			t.Errorf("read %d: %d units, the blocks on sale sold %d, by block %d, by hour %d, by lot %d", reads, u, onSale, blocks, hours, lots)
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if sold.Load() == 0 {
		t.Fatal("nothing sold while the reports were read")
	}
	r, err := Read(ctx, reader, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total.Units != sold.Load() {
		t.Errorf("at the end: %d units, %d sold", r.Total.Units, sold.Load())
	}
	t.Logf("%d reports read while %d units sold", reads, sold.Load())
}

// TestLotsLeft: the winning lots left, top prize first, those none of
// which is left dropped, the losing lot never among them.
func TestLotsLeft(t *testing.T) {
	prizes := []decimal.Decimal{decimal.NewFromInt(5), decimal.NewFromInt(500), decimal.Zero, decimal.NewFromInt(50)}
	got := LotsLeft(prizes, 2, []int64{7, 1, 80, 0}, []int64{10, 1, 87, 2})
	if len(got) != 2 || !got[0].Prize.Equal(decimal.NewFromInt(500)) || got[0].Left != 1 || got[1].Left != 7 || got[1].Initial != 10 {
		t.Errorf("%+v", got)
	}
	if line := LeftLine(got, 0, num, prize); line != "1 × €500, 7 × €5" {
		t.Errorf("%q", line)
	}
	if line := LeftLine(got, 1, num, prize); line != "1 × €500" {
		t.Errorf("%q", line)
	}
}
