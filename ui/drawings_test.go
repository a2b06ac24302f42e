package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"tapis/game/vegas"
)

// TestRulesDrawSymbols: the Vegas rules draw each of the Jackpot's six
// symbols as the reels show them, its name under it, in both languages and
// at 80 columns too.
func TestRulesDrawSymbols(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		for _, w := range []int{76, 116} {
			m := newModel(t, lang, MenuScreen, w+4, 40)
			rs := m.screens[RulesScreen].(*rulesScreen)
			rs.vegas = true
			text := ansi.Strip(rs.content(w).String())
			for s := range vegas.Symbols {
				name := m.t.get(symbolKeys[s])
				at := strings.Index(text, name)
				if at < 0 {
					t.Fatalf("%s, %d wide: no %q in the rules:\n%s", lang, w, name, text)
				}
				for _, row := range m.ticketArt().symbols[s] {
					if !strings.Contains(text, row) {
						t.Errorf("%s, %d wide: the %s's drawing row %q is not in the rules", lang, w, name, row)
					}
				}
			}
		}
	}
}

// TestTicketDrawings: before it is scratched, the Roulette's coating shows
// its piles of chips labelled as the regulation names them (art. 4.2.1);
// once uncovered, each craps throw shows its two dice as die faces, and
// each reel its symbol's drawing.
func TestTicketDrawings(t *testing.T) {
	m := newModel(t, French, VegasScreen, 80, 24)
	press(m, "enter")
	frame := plain(m)
	for _, label := range []string{"Pair/Impair", "Rouge/Noir", "Manque/Passe", "Numéro"} {
		if !strings.Contains(frame, label) {
			t.Errorf("the covered Roulette does not say %q:\n%s", label, frame)
		}
	}
	press(m, "a")
	settle(m)
	frame = plain(m)
	tk := m.Showing("vegas").Layout.Vegas
	art := m.ticketArt()
	for i, th := range tk.Craps {
		for r := range 3 {
			row := art.dice[th.Dice[0]-1][r] + " " + art.dice[th.Dice[1]-1][r]
			if !strings.Contains(frame, row) {
				t.Errorf("throw %d (%v): no row %q of its die faces:\n%s", i+1, th.Dice, row, frame)
			}
		}
	}
	for r := range 2 {
		row := ""
		for _, s := range tk.Jackpot.Reels {
			row += "│" + stamp("########", art.symbols[s][r]) + "│"
		}
		if !strings.Contains(frame, row) {
			t.Errorf("the reels %v: no row %q:\n%s", tk.Jackpot.Reels, row, frame)
		}
	}
	if strings.Contains(frame, "Pair/Impair") {
		t.Errorf("the uncovered Roulette still shows its coating's labels:\n%s", frame)
	}
}
