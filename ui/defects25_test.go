package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
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

// drawnAs reports whether the frame draws text in style st (as the
// terminal gets it, colours and all).
func drawnAs(m *Model, rendered string) bool {
	return strings.Contains(m.View().Content, rendered)
}

// TestAutoDrawnOnDuringPlay checks that Auto, which reveals the rest of a
// unit bought with Play, is drawn on while that unit is revealed, and Play
// off (defect 6: both were greyed); a click on Auto there rolls the cups.
func TestAutoDrawnOnDuringPlay(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		m := newModel(t, lang, YamsScreen, 80, 24)
		tx := newText(lang)
		on, off := m.st.button.Render(tx.get("auto")), m.st.buttonOff.Render(tx.get("auto"))
		playOff := m.st.buttonOff.Render(tx.get("play"))
		if !drawnAs(m, on) {
			t.Fatalf("Auto is not drawn on before a purchase")
		}
		clickLabel(t, m, tx.get("play"), 0)
		if !m.Revealing() || !drawnAs(m, on) || drawnAs(m, off) || !drawnAs(m, playOff) {
			t.Errorf("%s: during Play, Auto drawn on %v, off %v; Play off %v", lang, drawnAs(m, on), drawnAs(m, off), drawnAs(m, playOff))
		}
		clickLabel(t, m, tx.get("auto"), 0)
		settle(m)
		if m.Revealing() || m.Totals().Played != 1 {
			t.Errorf("a click on Auto during Play: revealing %v, %d bought", m.Revealing(), m.Totals().Played)
		}
	}
}

// cursorRows returns the rows of the frame that carry the cursor's
// marker, as the terminal shows them without any attribute.
func cursorRows(m *Model) []string {
	var rows []string
	for _, l := range strings.Split(plain(m), "\n") {
		if strings.Contains(l, "▸") {
			rows = append(rows, strings.TrimSpace(l))
		}
	}
	return rows
}

// TestCursorWithoutAttributes checks that with TERM=dumb (no colours, no
// reverse video: Bubble Tea writes no attribute at all) the menu's and the
// history's cursor still shows, and moves with the keys (defect 5).
func TestCursorWithoutAttributes(t *testing.T) {
	m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: MenuScreen, Profile: colorprofile.NoTTY},
		80, 24, session.Options{Seed: game.SeedFrom(42)})
	if rows := cursorRows(m); len(rows) != 1 || !strings.HasSuffix(rows[0], "1  Yam's!") {
		t.Fatalf("the menu's cursor: %q\n%s", rows, plain(m))
	}
	press(m, "down")
	if rows := cursorRows(m); len(rows) != 1 || !strings.HasSuffix(rows[0], "2  Vegas") {
		t.Fatalf("the menu's cursor after ↓: %q\n%s", rows, plain(m))
	}
	press(m, "1", "a")
	settle(m)
	press(m, "a")
	settle(m)
	press(m, "h")
	if rows := cursorRows(m); len(rows) != 1 || !strings.HasPrefix(strings.TrimSpace(rows[0]), "▸ 2 ") {
		t.Fatalf("the history's cursor: %q\n%s", rows, plain(m))
	}
	press(m, "down")
	if rows := cursorRows(m); len(rows) != 1 || !strings.HasPrefix(strings.TrimSpace(rows[0]), "▸ 1 ") {
		t.Fatalf("the history's cursor after ↓: %q\n%s", rows, plain(m))
	}
}

// TestQuitQuestionTellsTheTruth checks the question q asks during a
// reveal: with a journal the unit waits in the history, paid; without
// one the history ends with the process, and it says so (defect 4: it
// said "it stays in your history" in both cases); a guest of tapis serve,
// whose account ends with the connection, is not told it waits.
func TestQuitQuestionTellsTheTruth(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		tx := newText(lang)
		memory := newModel(t, lang, YamsScreen, 80, 24)
		path := t.TempDir() + "/j.jsonl"
		kept, err := newOn(Options{Lang: lang, Balance: decimal.NewFromInt(100), Start: YamsScreen},
			session.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(9), SeedSet: true, Journal: path})
		if err != nil {
			t.Fatal(err)
		}
		send(kept, sizeMsg(80, 24))
		guest, err := newOn(Options{Lang: lang, Balance: decimal.NewFromInt(100), Start: YamsScreen, Guest: "ssh -i KEY -p 23234 HOST"},
			session.Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(9), SeedSet: true, Journal: t.TempDir() + "/g.jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		send(guest, sizeMsg(80, 24))
		for _, c := range []struct {
			m    *Model
			want string
		}{{memory, tx.get("quit.ask.lost")}, {kept, tx.get("quit.ask")}, {guest, tx.get("quit.ask.guest")}} {
			clickLabel(t, c.m, tx.get("play"), 0)
			if quits(press(c.m, "q")) {
				t.Fatal("q during a reveal quits without asking")
			}
			if got := strings.TrimSpace(lastLine(c.m)); got != c.want {
				t.Errorf("%s: the quit question says %q, not %q", lang, got, c.want)
			}
			if !quits(press(c.m, "q")) {
				t.Error("q again does not quit")
			}
		}
		kept.Close()
		guest.Close()
	}
}

