package ui

import (
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tapis/game/lottery"
)

// frameLines returns the lines from..to (excluded) of what the terminal
// shows.
func frameLines(m *Model, from, to int) []string {
	return strings.Split(plain(m), "\n")[from:to]
}

// rulesView is the rules' text in view: the body under its blank first
// line, above the keys' help.
func rulesView(m *Model) []string { return frameLines(m, 2, m.height-1) }

// wheel turns the mouse wheel a notch over the middle of the window.
func wheel(m *Model, b tea.MouseButton) {
	send(m, tea.MouseWheelMsg{X: m.width / 2, Y: m.height / 2, Button: b})
}

// readRules reads the whole text of the rules on show, by going to its top
// (home) and scrolling a line at a time (↓) until nothing moves; each ↓
// must move it by exactly one line. It leaves the rules at their end.
func readRules(t *testing.T, m *Model) []string {
	t.Helper()
	press(m, "home")
	all := slices.Clone(rulesView(m))
	for prev := all; ; {
		press(m, "down")
		v := rulesView(m)
		if slices.Equal(v, prev) {
			return all
		}
		if !slices.Equal(v[:len(v)-1], prev[1:]) {
			t.Fatalf("↓ did not scroll by one line:\n%s", plain(m))
		}
		all, prev = append(all, v[len(v)-1]), v
	}
}

// TestRulesScroll checks that PgDn, PgUp, End, Home and the wheel move the
// rules as ↓ does, a page, to either end or three lines at a time, in both
// languages and both sizes; that the Yam's rules end with the commitment of
// the last stake's block; and that rules that fit do not move, nor offer to.
func TestRulesScroll(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			name := string(lang) + " " + sizeName(s)
			m := newModel(t, lang, MenuScreen, s[0], s[1])
			press(m, "4")
			top := plain(m)
			all := readRules(t, m)
			rows := m.height - 3
			if len(all) <= rows {
				t.Fatalf("%s: the Yam's rules fit in %d lines: nothing to scroll", name, rows)
			}
			at := func(what string, from int) {
				t.Helper()
				if got := rulesView(m); !slices.Equal(got, all[from:from+rows]) {
					t.Errorf("%s: %s does not show the rules from line %d:\n%s", name, what, from, plain(m))
				}
			}
			last := len(all) - rows
			press(m, "home")
			at("home", 0)
			if plain(m) != top {
				t.Errorf("%s: home does not come back to the rules as opened:\n%s", name, plain(m))
			}
			press(m, "pgdown")
			at("pgdown", min(rows, last))
			press(m, "pgdown")
			at("pgdown twice", min(2*rows, last))
			press(m, "end")
			at("end", last)
			press(m, "pgup")
			at("pgup from the end", max(0, last-rows))
			press(m, "home")
			wheel(m, tea.MouseWheelDown)
			at("the wheel down", min(wheelStep, last))
			wheel(m, tea.MouseWheelDown)
			at("the wheel down twice", min(2*wheelStep, last))
			wheel(m, tea.MouseWheelUp)
			at("the wheel up", min(wheelStep, last))
			press(m, "j")
			at("j", min(wheelStep+1, last))
			press(m, "k", "k")
			at("k", min(wheelStep-1, last))

			// The end is the commitment of the Yam's last stake's block.
			g := lottery.Yams()
			b, err := m.Session().Block(g, g.Stakes[len(g.Stakes)-1])
			if err != nil {
				t.Fatal(err)
			}
			commit := hex.EncodeToString(b.Commitment[:])
			press(m, "end")
			if !strings.Contains(plain(m), commit) || strings.Contains(top, commit) {
				t.Errorf("%s: the last commitment is not shown at the end only:\n%s", name, plain(m))
			}
			if !strings.Contains(lastLine(m), "pgup/pgdn") {
				t.Errorf("%s: the keys' help does not offer to page: %s", name, lastLine(m))
			}

			// The other game starts from its top.
			press(m, "tab")
			if !strings.Contains(rulesView(m)[0], "« Vegas »") {
				t.Errorf("%s: tab does not show the Vegas rules from their top:\n%s", name, plain(m))
			}
			vegas := readRules(t, m)
			press(m, "home")
			if len(vegas) <= rows {
				// All of it shows: nothing moves, nothing is offered.
				before := plain(m)
				press(m, "pgdown", "end")
				wheel(m, tea.MouseWheelDown)
				if plain(m) != before {
					t.Errorf("%s: rules that fit moved:\n%s", name, plain(m))
				}
				if strings.Contains(lastLine(m), "pgup") {
					t.Errorf("%s: rules that fit offer to page: %s", name, lastLine(m))
				}
			}
		}
	}
}

