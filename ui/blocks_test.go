package ui

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/session"
	"tapis/store"
)

// countingStore counts the calls made to a store.
type countingStore struct {
	*store.SQL
	calls atomic.Int64
}

func (c *countingStore) Sell(ctx context.Context, p store.Purchase) (store.Receipt, error) {
	c.calls.Add(1)
	return c.SQL.Sell(ctx, p)
}

func (c *countingStore) Shown(ctx context.Context, account string, unit lottery.Ref) error {
	c.calls.Add(1)
	return c.SQL.Shown(ctx, account, unit)
}

func (c *countingStore) Account(ctx context.Context, name string, recent int) (store.Account, error) {
	c.calls.Add(1)
	return c.SQL.Account(ctx, name, recent)
}

func (c *countingStore) Block(ctx context.Context, seq game.SeqKey) (store.BlockStatus, error) {
	c.calls.Add(1)
	return c.SQL.Block(ctx, seq)
}

func (c *countingStore) Revealed(ctx context.Context) ([]store.Reveal, error) {
	c.calls.Add(1)
	return c.SQL.Revealed(ctx)
}

// TestDrawingAsksNothingOfTheStore draws every screen of a QA session on
// a shared store, its forcing panel included, before and after purchases:
// no frame calls the store; what the screens show of the blocks was read
// by commands.
func TestDrawingAsksNothingOfTheStore(t *testing.T) {
	sql, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"), store.Options{Key: ledger.PublicTestKey(), QA: true})
	if err != nil {
		t.Fatal(err)
	}
	st := &countingStore{SQL: sql}
	m, err := newOnStore(Options{Lang: English, Balance: decimal.NewFromInt(100), Start: MenuScreen, QA: true}, st, "ann")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	send(m, sizeMsg(120, 40))
	drawn := func(what string) {
		t.Helper()
		before := st.calls.Load()
		for range 3 {
			_ = m.View()
		}
		if n := st.calls.Load() - before; n != 0 {
			t.Errorf("%s: drawing called the store %d times", what, n)
		}
	}
	for _, keys := range [][]string{nil, {"4"}, {"esc", "3"}, {"esc", "5"}, {"esc", "1"}, {"a"}, {"f"}, {"esc", "esc", "2"}} {
		press(m, keys...)
		drawn(title(m) + " after " + strings.Join(keys, " "))
	}
	if !strings.Contains(m.qaStatus(m.games[0], 200), "yams") {
		t.Errorf("the QA line shows no block: %q", m.qaStatus(m.games[0], 200))
	}
}

// TestRulesShowTheBlocksRead: the rules' commitments are those of the
// session's seed, read when the rules come up, and follow the blocks as
// they sell out.
func TestRulesShowTheBlocksRead(t *testing.T) {
	seed := game.SeedFrom(42)
	m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(1000), Start: MenuScreen}, 120, 40,
		session.Options{Seed: seed, Tables: store.SmallTables})
	defer m.Close()
	press(m, "4")
	rules := m.screens[RulesScreen].(*rulesScreen)
	for _, stake := range lottery.Yams().Stakes {
		want := seed.Block(lottery.Yams().Name, stake, 1).CommitmentHex(lottery.Yams().Seq(stake).Block(1))
		if !strings.Contains(rules.commitments(100), want) {
			t.Errorf("the rules do not show block 1 at %s: %s", stake, want)
		}
	}
	// Sell the 1 € block out: its seed is revealed, block 2 committed.
	press(m, "esc", "1")
	table, _ := store.SmallTables(lottery.Yams(), decimal.NewFromInt(1))
	for range table.Units {
		press(m, "a")
		settle(m)
	}
	press(m, "esc", "4")
	text := rules.commitments(100)
	one := decimal.NewFromInt(1)
	if want := seed.Block(lottery.Yams().Name, one, 2).CommitmentHex(lottery.Yams().Seq(one).Block(2)); !strings.Contains(text, want) {
		t.Errorf("block 2 at 1 € not shown once block 1 sold out:\n%s", text)
	}
	if !strings.Contains(text, "yams:1:1") {
		t.Errorf("the seed of block yams:1:1 not shown once sold out:\n%s", text)
	}
}
