package ui

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tapis/game/lottery"
	"tapis/game/vegas"
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

// clickTo clicks the middle of label, where the frame draws it, and
// checks the screen it leads to by its title in the header.
func clickTo(t *testing.T, m *Model, label, wantTitle string) tea.Cmd {
	t.Helper()
	cmd := clickLabel(t, m, label, 0)
	if got := title(m); got != wantTitle {
		t.Fatalf("a click on %q shows %q, not %q:\n%s", label, got, wantTitle, plain(m))
	}
	return cmd
}

// TestWholeGameByMouse plays both games from the menu to Quit with the
// mouse alone, every click in the middle of a label where the frame draws
// it: ten units of Yam's (Play and each cup, or Auto), ten Vegas tickets
// (the buy button, the coating clicked off, the next ticket's button),
// then every screen's Back: a game's, the history's and a unit shown
// again, the rules' (and their other game), the stats' (and their other
// game and stake), and tapis replay's buttons.
func TestWholeGameByMouse(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		for _, size := range [][2]int{{80, 24}, {100, 30}} {
			tx := newText(lang)
			entry := func(i int, k string) string { return strconv.Itoa(i) + "  " + tx.get(k) }
			back, menu := tx.get("b.back"), tx.get("b.menu")
			m := newModel(t, lang, MenuScreen, size[0], size[1])

			clickTo(t, m, entry(1, "yams"), "· "+tx.get("yams"))
			for n := 1; n <= 10; n++ {
				if n%2 == 1 {
					clickLabel(t, m, tx.get("play"), 0)
					for _, cup := range []int{3, 1, 2} {
						clickLabel(t, m, tx.f("mat", cup), 0)
						settle(m)
					}
				} else {
					clickLabel(t, m, tx.get("auto"), 0)
					settle(m)
				}
				if m.Totals().Played != n || m.Revealing() {
					t.Fatalf("%s %v: Yam's unit %d: %d bought, revealing %v:\n%s", lang, size, n, m.Totals().Played, m.Revealing(), plain(m))
				}
			}
			clickTo(t, m, menu, "")

			clickTo(t, m, entry(2, "vegas"), "· "+tx.get("vegas"))
			clickLabel(t, m, tx.f("v.buy", tx.money(mustAmount("3"))), 0)
			for n := 1; n <= 10; n++ {
				scratchByMouse(t, m)
				if m.Totals().Played != 10+n || m.Revealing() {
					t.Fatalf("%s %v: ticket %d: %d bought, revealing %v:\n%s", lang, size, n, m.Totals().Played, m.Revealing(), plain(m))
				}
				if n < 10 {
					clickLabel(t, m, tx.f("v.again", tx.money(mustAmount("3"))), 0)
				}
			}
			clickTo(t, m, menu, "")

			// The history, a unit shown again, and Back from each.
			clickTo(t, m, entry(3, "history"), "· "+tx.get("history"))
			clickHistoryRow(t, m, 20) // the newest: the tenth ticket
			if len(labelsAt(m, tx.get("replay"))) != 1 {
				t.Fatalf("a click on a row does not show it again:\n%s", plain(m))
			}
			clickTo(t, m, back, "· "+tx.get("history"))
			if len(labelsAt(m, tx.get("replay"))) != 0 || len(labelsAt(m, tx.get("hist.reached"))) != 1 {
				t.Fatalf("Back from a unit shown again is not the list:\n%s", plain(m))
			}
			clickTo(t, m, back, "")

			// The rules of both games.
			clickTo(t, m, entry(4, "rules"), "· "+tx.get("rules"))
			clickLabel(t, m, tx.get("b.rules.vegas"), 0)
			if len(labelsAt(m, "« Vegas »")) != 1 {
				t.Fatalf("⇄ Vegas does not show the Vegas rules:\n%s", plain(m))
			}
			clickLabel(t, m, tx.get("b.rules.yams"), 0)
			clickTo(t, m, back, "")

			// The stats of each game and stake played.
			clickTo(t, m, entry(5, "stats"), "· "+tx.get("stats"))
			for _, want := range []string{"(2/2)", "(1/2)"} {
				clickLabel(t, m, tx.get(map[string]string{"(2/2)": "b.next", "(1/2)": "b.prev"}[want]), 0)
				if len(labelsAt(m, want)) != 1 {
					t.Fatalf("the stats' buttons do not show %s:\n%s", want, plain(m))
				}
			}
			clickTo(t, m, back, "")

			if !quits(clickLabel(t, m, entry(6, "quit"), 0)) {
				t.Fatalf("a click on Quit does not quit")
			}
		}
	}
}