// historyRows returns, for each row of the history in view, the purchase
// number it shows.
func historyRows(t *testing.T, m *Model) []int {
	t.Helper()
	var seqs []int
	for _, l := range frameLines(m, 3, m.height-3) {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			t.Fatalf("a history row without its number: %q", l)
		}
		seqs = append(seqs, n)
	}
	return seqs
}

// chosen returns the history row the cursor is on, newest first, by
// showing its unit again (enter) and reading whose it is, then closing it.
func chosen(t *testing.T, m *Model) int {
	t.Helper()
	press(m, "enter")
	frame := plain(m)
	press(m, "esc")
	for i, op := range m.Recent() {
		if strings.Contains(frame, op.Unit+"  ") { // the replay's caption, on its result's line
			return i
		}
	}
	t.Fatalf("enter does not show a unit again:\n%s", frame)
	return 0
}

// TestHistoryScroll checks that in a history longer than the window ↑↓
// move the cursor (the list following as little as it takes), PgDn and
// PgUp a page, End and Home to the oldest and the newest unit, and the
// wheel three rows, the list scrolling with the cursor: in both languages
// and both sizes.
func TestHistoryScroll(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			name := string(lang) + " " + sizeName(s)
			m := newModel(t, lang, YamsScreen, s[0], s[1])
			rows := m.height - 6 // under the header, the titles and above the hint, the keys
			n := 2*rows + 5
			for range n {
				press(m, "a")
				settle(m)
			}
			press(m, "h")
			recent := m.Recent()
			if len(recent) != n {
				t.Fatalf("%s: %d units in the history, want %d", name, len(recent), n)
			}
			at := func(what string, first, cursor int) {
				t.Helper()
				var want []int
				for _, op := range recent[first : first+rows] {
					want = append(want, op.Seq)
				}
				if got := historyRows(t, m); !slices.Equal(got, want) {
					t.Errorf("%s: %s shows the rows of purchases %v, want %v:\n%s", name, what, got, want, plain(m))
				}
				if got := chosen(t, m); got != cursor {
					t.Errorf("%s: after %s the cursor is on row %d, want %d", name, what, got, cursor)
				}
			}
			at("opening", 0, 0)
			if !strings.Contains(lastLine(m), "pgup/pgdn") {
				t.Errorf("%s: the keys' help does not offer to page: %s", name, lastLine(m))
			}
			for range rows - 1 {
				press(m, "down")
			}
			at("↓ to the last row in view", 0, rows-1)
			press(m, "down")
			at("↓ past it", 1, rows)
			press(m, "home", "pgdown")
			at("pgdown", rows, rows)
			press(m, "pgdown")
			at("pgdown to the end of the list", n-rows, 2*rows)
			press(m, "pgdown")
			at("pgdown at the end", n-rows, n-1)
			press(m, "end")
			at("end", n-rows, n-1)
			press(m, "pgup")
			at("pgup", n-2*rows, n-1-rows)
			press(m, "home")
			at("home", 0, 0)
			press(m, "pgup")
			at("pgup at the top", 0, 0)
			wheel(m, tea.MouseWheelDown)
			at("the wheel down", wheelStep, wheelStep)
			wheel(m, tea.MouseWheelDown)
			at("the wheel down twice", 2*wheelStep, 2*wheelStep)
			wheel(m, tea.MouseWheelUp)
			at("the wheel up", wheelStep, wheelStep)
			press(m, "end")
			wheel(m, tea.MouseWheelDown)
			at("the wheel at the end", n-rows, n-1)
			press(m, "pgup", "pgup", "pgup")
			at("pgup to the top", 0, 0)

			// The help tells what the keys and the wheel do here.
			press(m, "?")
			for _, want := range []string{"pgup/pgdn", "home/end", map[Lang]string{French: "molette", English: "wheel"}[lang]} {
				if !strings.Contains(strings.Join(strings.Fields(plain(m)), " "), want) {
					t.Errorf("%s: the history's help does not mention %q:\n%s", name, want, plain(m))
				}
			}
		}
	}
}

