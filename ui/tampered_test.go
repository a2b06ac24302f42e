package ui

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/ledger"
	"tapis/store"
)

// TestTamperedStoreRefusesInOneLine: a store its seller found changed
// under it (emission.qa set to 1 with SQL, then its check) refuses every
// purchase; the game says so in one line of its own words, never the
// store's, and nothing is bought.
func TestTamperedStoreRefusesInOneLine(t *testing.T) {
	for lang, want := range map[Lang]string{
		English: "Sales are stopped: the store was changed under this game; nothing was bought",
		French:  "Les ventes sont arrêtées : la réserve a été modifiée à l'insu de ce jeu ; rien n'a été acheté",
	} {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "tapis.db")
		st, err := store.Open(ctx, "sqlite:"+path, store.Options{Key: ledger.PublicTestKey()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		m, err := newOnStore(Options{Lang: lang, Balance: decimal.NewFromInt(100), Start: YamsScreen}, st, "ann")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close() })
		send(m, sizeMsg(100, 30))
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`UPDATE emission SET qa = 1`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if err := st.Check(ctx); !errors.Is(err, store.ErrTampered) {
			t.Fatalf("the check after emission.qa = 1: %v", err)
		}
		press(m, "enter")
		settle(m)
		screen := plain(m)
		if !strings.Contains(screen, want) || m.Totals().Played != 0 {
			t.Errorf("%s: %d played, want the line %q:\n%s", lang, m.Totals().Played, want, screen)
		}
		for _, internal := range []string{"QA flag", "emission", "sealed", "ann"} {
			if strings.Contains(screen, internal) {
				t.Errorf("%s: %q reached the player:\n%s", lang, internal, screen)
			}
		}
	}
}

// TestSalesStoppedLetsTheRevealFinish: a server that stopped selling (its
// store changed under it) says so in the header, with its countdown when
// the line fits; the buy button says so too and buys nothing; the game
// quits once the unit being revealed is.
func TestSalesStoppedLetsTheRevealFinish(t *testing.T) {
	m := newModel(t, English, YamsScreen, 100, 30)
	press(m, "enter") // a unit bought, its cups covered
	if cmd := send(m, ClosingMsg{Deadline: fixedTime.Add(10 * time.Second), Tampered: true}); cmd != nil {
		t.Fatalf("ClosingMsg quit while a unit is being revealed: %v", cmd())
	}
	head := func() string { return strings.SplitN(plain(m), "\n", 2)[0] }
	if h := head(); !strings.Contains(h, "Sales are stopped: the store was changed under this server. Closing in 10 s") {
		t.Errorf("the header says %q", h)
	}
	press(m, "esc", "2") // the Vegas screen, where the buy button is
	clickOn(t, m, "buy")
	if n := m.Totals().Played; n != 1 {
		t.Fatalf("the buy button bought once sales stopped: %d units", n)
	}
	if screen := plain(m); !strings.Contains(screen, "Sales are stopped: the store was changed under this server; what you bought is kept") {
		t.Errorf("the refusal is not said:\n%s", screen)
	}
	press(m, "esc", "1", "a") // back to the unit, revealed all at once
	for range 1000 {
		if m.EndedByClosing() {
			break
		}
		ticks := clockOf(m).take(animation)
		if len(ticks) == 0 {
			break
		}
		for _, tick := range ticks {
			send(m, tick)
		}
	}
	if !m.EndedByClosing() {
		t.Error("the game did not quit once the unit was revealed")
	}

	// Too narrow for the countdown, the line alone, in French.
	fr := newModel(t, French, MenuScreen, 80, 24)
	send(fr, ClosingMsg{Deadline: fixedTime.Add(10 * time.Second), Tampered: true})
	if h := strings.SplitN(plain(fr), "\n", 2)[0]; !strings.Contains(h, "Les ventes sont arrêtées : la réserve a été modifiée à l'insu de ce serveur.") || strings.Contains(h, "Fermeture") {
		t.Errorf("the French header says %q", h)
	}
}
