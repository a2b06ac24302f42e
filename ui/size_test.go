package ui

import (
	"strings"
	"testing"
)

// TestTicketGrowsWithTheWindow: at 120×40 the ticket's surfaces are the
// larger ones (54 cells by 12, cards of seven cells by five), at 80×24,
// 115 columns or 30 rows the regular ones; a press in the middle of a
// larger surface scratches the coating's cell under it.
func TestTicketGrowsWithTheWindow(t *testing.T) {
	for _, size := range []struct {
		w, h  int
		large bool
	}{{80, 24, false}, {115, 40, false}, {120, 30, false}, {120, 40, true}, {200, 60, true}} {
		m := newModel(t, English, VegasScreen, size.w, size.h)
		press(m, "enter")
		b := bounds(t, m, "surface:0")
		want := regularSurface
		if size.large {
			want = largeSurface
		}
		if b.Dx() != want.boxW() || b.Dy() != want.boxH() {
			t.Errorf("%d×%d: a surface is %d×%d, want %d×%d", size.w, size.h, b.Dx(), b.Dy(), want.boxW(), want.boxH())
		}
		x, y := find(t, m, "surface:0")
		click(m, x, y)
		s := m.screens[VegasScreen].(*vegasScreen)
		cx, cy := want.coatAt(x-b.Min.X-1, y-b.Min.Y-1)
		if s.coats[0].covered[cy*surfaceW+cx] {
			t.Errorf("%d×%d: a press at %d,%d left the coating's cell %d,%d covered", size.w, size.h, x, y, cx, cy)
		}
		press(m, "a")
		settle(m)
		frame := plain(m)
		if got := strings.Contains(frame, "╭─────╮"); got != size.large {
			t.Errorf("%d×%d: larger cards %v, want %v:\n%s", size.w, size.h, got, size.large, frame)
		}
	}
}
