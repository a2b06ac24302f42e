package ui

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/session"
)

// headerMoney reads the balance and the net result in the header.
func headerMoney(t *testing.T, m *Model) (balance, net decimal.Decimal) {
	t.Helper()
	head := strings.SplitN(plain(m), "\n", 2)[0]
	read := func(label string) decimal.Decimal {
		_, rest, ok := strings.Cut(head, label+" ")
		if !ok {
			t.Fatalf("no %q in the header %q", label, head)
		}
		word, _, _ := strings.Cut(rest, "   ")
		word = strings.NewReplacer("€", "", ",", "", "+", "").Replace(word)
		d, err := decimal.NewFromString(strings.TrimSpace(word))
		if err != nil {
			t.Fatalf("the header's %s %q: %v", label, word, err)
		}
		return d
	}
	return read("Balance"), read("Net")
}

// TestKeysBehindEnlarge: while the window is too small, keys and clicks
// change nothing and an animation under way waits; only quitting works.
func TestKeysBehindEnlarge(t *testing.T) {
	m := newModel(t, English, VegasScreen, 80, 24)
	send(m, sizeMsg(60, 20))
	press(m, "enter", "a", "space", "h", "?", "esc", "1", "tab")
	click(m, 30, 10)
	send(m, sizeMsg(80, 24))
	if m.Totals().Played != 0 || title(m) != "· Vegas" || !strings.Contains(plain(m), "Buy a ticket") {
		t.Fatalf("keys pressed behind the message changed the game: %d played:\n%s", m.Totals().Played, plain(m))
	}
	// A cup rolling when the window shrinks does not land unseen.
	m = newModel(t, English, YamsScreen, 80, 24)
	press(m, "enter", "1")
	send(m, sizeMsg(60, 20))
	settle(m) // the ticks come and wait
	send(m, sizeMsg(80, 24))
	if strings.Contains(plain(m), " pts") {
		t.Fatalf("the cup landed while the window was too small:\n%s", plain(m))
	}
	settle(m)
	if !strings.Contains(plain(m), " pts") {
		t.Fatalf("the cup did not land once the window was large again:\n%s", plain(m))
	}
	// Quitting works: q asks first, since a unit is being revealed.
	send(m, sizeMsg(60, 20))
	if quits(press(m, "q")) || !strings.Contains(plain(m), "q again to quit") {
		t.Fatalf("q did not ask:\n%s", plain(m))
	}
	if !quits(press(m, "q")) {
		t.Error("q twice did not quit behind the message")
	}
	// The question goes once the unit is seen to its end: its next q
	// quits at once, and the notice no longer says otherwise.
	m = newModel(t, English, YamsScreen, 80, 24)
	press(m, "a") // Auto: bought, its cups rolled one after another
	if quits(press(m, "q")) || !strings.Contains(plain(m), "q again to quit") {
		t.Fatalf("q did not ask during Auto:\n%s", plain(m))
	}
	settle(m)
	if !strings.Contains(plain(m), "Total:") || strings.Contains(plain(m), "q again to quit") {
		t.Errorf("the question stayed once the unit was seen:\n%s", plain(m))
	}
	if !quits(press(m, "q")) {
		t.Error("q after the unit was seen did not quit")
	}
	if !quits(press(m, "ctrl+c")) {
		t.Error("ctrl+c did not quit behind the message")
	}
}

