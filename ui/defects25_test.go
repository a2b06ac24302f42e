package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// The defects of issue 25, each tried where it showed.

// TestKioskFrenchHeader checks the kiosk's French header at 80 columns
// keeps « une touche pour jouer » (it fell back to the English DEMO), and
// that the result of a demo unit is marked DÉMO in French (defect 2).
func TestKioskFrenchHeader(t *testing.T) {
	c := newTestClock()
	m := open(t, Options{Lang: French, Balance: decimal.NewFromInt(20), Start: MenuScreen,
		Clock: c, Demo: true, Idle: time.Minute}, 80, 24, session.Options{Seed: game.SeedFrom(7)})
	run(m, m.Init())
	for range 2 {
		drive(t, m, 1)
		frame := plain(m)
		head := strings.SplitN(frame, "\n", 2)[0]
		if !strings.Contains(head, "DÉMO · une touche pour jouer") || !strings.Contains(head, "Solde") {
			t.Errorf("the French kiosk's header at 80 columns: %q", head)
		}
		if strings.Contains(frame, "DEMO") || !strings.Contains(strings.SplitN(frame, "\n", 2)[1], "DÉMO") {
			t.Errorf("the demo unit's mark is not French:\n%s", frame)
		}
	}
}
