package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/ledger"
	"tapis/store"
)

// limitedSeller is a shared store whose purchases a loss limit refuses
// while refuse is set, as the server's seller does: nothing is sold.
type limitedSeller struct {
	*store.SQL
	refuse *store.LossLimitError
	fail   error // the store's failure, when set
}

func (s *limitedSeller) Sell(ctx context.Context, p store.Purchase) (store.Receipt, error) {
	if s.fail != nil {
		return store.Receipt{}, s.fail
	}
	if s.refuse != nil {
		return store.Receipt{}, fmt.Errorf("purchase %s: %w", p.ID(), s.refuse)
	}
	return s.SQL.Sell(ctx, p)
}

// Close leaves the store open: the test closes it.
func (*limitedSeller) Close() error { return nil }

// limited returns a session on a shared store through a limitedSeller.
func limited(t *testing.T, lang Lang) (*Model, *limitedSeller) {
	t.Helper()
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"), store.Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := &limitedSeller{SQL: st}
	m, err := newOnStore(Options{Lang: lang, Balance: decimal.NewFromInt(100), Start: YamsScreen}, s, "ann")
	if err != nil {
		t.Fatal(err)
	}
	send(m, sizeMsg(100, 30))
	return m, s
}

// TestLossLimitRefusal: a purchase the loss limit refuses buys nothing and
// says so in one line, with the minute purchases are possible again (the
// next day's said so), on either game, Play or Auto; the player can still
// look at the history and the rules, and buys again once allowed.
func TestLossLimitRefusal(t *testing.T) {
	m, s := limited(t, English)
	// fixedTime is 20:00 UTC, the test clock's zone.
	s.refuse = &store.LossLimitError{Limit: decimal.NewFromInt(5), Loss: decimal.NewFromInt(6), Until: fixedTime.Add(90*time.Minute + 20*time.Second)}
	const line = "Loss limit (€5 in 24 h): this stake again at 21:31"
	for _, k := range []string{"enter", "a"} {
		press(m, k)
		settle(m)
		if m.Totals().Played != 0 || !m.Balance().Equal(decimal.NewFromInt(100)) || m.Revealing() {
			t.Fatalf("%s bought past the loss limit: %d played, balance %s", k, m.Totals().Played, m.Balance())
		}
		if !strings.Contains(plain(m), line) {
			t.Fatalf("%s past the loss limit does not say %q:\n%s", k, line, plain(m))
		}
	}
	press(m, "h")
	if m.Screen() != HistoryScreen {
		t.Fatalf("h after a refusal opened %d", m.Screen())
	}
	press(m, "esc", "esc", "2")
	s.refuse.Until = fixedTime.Add(5 * time.Hour) // 01:00, tomorrow
	clickLabel(t, m, "Buy", 0)
	if want := "Loss limit (€5 in 24 h): a ticket again tomorrow at 01:00"; !strings.Contains(plain(m), want) || m.Totals().Played != 0 {
		t.Fatalf("a ticket past the loss limit: %d played, want the line %q:\n%s", m.Totals().Played, want, plain(m))
	}
	s.refuse = nil
	press(m, "enter")
	if m.Totals().Played != 1 || strings.Contains(plain(m), "Loss limit") {
		t.Fatalf("once allowed, enter bought %d, the line still shows:\n%s", m.Totals().Played, plain(m))
	}
	press(m, "a")
	settle(m)
	if !quits(press(m, "q")) {
		t.Fatal("q did not quit")
	}
}

// TestLossLimitRefusalInFrench: the line speaks the session's language.
func TestLossLimitRefusalInFrench(t *testing.T) {
	m, s := limited(t, French)
	s.refuse = &store.LossLimitError{Limit: decimal.RequireFromString("12.5"), Loss: decimal.NewFromInt(13), Until: fixedTime.Add(2 * time.Hour)}
	press(m, "enter")
	if want := "Limite de pertes (12,50 € en 24 h) : cette mise possible à 22:00"; !strings.Contains(plain(m), want) {
		t.Fatalf("the refusal does not say %q:\n%s", want, plain(m))
	}
}