// TestKeysHeldWhileBuying presses, in one burst before the purchase has
// answered (a purchase over SSH takes a while), the keys that reveal:
// each is applied to the unit once it is there, in order (defect 7:
// Enter 1 1 2 2 3 3 rolled only cup 3); a second buying key buys nothing.
func TestKeysHeldWhileBuying(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	_, purchase := m.Update(keyMsg("enter")) // the purchase, not answered yet
	for _, k := range []string{"enter", "1", "1", "2", "2", "3", "3", "enter"} {
		send(m, keyMsg(k))
	}
	if !strings.Contains(plain(m), "Buying…") {
		t.Fatalf("no purchase under way:\n%s", plain(m))
	}
	run(m, purchase)
	if n := rolling(m); n != 3 {
		t.Fatalf("%d cups roll once the unit came, not 3:\n%s", n, plain(m))
	}
	settle(m)
	if m.Revealing() || m.Totals().Played != 1 {
		t.Errorf("after the burst: revealing %v, %d bought", m.Revealing(), m.Totals().Played)
	}

	v := newModel(t, English, VegasScreen, 80, 24)
	_, purchase = v.Update(keyMsg("enter"))
	for _, k := range []string{"enter", "a", "enter"} {
		send(v, keyMsg(k))
	}
	run(v, purchase)
	settle(v)
	if v.Revealing() || v.Totals().Played != 1 {
		t.Errorf("Vegas, enter a enter: revealing %v, %d bought:\n%s", v.Revealing(), v.Totals().Played, plain(v))
	}
}

// TestThisSessionCountedOnce takes a journal up with a Yam's unit left
// unrevealed, reveals it, then buys a Vegas ticket and leaves it covered:
// the stats screen and the quit line count this session alike, the units
// seen to their end (defect 3: stats said 1 unit · €1.00, the quit line
// played 1 · €3.00, the ticket's).
func TestThisSessionCountedOnce(t *testing.T) {
	path := t.TempDir() + "/journal.jsonl"
	m := journaled(t, path)
	press(m, "enter") // a Yam's unit, left covered
	m.Close()
	m = journaled(t, path)
	defer m.Close()
	prize := m.Showing("yams").Unit.Prize
	press(m, "a")
	settle(m)
	press(m, "esc", "2", "enter") // a ticket, left covered
	press(m, "s")
	head := strings.TrimSpace(strings.Split(plain(m), "\n")[1])
	wantHead := "This session: 1 unit · staked €1.00 · won " + m.t.money(prize)
	if !strings.HasPrefix(head, wantHead+" · ") {
		t.Errorf("the stats say %q, want %q", head, wantHead)
	}
	b, _ := headerMoney(t, m)
	if want := "played 1 · staked €1.00 · won " + m.t.money(prize) + " · balance " + m.t.money(b) + " · unrevealed 1"; m.Summary() != want {
		t.Errorf("the quit line says %q, want %q", m.Summary(), want)
	}
}