// TestRefusalsSaid: a purchase the wallet cannot pay says why, with the
// balance and the price, in both games and at any moment; an empty wallet
// says what the player can do; a journal that cannot be written says so.
func TestRefusalsSaid(t *testing.T) {
	// Vegas with 3 €: one ticket, then nothing.
	m, err := newOn(Options{Lang: English, Balance: decimal.NewFromInt(3), Start: VegasScreen}, session.Options{Seed: game.SeedFrom(42)})
	if err != nil {
		t.Fatal(err)
	}
	send(m, sizeMsg(80, 24))
	press(m, "enter", "a")
	settle(m)
	before := plain(m)
	press(m, "enter")
	if m.Totals().Played != 1 {
		t.Fatalf("%d played", m.Totals().Played)
	}
	after := plain(m)
	if !strings.Contains(after, "Wallet empty (stakes from €0.50) · q: quit") || after != before {
		t.Errorf("the empty wallet says nothing:\n%s", after)
	}
	// Yam's with 0.30 €: below every stake.
	m, _ = newOn(Options{Lang: English, Balance: mustAmount("0.30"), Start: YamsScreen}, session.Options{Seed: game.SeedFrom(42)})
	send(m, sizeMsg(80, 24))
	if !strings.Contains(plain(m), "Balance €0.30, below the smallest stake (€0.50) · q: quit") {
		t.Errorf("a balance below every stake says nothing:\n%s", plain(m))
	}
	// Yam's at 1 € with 0.80 €: the stake is too high, a lower one is not.
	m, _ = newOn(Options{Lang: French, Balance: mustAmount("0.80"), Start: YamsScreen}, session.Options{Seed: game.SeedFrom(42)})
	send(m, sizeMsg(80, 24))
	if !strings.Contains(plain(m), "Solde 0,80 € insuffisant pour 1,00 € · ← : mise plus basse · q : quitter") {
		t.Errorf("the stake too high says nothing:\n%s", plain(m))
	}
	press(m, "enter")
	if m.Totals().Played != 0 {
		t.Fatal("bought beyond the balance")
	}
	press(m, "left", "enter")
	if m.Totals().Played != 1 {
		t.Fatal("the lower stake did not buy")
	}
	// Vegas with 2 €: the ticket costs more, Yam's costs less.
	m, _ = newOn(Options{Lang: English, Balance: decimal.NewFromInt(2), Start: VegasScreen}, session.Options{Seed: game.SeedFrom(42)})
	send(m, sizeMsg(80, 24))
	press(m, "enter")
	if !strings.Contains(plain(m), "Balance €2.00, a ticket costs €3.00 · esc then 1: Yam's from €0.50 · q: quit") {
		t.Errorf("the ticket too dear says nothing:\n%s", plain(m))
	}
	if foot := lastLine(m); strings.Contains(foot, "buy") || strings.Contains(foot, "scratch") {
		t.Errorf("the footer offers keys that buy nothing: %q", foot)
	}
	// A journal that cannot be written refuses the purchase, and says why.
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	m = journaled(t, path)
	fileLimit(t, path) // the disk is full
	press(m, "enter")
	if m.Totals().Played != 0 || !strings.Contains(plain(m), "Refused: the journal could not be written (file too large)") {
		t.Errorf("a journal that cannot be written: %d played:\n%s", m.Totals().Played, plain(m))
	}
}

// TestSurfacesFit draws every surface of tickets dealt for every split of
// the catalogue, and of tickets holding the largest amounts everywhere, in
// both languages: every piece fits its frame and stands apart from its
// neighbours, and every frame has the same width.
func TestSurfacesFit(t *testing.T) {
	r := newModel(t, English, VegasScreen, 80, 24).rng
	var tickets []vegas.Ticket
	for _, lot := range vegas.Table().Lots {
		for _, split := range vegas.Splits(lot.Prize.IntPart()) {
			var tk vegas.Ticket
			if !vegas.DealSplit(r, split, &tk) {
				t.Fatalf("split %v does not deal", split)
			}
			tickets = append(tickets, tk)
		}
	}
	for range 200 { // losing tickets
		var tk vegas.Ticket
		vegas.Deal(r, vegas.Table().Losing(), &tk)
		tickets = append(tickets, tk)
	}
	for _, a := range vegas.AmountSet() { // each amount everywhere
		tk := tickets[0]
		for k := range tk.Roulette.Amounts {
			tk.Roulette.Amounts[k] = game.Euros(a)
			tk.Roulette.Bets[k] = tk.Roulette.Result(vegas.Kind(k))
		}
		for i := range tk.Craps {
			tk.Craps[i].Amount, tk.Craps[i].Dice = game.Euros(a), [2]int{1, 6}
		}
		tickets = append(tickets, tk)
	}
	for _, lang := range []Lang{English, French} {
		m := newModel(t, lang, VegasScreen, 80, 24)
		for _, tk := range tickets {
			score := tk.Score()
			for _, z := range []ticketSize{regularSurface, largeSurface} {
				view := ticketView{ticket: &tk, size: z}
				for f := range int(vegas.Surfaces) {
					if p := m.surfaceGrid(&tk, vegas.Surface(f), &score, true, z).problems(); len(p) > 0 {
						t.Fatalf("%s, %s at %d×%d: %s", lang, vegas.Surface(f), z.w, z.h, strings.Join(p, "; "))
					}
					for i, row := range strings.Split(m.surface(&view, f, &score), "\n") {
						if w := ansi.StringWidth(row); w != z.w+2 {
							t.Fatalf("%s, %s: row %d is %d cells wide, not %d: %q", lang, vegas.Surface(f), i, w, z.w+2, ansi.Strip(row))
						}
					}
				}
			}
		}
	}
	t.Logf("%d tickets", len(tickets))
}

