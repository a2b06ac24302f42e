package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The game played by mouse alone (issue 25): each click is on a cell
// where the frame, as the terminal shows it, draws what is clicked.

// coatedCell returns a cell the frame draws as a surface's coating, if
// any is left on screen.
func coatedCell(m *Model) (int, int, bool) {
	for y, line := range strings.Split(plain(m), "\n") {
		x := 0
		for _, r := range line {
			if r == '░' || r == '▒' {
				return x, y, true
			}
			x += ansi.StringWidth(string(r))
		}
	}
	return 0, 0, false
}

// scratchByMouse clicks on the coating where it is drawn until none is
// left on screen.
func scratchByMouse(t *testing.T, m *Model) {
	t.Helper()
	for range 2000 {
		x, y, ok := coatedCell(m)
		if !ok {
			return
		}
		click(m, x, y)
		send(m, releaseMsg{})
	}
	t.Fatalf("the coating does not come off by clicks:\n%s", plain(m))
}

// TestVegasNextTicketByMouse checks that once a ticket is scratched, a
// button beside its result buys the next one (defect 1: it was drawn only
// before the first sale), in both languages and every window.
func TestVegasNextTicketByMouse(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		for _, size := range windows {
			m := newModel(t, lang, VegasScreen, size[0], size[1])
			tx := newText(lang)
			clickLabel(t, m, tx.f("v.buy", tx.money(mustAmount("3"))), 0)
			for n := 1; n <= 3; n++ {
				if m.Totals().Played != n {
					t.Fatalf("%s %v: %d tickets bought, not %d:\n%s", lang, size, m.Totals().Played, n, plain(m))
				}
				scratchByMouse(t, m)
				if m.Revealing() {
					t.Fatalf("the ticket is still being revealed:\n%s", plain(m))
				}
				clickLabel(t, m, tx.f("v.again", tx.money(mustAmount("3"))), 0)
			}
		}
	}
}
