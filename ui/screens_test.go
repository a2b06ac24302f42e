package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// sizes are the two sizes every screen is checked at.
var sizes = [][2]int{{80, 24}, {120, 40}}

func sizeName(s [2]int) string { return fmt.Sprintf("%dx%d", s[0], s[1]) }

func TestMenuScreen(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			m := newModel(t, lang, MenuScreen, s[0], s[1])
			golden(t, "menu_"+string(lang)+"_"+sizeName(s), plain(m))
		}
	}
}

// TestYamsUnit plays a unit with Jouer and checks the screen before the
// purchase, after it, and after each cup is rolled.
func TestYamsUnit(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			name := "yams_" + string(lang) + "_" + sizeName(s)
			m := newModel(t, lang, YamsScreen, s[0], s[1])
			golden(t, name+"_0_idle", plain(m))
			press(m, "enter")
			golden(t, name+"_1_bought", plain(m))
			for i, cup := range []string{"2", "1", "3"} {
				press(m, cup)
				settle(m)
				golden(t, fmt.Sprintf("%s_%d_cup%s", name, i+2, cup), plain(m))
			}
			if m.Revealing() {
				t.Fatal("the unit is still being revealed after three rolls")
			}
		}
	}
}

// TestVegasTicket scratches a ticket: covered, half scratched, uncovered.
func TestVegasTicket(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			name := "vegas_" + string(lang) + "_" + sizeName(s)
			m := newModel(t, lang, VegasScreen, s[0], s[1])
			golden(t, name+"_0_idle", plain(m))
			press(m, "enter")
			golden(t, name+"_1_covered", plain(m))
			press(m, "space", "3", "space", "space", "space", "space", "space")
			golden(t, name+"_2_half", plain(m))
			press(m, "a")
			settle(m)
			golden(t, name+"_3_uncovered", plain(m))
		}
	}
}

func TestHistoryScreen(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		m := newModel(t, lang, YamsScreen, 80, 24)
		golden(t, "history_"+string(lang)+"_empty", func() string { press(m, "h"); return plain(m) }())
		press(m, "esc", "1")
		for range 3 {
			press(m, "a")
			settle(m)
		}
		press(m, "esc", "2", "enter", "a")
		settle(m)
		press(m, "h")
		golden(t, "history_"+string(lang), plain(m))
		press(m, "down", "enter")
		golden(t, "history_"+string(lang)+"_replay_yams", plain(m))
		press(m, "esc", "up", "enter")
		golden(t, "history_"+string(lang)+"_replay_vegas", plain(m))
		if !strings.Contains(plain(m), map[Lang]string{French: "REVOIR", English: "REPLAY"}[lang]) {
			t.Error("a replay is not marked")
		}
	}
}

func TestRulesScreen(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			m := newModel(t, lang, MenuScreen, s[0], s[1])
			press(m, "4")
			golden(t, "rules_"+string(lang)+"_"+sizeName(s)+"_yams", plain(m))
			press(m, "tab")
			golden(t, "rules_"+string(lang)+"_"+sizeName(s)+"_vegas", plain(m))
		}
	}
}

func TestHelpScreen(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		m := newModel(t, lang, YamsScreen, 80, 24)
		press(m, "?")
		golden(t, "help_"+string(lang)+"_yams", plain(m))
		press(m, "?")
		if m.Screen() != YamsScreen {
			t.Error("? does not close the help")
		}
	}
}

// TestTooSmall checks the message below 80×24, and that the game comes back
// when the window grows.
func TestTooSmall(t *testing.T) {
	for _, lang := range []Lang{French, English} {
		m := newModel(t, lang, YamsScreen, 60, 20)
		golden(t, "small_"+string(lang), plain(m))
		send(m, sizeMsg(80, 24))
		if !strings.Contains(plain(m), "Yam's") || strings.Contains(plain(m), "×") {
			t.Errorf("the game did not come back at 80×24:\n%s", plain(m))
		}
	}
}

// TestRemoteHelpOffersNoSuspend: over SSH ctrl+z cannot suspend the
// server's program (the server resumes it at once), so the help does not
// offer it there; on a terminal of one's own it does (a stand host found
// « ctrl+z suspend » listed over SSH, doing nothing).
func TestRemoteHelpOffersNoSuspend(t *testing.T) {
	for _, remote := range []bool{false, true} {
		m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen, Remote: remote}, 120, 40,
			session.Options{Seed: game.SeedFrom(42)})
		press(m, "?")
		if got := strings.Contains(plain(m), "ctrl+z"); got == remote {
			t.Errorf("remote %v: the help lists ctrl+z %v, want %v:\n%s", remote, got, !remote, plain(m))
		}
	}
}