// TestSuspend: ctrl+z and an outside SIGTSTP take one path, Bubble Tea's
// suspension, with the program's handler stepping aside first; it steps in
// again on resume.
func TestSuspend(t *testing.T) {
	var calls []string
	m, err := newOn(Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen,
		Hooks: Hooks{BeforeSuspend: func() { calls = append(calls, "aside") }, AfterResume: func() { calls = append(calls, "in") }}}, session.Options{Seed: game.SeedFrom(1)})
	if err != nil {
		t.Fatal(err)
	}
	send(m, sizeMsg(80, 24))
	for _, msg := range []tea.Msg{keyMsg("ctrl+z"), SuspendMsg{}} {
		_, cmd := m.Update(msg)
		if cmd == nil {
			t.Fatalf("%T does not suspend", msg)
		}
		if _, ok := cmd().(tea.SuspendMsg); !ok {
			t.Fatalf("%T does not suspend", msg)
		}
		_, cmd = m.Update(tea.ResumeMsg{})
		cmd()
	}
	if strings.Join(calls, " ") != "aside in aside in" {
		t.Errorf("hooks called: %v", calls)
	}
}

// TestFrictions: the winnings follow the stake chosen, « a » buys and
// scratches after a Vegas result, esc returns where History, Rules and Help
// were opened from, the Yam's rules show the combinations, the help speaks
// of the mouse, French cards and keys are French.
func TestFrictions(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	press(m, "a")
	settle(m)
	press(m, "left")
	if !strings.Contains(plain(m), "Winnings at €0.50") {
		t.Errorf("the winnings do not follow the stake:\n%s", plain(m))
	}
	// A ticket being scratched does not change what the Yam's footer offers.
	press(m, "esc", "2", "enter", "esc", "1")
	if foot := lastLine(m); !strings.Contains(foot, "enter play") || strings.Contains(foot, "roll cup") {
		t.Errorf("the Yam's footer with a ticket on the Vegas screen: %q", foot)
	}
	m = newModel(t, English, VegasScreen, 80, 24)
	press(m, "a")
	settle(m)
	press(m, "a")
	settle(m)
	if m.Totals().Played != 2 || m.Revealing() {
		t.Errorf("a after a result: %d played, revealing %v", m.Totals().Played, m.Revealing())
	}
	m = newModel(t, English, MenuScreen, 80, 24)
	for _, keys := range [][]string{{"3"}, {"4"}, {"?"}, {"4", "h", "?"}} {
		press(m, keys...)
		for range keys {
			press(m, "esc")
		}
		if title(m) != "" {
			t.Errorf("esc after %v leads to %q", keys, title(m))
		}
	}
	press(m, "1", "h", "esc")
	if title(m) != "· Yam's!" {
		t.Errorf("esc from History opened in Yam's leads to %q", title(m))
	}
	press(m, "esc", "4")
	if !strings.Contains(plain(m), "large straight  45") {
		t.Errorf("the Yam's rules do not show the combinations:\n%s", plain(m))
	}
	press(m, "esc", "2", "?")
	if !strings.Contains(plain(m), "drag over a surface") {
		t.Errorf("the help does not speak of the mouse:\n%s", plain(m))
	}
	fr := newModel(t, French, VegasScreen, 80, 24)
	if foot := lastLine(fr); !strings.Contains(foot, "entrée achat") || strings.Contains(foot, "enter") || strings.Contains(foot, "espace") {
		t.Errorf("the French footer before a ticket: %q", foot)
	}
	press(fr, "enter")
	if foot := lastLine(fr); !strings.Contains(foot, "espace gratter") || strings.Contains(foot, "achat") {
		t.Errorf("the French footer on a ticket: %q", foot)
	}
	if got := rankNames[French]; got[9]+got[10]+got[11] != "VDR" {
		t.Errorf("French ranks %v", got)
	}
	// No colours: what is chosen is in reverse video.
	m = newModel(t, English, MenuScreen, 80, 24)
	m.Update(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	if !regexp.MustCompile(`\x1b\[(\d+;)*7[;m]`).MatchString(m.View().Content) {
		t.Errorf("without colours the chosen entry is not in reverse video: %q", m.View().Content)
	}
}

// TestNoticesFit: the notices shown in place of the keys' help fit 80
// columns.
func TestNoticesFit(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		tx := newText(lang)
		for _, n := range []string{tx.get("quit.ask"), tx.f("journal.torn", 123456)} {
			if w := ansi.StringWidth(n); w > 78 {
				t.Errorf("%q is %d cells wide", n, w)
			}
		}
	}
}

