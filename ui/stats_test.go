package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

// TestStatsScreen opens the stats with s and from the menu (5): empty
// before a unit is shown, then the balance chart, the lots of each game and
// stake played (tab moves between them) and the return, counted from the
// units shown only.
func TestStatsScreen(t *testing.T) {
	for _, size := range windows {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := newModel(t, English, MenuScreen, w, h)
			press(m, "5")
			if title(m) != "· Stats" || !strings.Contains(plain(m), "No unit shown yet") {
				t.Fatalf("5 in the menu:\n%s", plain(m))
			}
			press(m, "esc", "1")
			for range 4 {
				press(m, "a")
				settle(m)
			}
			press(m, "enter") // bought, not shown: not counted
			press(m, "s")
			s := plain(m)
			if !strings.Contains(s, "This session: 4 units · staked €4.00") || !strings.Contains(s, "Yam's! at €1.00 · 4 units (1/1)") {
				t.Fatalf("the stats after 4 units shown:\n%s", s)
			}
			// Each lot's count, as the history has them.
			losing := 0
			for _, op := range m.Recent()[1:] {
				if op.Prize.IsZero() {
					losing++
				}
			}
			if !strings.Contains(s, fmt.Sprintf(" %d · %s", losing, m.percent(decimal.NewFromInt(int64(losing)).Div(decimal.NewFromInt(4))))) {
				t.Errorf("the losing lot does not count %d units:\n%s", losing, s)
			}
			for i, line := range strings.Split(s, "\n") {
				if ansi.StringWidth(line) > w {
					t.Errorf("line %d is %d cells wide", i, ansi.StringWidth(line))
				}
			}
			press(m, "esc") // back to Yam's
			settle(m)
			press(m, "1", "2", "3")
			settle(m)
			press(m, "esc", "2", "a")
			settle(m)
			press(m, "s")
			if !strings.Contains(plain(m), "(1/2)") || !strings.Contains(plain(m), "This session: 6 units") {
				t.Fatalf("two sequences:\n%s", plain(m))
			}
			press(m, "tab")
			if !strings.Contains(plain(m), "Vegas at €3.00 · 1 unit (2/2)") {
				t.Fatalf("tab does not show the other sequence:\n%s", plain(m))
			}
			press(m, "esc")
			if m.Screen() != VegasScreen {
				t.Errorf("esc from the stats went to %d", m.Screen())
			}
		})
	}
}

// TestStatsFrame prints the stats at 80x24 after a few units (go test -run
// TestStatsFrame -v shows it).
func TestStatsFrame(t *testing.T) {
	m := newModel(t, French, YamsScreen, 80, 24)
	for range 7 {
		press(m, "a")
		settle(m)
	}
	press(m, "s")
	golden(t, "stats_fr_80x24", plain(m))
}

// TestStatsAfterTakeUp: units of an earlier run, paid and never shown,
// are counted once shown, and the balance series starts from the balance
// the header showed when the game opened (their stakes paid, their prizes
// not shown): it agrees with the header at every point.
func TestStatsAfterTakeUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	m := journaled(t, path)
	press(m, "enter", "esc", "2", "enter") // a unit of each game, covered
	m.Close()
	m = journaled(t, path)
	opened, _ := headerMoney(t, m)
	press(m, "a")
	settle(m)
	afterYams, _ := headerMoney(t, m)
	press(m, "esc", "2", "a")
	settle(m)
	afterTicket, _ := headerMoney(t, m)
	got := m.Figures().Balance()
	if len(got) != 3 || !got[0].Equal(opened) || !got[1].Equal(afterYams) || !got[2].Equal(afterTicket) {
		t.Errorf("the stats' balances %v, the header's %s, %s, %s", got, opened, afterYams, afterTicket)
	}
	if n := m.Figures().Total().Units; n != 2 {
		t.Errorf("%d units counted, want 2", n)
	}
}