// TestReplayByMouse goes through tapis replay's layouts and quits it
// with the bottom line's buttons.
func TestReplayByMouse(t *testing.T) {
	input := `{"game":"yams","stake":"2","cups":[[1,2,3,4,5],[4,4,4,2,2],[6,6,1,2,3]]}
{"game":"yams","stake":"1","cups":[[1,1,1,1,1],[4,4,4,2,2],[6,6,1,2,3]]}
`
	var entries []lottery.Entry
	lottery.Read(strings.NewReader(input), func(e lottery.Entry) { entries = append(entries, e) })
	for _, lang := range []Lang{English, French} {
		tx := newText(lang)
		m := mustReplay(t, entries, lang, 0, false)
		send(m, sizeMsg(80, 24))
		for _, c := range []struct{ button, at string }{{"b.next", " 2/2"}, {"b.next", " 2/2"}, {"b.prev", " 1/2"}} {
			clickLabel(t, m, tx.get(c.button), 0)
			if head := strings.SplitN(plain(m), "\n", 2)[0]; !strings.HasSuffix(head, c.at) {
				t.Fatalf("after %s: %q", tx.get(c.button), head)
			}
		}
		if !quits(clickLabel(t, m, tx.get("b.quit"), 0)) {
			t.Error("a click on Quit does not quit tapis replay")
		}
	}
}

// TestVegasPreviewByMouse checks the Vegas screen before a purchase shows, as
// Yam's shows its tables, the ticket's four surfaces and its lot table,
// above the button, which alone is clickable (issue 25, point 13).
func TestVegasPreviewByMouse(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		for _, size := range windows {
			tx := newText(lang)
			m := newModel(t, lang, VegasScreen, size[0], size[1])
			for f := range 4 {
				if len(labelsAt(m, tx.get(surfaceKeys[f]))) != 1 {
					t.Errorf("%s %v: the preview has no %s:\n%s", lang, size, tx.get(surfaceKeys[f]), plain(m))
				}
			}
			if len(labelsAt(m, m.euros(vegas.Price()))) == 0 || !strings.Contains(plain(m), m.t.f("v.pre.lots", m.euros(vegas.Price()))) {
				t.Errorf("%s %v: no lot table:\n%s", lang, size, plain(m))
			}
			clickLabel(t, m, tx.get(surfaceKeys[0]), 0) // the preview buys nothing
			if m.Totals().Played != 0 {
				t.Fatalf("a click on the preview bought a ticket")
			}
			clickLabel(t, m, tx.f("v.buy", tx.money(mustAmount("3"))), 0)
			if m.Totals().Played != 1 || len(labelsAt(m, tx.get("v.scratchhere"))) != 4 {
				t.Errorf("%s %v: the button does not buy the ticket:\n%s", lang, size, plain(m))
			}
		}
	}
}

// clickHistoryRow clicks the middle of the history's row of the unit
// bought seq-th, found where it is drawn: the row that starts with its
// number.
func clickHistoryRow(t *testing.T, m *Model, seq int) {
	t.Helper()
	for y, l := range strings.Split(plain(m), "\n") {
		if y > 0 && strings.HasPrefix(strings.TrimLeft(l, " ▸"), strconv.Itoa(seq)+" ") {
			click(m, ansi.StringWidth(l)/2, y)
			return
		}
	}
	t.Fatalf("no history row of unit %d:\n%s", seq, plain(m))
}