// TestLinesFit: at 80 columns the keys' help and the QA status line fit
// whole on every screen, in both languages, the kiosk and QA modes
// included, with the largest seed and a force pending.
func TestLinesFit(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		for _, o := range []Options{{QA: true}, {Demo: true}, {}} {
			for _, start := range []Screen{MenuScreen, YamsScreen, VegasScreen} {
				o.Lang, o.Balance, o.Start, o.Clock = lang, decimal.NewFromInt(100), start, nil
				m := open(t, o, 80, 24, session.Options{Seed: game.SeedFrom(18446744073709551615)})
				press(m, "f", "enter") // a force pending, in QA mode
				for _, keys := range [][]string{nil, {"h"}, {"?"}, {"esc", "4"}} {
					press(m, keys...)
					lines := strings.Split(strings.TrimRight(plain(m), "\n"), "\n")
					for _, l := range lines[len(lines)-2:] {
						if ansi.StringWidth(l) > 80 {
							t.Errorf("%q is wider than 80", l)
						}
						if strings.Contains(l, "…") {
							t.Errorf("%s, qa %v, demo %v, screen %q: a line is cut: %q", lang, o.QA, o.Demo, title(m), l)
						}
					}
				}
			}
		}
	}
}

// TestHistoryKeepsResultsHidden: a unit bought and not revealed shows in
// the history without its prize nor the balance after, and a first enter
// there points to its own screen (TestHistoryShowsAUnitStillToReveal asks
// twice).
func TestHistoryKeepsResultsHidden(t *testing.T) {
	m := newModel(t, English, VegasScreen, 120, 40)
	press(m, "enter", "h")
	var row string
	for _, l := range strings.Split(plain(m), "\n") {
		if strings.Contains(l, "vegas:3:1:1") {
			row = l
		}
	}
	// What it reached is left blank, the balance is the one before its prize.
	if strings.Count(row, "to reveal") != 1 || !regexp.MustCompile(`  Vegas      €3\.00 +to reveal +€97\.00  vegas:3:1:1$`).MatchString(row) {
		t.Fatalf("the history shows the unrevealed unit's result: %q", row)
	}
	press(m, "enter")
	if len(labelsAt(m, m.t.get("replay"))) != 0 || !strings.Contains(plain(m), m.t.get("hist.unshown")) {
		t.Fatalf("the unrevealed unit was shown again:\n%s", plain(m))
	}
	press(m, "esc", "a")
	settle(m)
	press(m, "h", "enter")
	if len(labelsAt(m, m.t.get("replay"))) != 1 {
		t.Fatalf("the revealed unit is not shown again:\n%s", plain(m))
	}
	// A later purchase's balances leave out an earlier prize not shown.
	m = newModel(t, English, YamsScreen, 120, 40)
	press(m, "enter", "esc", "2", "enter", "h")
	if got := plain(m); !regexp.MustCompile(`€3\.00 +to reveal +€96\.00  vegas:3:1:1\n`).MatchString(got) {
		t.Errorf("the ticket's row counts the Yam's prize not shown:\n%s", got)
	}
}
