package ui

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/session"
	"tapis/wallet"
)

// probe wraps the model in a real program and reports, safely from the
// test, whether a unit is being revealed and how many were played.
type probe struct {
	*Model
	mu     *sync.Mutex
	busy   *bool
	played *int
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := p.Model.Update(msg)
	p.mu.Lock()
	*p.busy = p.Model.Revealing()
	*p.played = p.Model.Totals().Played
	p.mu.Unlock()
	return p, cmd
}

// waitIdle waits until the program has played n units and revealed them all.
func waitIdle(t *testing.T, p probe, n int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a deadline, not a speed: a loaded machine under -race is slow
	for time.Now().Before(deadline) {
		p.mu.Lock()
		done := *p.played == n && !*p.busy
		p.mu.Unlock()
		if done {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%d units not revealed in time", n)
}

// TestEndToEnd plays three Auto units of Yam's and one Vegas ticket
// scratched with « a » in a real program with a fixed seed, then checks the
// balance and the summary line against the units the engine sells for that
// seed.
func TestEndToEnd(t *testing.T) {
	sess, err := session.Open(session.Options{Seed: game.SeedFrom(2026), Balance: decimal.NewFromInt(100)})
	if err != nil {
		t.Fatal(err)
	}
	m := New(sess, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen})
	p := probe{Model: m, mu: &sync.Mutex{}, busy: new(bool), played: new(int)}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(80, 24))
	for i := 1; i <= 3; i++ {
		tm.Type("a")
		waitIdle(t, p, i)
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEscape})
	tm.Type("2")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, p, func() bool { return *p.played == 4 })
	tm.Type("a")
	waitIdle(t, p, 4)
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	// The same seed sells the same units: 3 Yam's at 1 €, then a ticket.
	shop := lottery.NewShop(game.SeedFrom(2026))
	w, _ := wallet.New(decimal.NewFromInt(100))
	for i := range 4 {
		g, stake := lottery.Yams(), decimal.NewFromInt(1)
		if i == 3 {
			g, stake = lottery.Vegas(), decimal.NewFromInt(3)
		}
		w.Buy(stake, func() (wallet.Sale, error) {
			s, err := shop.Sell(g, stake)
			return wallet.Sale{Unit: s.Unit.ID.String(), Prize: s.Unit.Prize}, err
		})
	}
	tot := w.Totals()
	want := "played 4 · staked " + wallet.Format(tot.Staked, "en") + " · won " + wallet.Format(tot.Won, "en") +
		" · balance " + wallet.Format(w.Balance(), "en")
	if got := m.Summary(); got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if !m.Balance().Equal(w.Balance()) {
		t.Errorf("balance %s, want %s", m.Balance(), w.Balance())
	}
	if !strings.HasPrefix(want, "played 4 · staked €6.00") {
		t.Errorf("unexpected totals %q", want)
	}
}

func waitFor(t *testing.T, p probe, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a deadline, not a speed: a loaded machine under -race is slow
	for time.Now().Before(deadline) {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("condition not met in time")
}