// TestHistoryShowsAUnitStillToReveal buys a unit and leaves it covered:
// the history first points to its game's screen, then, asked again, shows
// its result (art. 4.1), and from then on it counts as shown; its screen
// still offers it to be revealed, and revealing it there counts it no
// second time (defect 8: the history refused to show it).
func TestHistoryShowsAUnitStillToReveal(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		tx := newText(lang)
		m := newModel(t, lang, YamsScreen, 80, 24)
		clickLabel(t, m, tx.get("play"), 0)
		sold := m.Showing("yams")
		press(m, "h")
		if len(labelsAt(m, tx.get("hist.hidden"))) != 1 {
			t.Fatalf("the unit is not listed still to reveal:\n%s", plain(m))
		}
		clickHistoryRow(t, m, 1)
		if !strings.Contains(lastLine(m), tx.get("hist.unshown")) || len(labelsAt(m, tx.get("replay"))) != 0 {
			t.Fatalf("a first click does not point to the game's screen:\n%s", plain(m))
		}
		clickHistoryRow(t, m, 1)
		frame := plain(m)
		if len(labelsAt(m, tx.get("replay"))) != 1 || !strings.Contains(frame, tx.f("total", sold.Layout.Yams.Score().Points)) {
			t.Fatalf("asked again, the history does not show the unit:\n%s", frame)
		}
		if m.till.seen.Played != 1 || m.till.unrevealed() != 0 {
			t.Errorf("shown in the history: %d counted shown, %d unrevealed", m.till.seen.Played, m.till.unrevealed())
		}
		press(m, "esc")
		if len(labelsAt(m, tx.get("hist.hidden"))) != 0 || len(labelsAt(m, tx.money(sold.Unit.Prize))) == 0 {
			t.Errorf("the row does not show the prize:\n%s", plain(m))
		}
		press(m, "esc")
		if !m.Revealing() {
			t.Fatalf("the game's screen no longer offers the unit:\n%s", plain(m))
		}
		press(m, "a")
		settle(m)
		if m.Revealing() || m.till.seen.Played != 1 || !m.till.seen.Won.Equal(sold.Unit.Prize) {
			t.Errorf("revealed on its screen too: revealing %v, %d counted shown, won %s", m.Revealing(), m.till.seen.Played, m.till.seen.Won)
		}
	}
}

// TestWordings25 checks the wordings issue 25 found, where they are
// drawn: no numbers run together in the Jackpot's rules, English writes
// 70%, its Vegas table heads its amounts Prize, the French stats say
// « tableau » and never cut a line at 80 columns, even with a top lot's
// amounts, and the French quit line counts « 1 non révélée ».
func TestWordings25(t *testing.T) {
	en := newModel(t, English, MenuScreen, 120, 40)
	press(en, "4", "tab")
	frame := plain(en)
	for _, want := range []string{"three sevens €10,000", "Return to player: 70% of stakes", "Prize     Per block"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the Vegas rules do not say %q:\n%s", want, frame)
		}
	}
	fr := newQA(t, YamsScreen)
	fr.t = newText(French) // the QA model's texts, in French
	fr.common.keys = newKeys(fr.t)
	send(fr, sizeMsg(80, 24))
	press(fr, "f", "enter", "enter", "a") // the top lot, 5 000 €
	settle(fr)
	for range 5 {
		press(fr, "a")
		settle(fr)
	}
	press(fr, "s")
	frame = plain(fr)
	if !strings.Contains(frame, "(tableau ") || strings.Contains(frame, "(table ") || strings.Contains(frame, "…\n") ||
		!strings.Contains(frame, "1 forcée, hors lots") {
		t.Errorf("the French stats at 80 columns:\n%s", frame)
	}
	if !strings.Contains(frame, "retour ") {
		t.Errorf("the French stats lost their return:\n%s", frame)
	}
	m := newModel(t, French, VegasScreen, 80, 24)
	press(m, "enter")
	if !strings.HasSuffix(m.Summary(), " · 1 non révélée") {
		t.Errorf("the French quit line: %q", m.Summary())
	}
}

// TestReplayMarkedAlike checks a unit shown again is marked alike in both
// games: REPLAY, its unit and its result on one line under the dice or the
// ticket (issue 25: Yam's put it above, apart from its caption).
func TestReplayMarkedAlike(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		tx := newText(lang)
		m := newModel(t, lang, YamsScreen, 80, 24)
		press(m, "a")
		settle(m)
		press(m, "esc", "2", "a")
		settle(m)
		press(m, "h")
		for seq, unit := range []string{"yams:1:1:1", "vegas:3:1:1"} {
			clickHistoryRow(t, m, seq+1)
			var marked []int
			for y, l := range strings.Split(plain(m), "\n") {
				if strings.Contains(l, tx.get("replay")) && strings.Contains(l, unit+"  ") {
					marked = append(marked, y)
				}
			}
			if len(marked) != 1 || marked[0] < 10 {
				t.Errorf("%s: %s shown again is marked on rows %v:\n%s", lang, unit, marked, plain(m))
			}
			press(m, "esc")
		}
	}
}

