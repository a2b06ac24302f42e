package ui

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// TestPayNoteFitsIn80Columns: Vegas with a balance under a ticket's price
// says so whole at 80 columns, in both languages, its way out included
// (the French line was cut before « q : quitter », a newcomer found).
func TestPayNoteFitsIn80Columns(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		m := open(t, Options{Lang: lang, Balance: decimal.RequireFromString("1.5"), Start: VegasScreen},
			80, 24, session.Options{Seed: game.SeedFrom(42)})
		tx := newText(lang)
		if frame := plain(m); !strings.Contains(frame, strings.TrimSpace(tx.get("pay.quit"))) || strings.Contains(frame, "…") {
			t.Errorf("%v: the pay note is cut at 80 columns:\n%s", lang, frame)
		}
	}
}

// TestPauseFitsIn80Columns: a pause's banner, and the refusal of a
// purchase while paused, are said whole at 80 columns in both languages
// (the French banner lost « les ventes reprennent bientôt », a stand
// host found).
func TestPauseFitsIn80Columns(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		m, _ := limited(t, lang)
		send(m, sizeMsg(80, 24))
		send(m, StandMsg{Paused: true})
		tx := newText(lang)
		if frame := plain(m); !strings.Contains(frame, tx.get("paused")) {
			t.Errorf("%v: the pause's banner is cut at 80 columns:\n%s", lang, frame)
		}
		press(m, "enter")
		if frame := plain(m); !strings.Contains(strings.Join(strings.Fields(frame), " "), tx.get("paused.refused")) {
			t.Errorf("%v: the refusal while paused is cut at 80 columns:\n%s", lang, frame)
		}
		send(m, StandMsg{})
		if frame := plain(m); strings.Contains(strings.Join(strings.Fields(frame), " "), tx.get("paused.refused")) {
			t.Errorf("%v: resumed, the refusal the pause gave still shows:\n%s", lang, frame)
		}
	}
}
