package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
)

// bought reports whether line n of the journal at path records the
// purchase of p.
func bought(t *testing.T, path string, p Played) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if p.Line < 1 || p.Line > len(lines) {
		return false
	}
	l := lines[p.Line-1]
	return strings.Contains(l, `"kind":"buy"`) && strings.Contains(l, `"unit":"`+p.Op.Unit+`"`)
}

// describe writes what the history shows of a unit, and what it is shown
// again from.
func describe(t *testing.T, p Played) string {
	t.Helper()
	layout, err := json.Marshal(p.Sold.Layout)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d %s %s forced=%v %s→%s %s→%s tier=%d seed=%x at=%s line=%d %s",
		p.Op.Seq, p.Op.Unit, p.Sold.Name(), p.Op.Forced, p.Op.Stake, p.Op.Prize, p.Op.Before, p.Op.After,
		p.Sold.Unit.Tier, p.Sold.Unit.Seed[:4], p.Time.Format("15:04:05"), p.Line, layout)
}

// TestRecent: the session keeps the last units bought, up to its limit,
// newest last, with all the history shows; units taken up from the journal
// are the same as when they were bought; the kiosk's Restart empties them.
func TestRecent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	o := Options{Seed: game.SeedFrom(3), SeedSet: true, Balance: decimal.NewFromInt(100), Journal: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables, Now: clock(), QA: true, Limit: 4}
	a, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Recent()) != 0 {
		t.Fatalf("a new session has recent units: %v", a.Recent())
	}
	if n, newest := a.RecentSeq(); n != 0 || newest != 0 {
		t.Fatalf("a new session's RecentSeq: %d units, the newest %d", n, newest)
	}
	total := 60
	loaded, err := lottery.Parse([]byte(`{"game":"yams","stake":"2","cups":[[6,6,6,6,6],[1,2,3,4,6],[1,2,3,4,6]]}`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		g, stake := pick(i)
		var f *lottery.Force
		switch i {
		case 4:
			f = &lottery.Force{Total: &total}
		case 6:
			f, stake = &lottery.Force{Layout: &loaded}, decimal.NewFromInt(1) // the layout brings its stake, 2
		}
		label := ""
		if f != nil {
			label = "QA"
		}
		if _, _, err := a.Buy(g, stake, f, label); err != nil {
			t.Fatal(err)
		}
	}
	before := a.Recent()
	if len(before) != 4 {
		t.Fatalf("%d recent units, want the limit, 4", len(before))
	}
	if n, newest := a.RecentSeq(); n != 4 || newest != before[3].Op.Seq || newest != 7 {
		t.Errorf("RecentSeq: %d units, the newest %d; Recent: 4, the newest %d", n, newest, before[3].Op.Seq)
	}
	for i, p := range before {
		if p.Op.Seq != 4+i || p.Op.Unit != p.Sold.Name() || !p.Op.Prize.Equal(p.Sold.Unit.Prize) || p.Time.IsZero() || !bought(t, path, p) {
			t.Errorf("recent unit %d: %s", i, describe(t, p))
		}
	}
	if last := before[3]; last.Sold.Forced == nil || !last.Op.Stake.Equal(decimal.NewFromInt(2)) || !last.Sold.Unit.Prize.Equal(loaded.Score().Prize()) {
		t.Errorf("the loaded layout: %s", describe(t, last))
	}
	before[0].Op.Unit = "changed" // the caller's own slice
	if a.Recent()[0].Op.Unit == "changed" {
		t.Error("Recent shares its slice with the session")
	}
	before = a.Recent()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	b, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	after := b.Recent()
	if len(after) != len(before) {
		t.Fatalf("%d units taken up, %d bought", len(after), len(before))
	}
	for i := range after {
		if got, want := describe(t, after[i]), describe(t, before[i]); got != want {
			t.Errorf("taken up as\n%s\nbought as\n%s", got, want)
		}
	}
	g, stake := pick(0)
	if _, _, err := b.Buy(g, stake, nil, ""); err != nil {
		t.Fatal(err)
	}
	if r := b.Recent(); len(r) != 4 || r[3].Op.Seq != 8 || r[0].Op.Seq != 5 || !bought(t, path, r[3]) {
		t.Errorf("after one more purchase: %d units, %d to %d", len(r), r[0].Op.Seq, r[len(r)-1].Op.Seq)
	}

	k, err := Open(Options{Seed: game.SeedFrom(3), Balance: decimal.NewFromInt(10), Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 { // trimmed in batches, never past the limit
		if _, _, err := k.Buy(g, stake, nil, ""); err != nil {
			t.Fatal(err)
		}
		if n := len(k.Recent()); n > 3 || k.recent.Len() >= 6 {
			t.Fatalf("%d recent units kept, %d held", n, k.recent.Len())
		}
	}
	if r := k.Recent(); r[len(r)-1].Line != 0 {
		t.Errorf("a unit bought without a journal at line %d", r[len(r)-1].Line)
	}
	if err := k.Restart(decimal.NewFromInt(10)); err != nil || len(k.Recent()) != 0 {
		t.Errorf("the next visitor: %v, %d recent units", err, len(k.Recent()))
	}
}
