package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game/vegas"
)

// The helpers here test the game as a person plays it: they read the frame
// as the terminal shows it, find a label by its text, and click the middle
// of it, wherever the code thinks it put it.

// windows are the windows every clickable thing is tried in.
var windows = [][2]int{{80, 24}, {100, 30}, {120, 40}}

// labelsAt returns the cell in the middle of each place label is drawn, in
// reading order.
func labelsAt(m *Model, label string) [][2]int {
	var at [][2]int
	for y, line := range strings.Split(plain(m), "\n") {
		for from := 0; ; {
			i := strings.Index(line[from:], label)
			if i < 0 {
				break
			}
			x := ansi.StringWidth(line[:from+i]) + ansi.StringWidth(label)/2
			at = append(at, [2]int{x, y})
			from += i + len(label)
		}
	}
	return at
}

// clickLabel clicks the middle of the n-th place (from 0) label is drawn.
func clickLabel(t *testing.T, m *Model, label string, n int) tea.Cmd {
	t.Helper()
	at := labelsAt(m, label)
	if len(at) <= n {
		t.Fatalf("%q is drawn %d times, not %d, at %d×%d:\n%s", label, len(at), n+1, m.width, m.height, plain(m))
	}
	return click(m, at[n][0], at[n][1])
}

// quits reports whether a command quits the program.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// title returns the screen's title in the header.
func title(m *Model) string {
	head := strings.SplitN(plain(m), "\n", 2)[0]
	_, rest, _ := strings.Cut(head, "tapis ")
	before, _, _ := strings.Cut(rest, "   ")
	return strings.TrimSpace(before)
}

// TestClickWhereDrawn finds every clickable label of every screen in the
// frame as drawn, at several windows and in both languages, clicks its
// middle, and checks that it does what the label says.
func TestClickWhereDrawn(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		for _, size := range windows {
			w, h := size[0], size[1]
			t.Run(fmt.Sprintf("%s_%dx%d", lang, w, h), func(t *testing.T) {
				tx := newText(lang)
				// The menu: each entry opens its screen; Quit quits.
				for i, item := range []string{"yams", "vegas", "history", "rules", "stats", "quit"} {
					m := newModel(t, lang, MenuScreen, w, h)
					cmd := clickLabel(t, m, fmt.Sprintf("%d  %s", i+1, tx.get(item)), 0)
					if item == "quit" {
						if !quits(cmd) {
							t.Errorf("a click on %q does not quit", tx.get(item))
						}
						continue
					}
					if quits(cmd) || title(m) != "· "+tx.get(item) {
						t.Errorf("a click on %q opened %q", tx.get(item), title(m))
					}
				}
				// What is not an entry opens nothing: the caption, the logo.
				m := newModel(t, lang, MenuScreen, w, h)
				for _, label := range []string{tx.get("menu.hint"), "┣━┫"} {
					if cmd := clickLabel(t, m, label, 0); quits(cmd) || title(m) != "" {
						t.Errorf("a click on %q opened %q", label, title(m))
					}
				}
				// Yam's: each stake chip, Play, each cup, Auto.
				m = newModel(t, lang, YamsScreen, w, h)
				for _, stake := range []string{"0.50", "2.00", "1.00"} {
					chip := tx.money(mustAmount(stake))
					clickLabel(t, m, chip, 0)
					if len(labelsAt(m, "["+chip+"]")) != 1 {
						t.Errorf("a click on %s did not choose it:\n%s", chip, plain(m))
					}
				}
				clickLabel(t, m, tx.get("play"), 0)
				if m.Totals().Played != 1 {
					t.Fatalf("a click on %q bought %d units", tx.get("play"), m.Totals().Played)
				}
				for i, cup := range []int{2, 1, 3} {
					clickLabel(t, m, tx.f("mat", cup), 0)
					settle(m)
					if n := len(labelsAt(m, " pts")); n != i+1 {
						t.Fatalf("after a click on %q, %d cups show their points:\n%s", tx.f("mat", cup), n, plain(m))
					}
				}
				clickLabel(t, m, tx.get("auto"), 0)
				settle(m)
				if m.Totals().Played != 2 || m.Revealing() {
					t.Errorf("a click on Auto: %d played, revealing %v", m.Totals().Played, m.Revealing())
				}
				// Vegas: the buy button, then each surface where it says
				// to scratch it.
				m = newModel(t, lang, VegasScreen, w, h)
				clickLabel(t, m, tx.f("v.buy", tx.money(mustAmount("3"))), 0)
				here := tx.get("v.scratchhere")
				if m.Totals().Played != 1 || len(labelsAt(m, here)) != 4 {
					t.Fatalf("a click on the buy button: %d played:\n%s", m.Totals().Played, plain(m))
				}
				for n := 3; n >= 0; n-- {
					clickLabel(t, m, here, n) // the last first: the others stay where they are
					if got := len(labelsAt(m, here)); got != n {
						t.Fatalf("a click on surface %d's %q left %d surfaces untouched:\n%s", n+1, here, got, plain(m))
					}
					name := tx.get("s." + vegas.Surface(n).String())
					if len(labelsAt(m, fmt.Sprintf("┏━ %d · %s", n+1, name))) != 1 {
						t.Fatalf("a click on surface %d did not choose it:\n%s", n+1, plain(m))
					}
				}
				// History: a click on a unit's row shows it again.
				m = newModel(t, lang, YamsScreen, w, h)
				press(m, "a")
				settle(m)
				press(m, "a")
				settle(m)
				press(m, "h")
				x, y := find(t, m, "hist:1") // the row of yams:1:1:1, the older
				click(m, x, y)
				if len(labelsAt(m, tx.get("replay"))) != 1 || len(labelsAt(m, "yams:1:1:1")) != 1 {
					t.Errorf("a click on yams:1:1:1 in the history does not show it again:\n%s", plain(m))
				}
			})
		}
	}
}

func mustAmount(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		panic(err)
	}
	return d
}
