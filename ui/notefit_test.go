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
