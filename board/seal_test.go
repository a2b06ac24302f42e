package board

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/report"
	"tapis/store"
	"tapis/ui"
)

// TestBoardOfAStore: a board of a real store shows the biggest win
// players have seen today in large type, and the lots left as they have
// seen them: a unit being revealed counts as left, and its prize is no
// win yet. It shows neither the house key's fingerprint nor a head's
// hash (tapis report does).
func TestBoardOfAStore(t *testing.T) {
	ctx := context.Background()
	url := "sqlite:" + filepath.Join(t.TempDir(), "tapis.db")
	st, err := store.Open(ctx, url, store.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(5), SeedSet: true, Tables: store.SmallTables, OpenBlocks: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.OpenAccount(ctx, "ann", decimal.NewFromInt(1000)); err != nil {
		t.Fatal(err)
	}
	vegas, stake := lottery.Vegas(), decimal.NewFromInt(3)
	var best decimal.Decimal
	var last store.Receipt
	for n := 1; n <= 20; n++ {
		r, err := st.Sell(ctx, store.Purchase{Account: "ann", Number: n, Game: vegas, Stake: stake})
		if err != nil {
			t.Fatal(err)
		}
		if n == 20 {
			last = r // still being revealed
			break
		}
		if err := st.Shown(ctx, "ann", r.Sold.Ref()); err != nil {
			t.Fatal(err)
		}
		if p := r.Sold.Unit.Prize; p.GreaterThanOrEqual(stake.Mul(decimal.NewFromInt(store.BigWinFactor))) && p.GreaterThan(best) {
			best = p
		}
	}
	if err := st.SignHead(ctx); err != nil {
		t.Fatal(err)
	}
	reader, err := store.Open(ctx, url, store.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	b, err := reader.NewPoller(Keep).Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Lang: ui.English, Source: fixed{b: b, ok: true}, Location: time.UTC, Join: Join{Host: "stand.local", Port: 23234}})
	m.Update(m.read())
	frame := stripped(m, 80, 24)
	if best.IsZero() {
		t.Fatal("no big win among the units seen: sell more, or another seed")
	}
	if !bigAt(frame, m.t.money(best), 1) {
		t.Errorf("no %s in large type:\n%s", m.t.money(best), frame)
	}
	for _, w := range b.Top {
		if w.Unit.String() == last.Sold.Unit.ID.String() {
			t.Errorf("the unit being revealed, %s, is among the day's wins", w.Unit)
		}
	}
	// The lots left, as the report (which counts the unit being revealed
	// as left too) writes them.
	r, err := report.Read(ctx, reader, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range r.OnSale {
		if o.ID.Game != "vegas" {
			continue
		}
		want := report.LeftLine(o.Left[:min(2, len(o.Left))], 2, m.t.number, m.t.money) + " left in block 1"
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in\n%s", want, frame)
		}
	}
	head, _ := st.LastHead()
	for _, not := range []string{ledger.PublicTestKey().Public().Fingerprint(), head.Hash.String()[:16]} {
		if strings.Contains(frame, not) {
			t.Errorf("%q on the board:\n%s", not, frame)
		}
	}
}