// TestHelpScroll checks that a help that fits does not move under the
// scrolling keys and the wheel, and says the rules scroll with the wheel,
// in both languages and both sizes.
func TestHelpScroll(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			name := string(lang) + " " + sizeName(s)
			m := newModel(t, lang, MenuScreen, s[0], s[1])
			press(m, "4", "?")
			before := plain(m)
			for _, want := range []string{"pgup/pgdn", "home/end", map[Lang]string{French: "molette", English: "wheel"}[lang]} {
				if !strings.Contains(before, want) {
					t.Errorf("%s: the rules' help does not mention %q:\n%s", name, want, before)
				}
			}
			press(m, "pgdown", "end", "down")
			wheel(m, tea.MouseWheelDown)
			if plain(m) != before {
				t.Errorf("%s: a help that fits moved:\n%s", name, plain(m))
			}
			if strings.Contains(lastLine(m), "pgup") {
				t.Errorf("%s: a help that fits offers to page: %s", name, lastLine(m))
			}
		}
	}
}

// TestHelpScrollsWhenTall gives the help screen the keys of a screen with
// more keys than the window has lines (no screen has that many today), and
// checks that PgDn, End, Home and the wheel scroll it, at both sizes.
func TestHelpScrollsWhenTall(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			name := string(lang) + " " + sizeName(s)
			m := newModel(t, lang, MenuScreen, s[0], s[1])
			var many []key.Binding
			for i := range 60 {
				k := "key" + strconv.Itoa(i)
				many = append(many, key.NewBinding(key.WithKeys(k), key.WithHelp(k, "does "+strconv.Itoa(i))))
			}
			h := &helpScreen{common: m.common, keysOf: func(Screen) keyMap { return keyMap{full: [][]key.Binding{many}} }}
			view := func() string {
				return ansi.Strip(paint(m.width, m.height, h.layers(m.body())))
			}
			shows := func(what string, want, not string) {
				t.Helper()
				if v := view(); !strings.Contains(v, want+" ") || strings.Contains(v, not+" ") {
					t.Errorf("%s: %s shows no %s, or %s:\n%s", name, what, want, not, v)
				}
			}
			rows := m.height - 3 // the help's lines in view
			shows("the help as opened", "key0", "key"+strconv.Itoa(rows))
			h.update(keyMsg("pgdown"))
			shows("pgdown", "key"+strconv.Itoa(rows-2), "key0") // under its title and a blank line
			h.update(keyMsg("end"))
			shows("end", "key59", "key"+strconv.Itoa(58-rows))
			h.update(keyMsg("home"))
			shows("home", "key0", "key59")
			h.update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
			shows("the wheel", "key"+strconv.Itoa(wheelStep-2), "key0")
			if !h.keyMap().ShortHelp()[0].Enabled() {
				t.Errorf("%s: a help taller than the window does not offer to scroll", name)
			}
		}
	}
}
