package ui

import (
	"tapis/game"
	"tapis/ledger"

	"path/filepath"
	"strings"
	"tapis/session"
	"testing"

	"github.com/shopspring/decimal"
)

// TestPurchaseUnderWay holds a purchase's answer, as a slow disk would,
// and looks at the game meanwhile: the header shows the stake paid and no
// prize, the screen says it is buying, no second purchase starts, the
// stake does not move, the forcing panel does not open, and q asks first.
// The answer then starts the reveal.
func TestPurchaseUnderWay(t *testing.T) {
	m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen, QA: true}, 100, 30, session.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(7), Journal: filepath.Join(t.TempDir(), "j.jsonl")})
	for i := range 60 { // units that win and units that lose
		before, _ := headerMoney(t, m)
		_, cmd := m.Update(keyMsg("enter"))
		if cmd == nil {
			t.Fatal("enter bought nothing")
		}
		answer := cmd() // bought and on disk, not yet told to the screen
		send(m, clockMsg{})
		if b, _ := headerMoney(t, m); !b.Equal(before.Sub(decimal.NewFromInt(1))) {
			t.Fatalf("unit %d: the header shows %s while the purchase is under way, want %s", i, b, before.Sub(decimal.NewFromInt(1)))
		}
		if i == 0 {
			if !strings.Contains(plain(m), "Buying…") {
				t.Errorf("the screen does not say it is buying:\n%s", plain(m))
			}
			if cmd := press(m, "enter", "a", "right", "f"); cmd != nil || m.Totals().Played != 1 ||
				!strings.Contains(plain(m), "[€1.00]") || forcing(m) {
				t.Fatalf("keys acted while buying:\n%s", plain(m))
			}
			if quits(press(m, "q")) || !strings.Contains(plain(m), "q again to quit") {
				t.Fatalf("q did not ask while a unit is being paid:\n%s", plain(m))
			}
		}
		send(m, answer)
		if !m.Revealing() {
			t.Fatalf("unit %d: the answer did not start the reveal", i)
		}
		press(m, "1", "2", "3")
		settle(m)
	}
}

// TestEscNeverWalksALoop: opening History and Stats from each other many
// times, esc still goes back in two presses.
func TestEscNeverWalksALoop(t *testing.T) {
	m := newModel(t, English, YamsScreen, 100, 30)
	for range 50 {
		press(m, "h", "s")
	}
	press(m, "esc")
	if m.Screen() != HistoryScreen {
		t.Fatalf("esc from Stats went to %d", m.Screen())
	}
	press(m, "esc")
	if m.Screen() != YamsScreen {
		t.Fatalf("a second esc went to %d, not back to the game", m.Screen())
	}
}