// TestKioskLeavesAVisitorsResult has a visitor buy a ticket and walk
// away: when the loop comes back and scratches it, its result stays on
// screen as long as one of the loop's before the loop takes the wallet
// back (issue 25: half a second).
func TestKioskLeavesAVisitorsResult(t *testing.T) {
	c := newTestClock()
	m := demoModel(t, c)
	press(m, "2") // the visitor takes over, at the menu
	press(m, "2", "enter")
	ticket := m.Showing("vegas")
	if ticket == nil || isDemo(ticket) {
		t.Fatalf("the visitor bought nothing:\n%s", plain(m))
	}
	c.add(2 * time.Minute) // the visitor leaves
	send(m, clockMsg{})
	for steps := 0; m.Revealing(); steps++ {
		if steps > 500 || !step(m) {
			t.Fatalf("the loop does not reveal what the visitor left:\n%s", plain(m))
		}
		settle(m)
	}
	step(m) // the result is on screen
	if m.Showing("vegas") != ticket || clockOf(m).demoWait < demoShow {
		t.Errorf("the visitor's result is left %v on screen (the loop's: %v), showing %v", clockOf(m).demoWait, demoShow, m.Showing("vegas"))
	}
}

// TestStatsChartSteps checks the balance chart of one unit holds the
// starting balance, then the balance after it, with no slope between
// them (issue 25: a diagonal ran across the chart).
func TestStatsChartSteps(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	press(m, "a") // seed 42's first unit wins €2.00 at €1.00
	settle(m)
	press(m, "s")
	lines := strings.Split(plain(m), "\n")
	var top, bottom string
	for _, l := range lines {
		switch {
		case strings.Contains(l, "€101.00┤"):
			top = l
		case strings.Contains(l, "€100.00┤"):
			bottom = l
		}
	}
	_, top, _ = strings.Cut(top, "┤")
	_, bottom, _ = strings.Cut(bottom, "┤")
	half := len([]rune(top)) / 3
	held := strings.Count(bottom, "⣀") // the starting balance, held until the unit
	if top == "" || strings.TrimSpace(string([]rune(top)[:half])) != "" || held < half {
		t.Errorf("the balance of one unit is not drawn as a step:\n%s", plain(m))
	}
}

// TestButtonsWithoutAttributes checks that with TERM=dumb, where no
// attribute shows, what a click works on is bracketed and a button that
// does nothing now is not (issue 25: every clickable thing looks
// clickable, nothing else does).
func TestButtonsWithoutAttributes(t *testing.T) {
	m := open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen, Profile: colorprofile.NoTTY},
		80, 24, session.Options{Seed: game.SeedFrom(42)})
	frame := plain(m)
	for _, want := range []string{"[ Play ]", "[ Auto ]", "[← Menu]"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q:\n%s", want, frame)
		}
	}
	clickLabel(t, m, "Play", 0)
	frame = plain(m)
	if strings.Contains(frame, "[ Play ]") || !strings.Contains(frame, "[ Auto ]") {
		t.Errorf("during Play, Play is drawn clickable or Auto not:\n%s", frame)
	}
}

// TestHistorySaysItsLimit checks the history says how many units it
// keeps (issue 25, point 14).
func TestHistorySaysItsLimit(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		m := newModel(t, lang, YamsScreen, 80, 24)
		press(m, "a")
		settle(m)
		press(m, "h")
		if want := m.t.f("hist.kept", HistoryLimit); len(labelsAt(m, want)) != 1 || !strings.Contains(want, "200") {
			t.Errorf("%s: the history does not say it keeps %d units:\n%s", lang, HistoryLimit, plain(m))
		}
	}
}

// TestQuitAfterTheHistoryShowedIt: a unit the history showed early (art.
// 4.1) is seen: quitting from its game's screen, its cups still covered,
// asks nothing (a newcomer was asked about a unit "being revealed" whose
// result they had read).
func TestQuitAfterTheHistoryShowedIt(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	tx := newText(English)
	press(m, "enter", "h", "enter", "enter", "esc", "esc")
	if !m.Revealing() {
		t.Fatalf("the unit is no longer offered on its screen:\n%s", plain(m))
	}
	if cmd := m.quit(false); !quits(cmd) || strings.Contains(plain(m), tx.get("quit.ask.lost")) {
		t.Errorf("quitting after the history showed the unit asks again:\n%s", plain(m))
	}
}
