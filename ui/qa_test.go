package ui

import (
	"tapis/game"

	"fmt"
	"os"
	"path/filepath"
	"strings"
	"tapis/session"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/game/yams"
)

// forcing reports whether the forcing panel is on screen.
func forcing(m *Model) bool { return strings.Contains(plain(m), "QA forcing") }

// celebrate delivers a big win's next flash, and reports whether one came.
func celebrate(m *Model) bool {
	ticks := clockOf(m).take(func(msg tea.Msg) bool { _, ok := msg.(partyTickMsg); return ok })
	for _, t := range ticks {
		send(m, t)
	}
	return len(ticks) > 0
}

func newQA(t *testing.T, start Screen) *Model {
	t.Helper()
	return open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: start, QA: true}, 80, 24, session.Options{Seed: game.SeedFrom(42)})
}

// typeText types s into the panel, one key a rune.
func typeText(m *Model, s string) {
	for _, r := range s {
		send(m, keyMsg(string(r)))
	}
}

// blockSold returns how many units the block being sold has sold.
func blockSold(t *testing.T, m *Model, g lottery.Game, stake decimal.Decimal) int64 {
	t.Helper()
	b, err := m.Session().Block(g, stake)
	if err != nil {
		t.Fatal(err)
	}
	return b.Sold
}

// TestQAForceLot forces the top lot of Yam's: the next purchase plays it,
// marked QA on screen, in history and in the summary, and the block sells
// nothing.
func TestQAForceLot(t *testing.T) {
	m := newQA(t, YamsScreen)
	press(m, "f")
	golden(t, "qa_panel_yams", plain(m))
	press(m, "enter", "enter", "a")
	settle(m)
	s := m.Showing("yams")
	if s.Forced == nil || !s.Unit.Prize.Equal(decimal.NewFromInt(5000)) || s.Layout.Yams.Score().Points != 100 {
		t.Fatalf("forced unit %+v scores %d", s, s.Layout.Yams.Score().Points)
	}
	if got := blockSold(t, m, lottery.Yams(), decimal.NewFromInt(1)); got != 0 {
		t.Errorf("the block sold %d units for a forced one", got)
	}
	for celebrate(m) { // the board under the celebration
	}
	golden(t, "qa_forced_yams", plain(m))
	if op := m.Recent()[0]; op.Unit != "yams:1:QA:1" || !op.Forced || !op.Prize.Equal(s.Unit.Prize) {
		t.Errorf("history %+v", op)
	}
	if !strings.HasSuffix(m.Summary(), "· QA 1") || !m.Balance().Equal(decimal.NewFromInt(5099)) {
		t.Errorf("summary %q", m.Summary())
	}
	// The force is used once: the next unit comes from the block.
	press(m, "a")
	settle(m)
	if m.Showing("yams").Forced != nil || blockSold(t, m, lottery.Yams(), decimal.NewFromInt(1)) != 1 {
		t.Error("the force was played twice")
	}
}

func TestQAForcePointsAndCombinations(t *testing.T) {
	m := newQA(t, YamsScreen)
	press(m, "f", "tab")
	typeText(m, "73")
	press(m, "enter", "a")
	settle(m)
	if got := m.Showing("yams").Layout.Yams.Score(); got.Points != 73 || !got.Prize.Decimal().Equal(decimal.NewFromInt(20)) {
		t.Fatalf("forced 73 points, played %d for %s", got.Points, got.Prize)
	}
	press(m, "f", "tab")
	typeText(m, "2")
	press(m, "enter")
	if !forcing(m) || !strings.Contains(plain(m), "no three cups make") {
		t.Fatalf("2 points were accepted:\n%s", plain(m))
	}
	press(m, "backspace")
	typeText(m, "ab")
	press(m, "enter")
	if !forcing(m) || !strings.Contains(plain(m), `"ab" is not a number of points`) {
		t.Fatalf("ab was not said to be no number:\n%s", plain(m))
	}
	press(m, "tab", "up", "right", "up", "up", "right", "down", "enter", "a")
	settle(m)
	want := [3]yams.Combination{yams.Pair, yams.TwoPairs, yams.Yams}
	if got := m.Showing("yams").Layout.Yams.Score().Combinations; got != want {
		t.Errorf("forced %v, played %v", want, got)
	}
}

func TestQAForceVegasSplit(t *testing.T) {
	m := newQA(t, VegasScreen)
	press(m, "f", "tab", "down", "right", "enter", "enter", "a")
	settle(m)
	split := vegas.Splits(10_000)[1]
	s := m.Showing("vegas")
	sc := s.Layout.Vegas.Score()
	for f := range vegas.Surfaces {
		if sc.SurfacePrize(f).Decimal().IntPart() != split[f] {
			t.Fatalf("forced split %v, surface %s pays %s", split, f, sc.SurfacePrize(f))
		}
	}
	if s.Forced == nil || blockSold(t, m, lottery.Vegas(), vegas.Price()) != 0 {
		t.Error("the forced ticket came from the block")
	}
	for celebrate(m) { // the ticket under the celebration
	}
	golden(t, "qa_forced_vegas", plain(m))
}

// TestQAForceFile loads layouts with the reader of tapis score: errors show
// in the panel, and the layouts of a good file are played exactly, in order.
func TestQAForceFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	good := filepath.Join(dir, "good.jsonl")
	os.WriteFile(bad, []byte(`{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]}`+"\n"+`{"game":"yams","cups":[[1,2,3,4,5],[1,2,3,4,9],[1,1,1,1,1]]}`+"\n"), 0o644)
	layouts := `{"game":"yams","stake":"2","cups":[[1,1,1,1,1],[2,2,2,2,2],[6,6,1,1,3]]}` + "\n" +
		`{"unit":"yams:1:1:9","game":"yams","stake":"0.5","cups":[[1,2,3,4,5],[2,3,4,5,6],[6,6,6,6,2]],"prize":"5"}` + "\n"
	os.WriteFile(good, []byte(layouts), 0o644)
	m := newQA(t, YamsScreen)
	press(m, "f", "tab", "tab", "tab")
	typeText(m, bad)
	send(m, press(m, "enter")()) // the file is read by a command
	if !strings.Contains(plain(m), "line 2: cups[1][4]: die 9 is not between 1 and 6") ||
		!strings.Contains(plain(m), "Nothing loaded: fix these errors first (1 valid layout)") {
		t.Fatalf("the panel does not name the error, or what it loaded:\n%s", plain(m))
	}
	for range len(bad) {
		press(m, "backspace")
	}
	typeText(m, good)
	send(m, press(m, "enter")())
	var want []lottery.Layout
	lottery.Read(strings.NewReader(layouts), func(e lottery.Entry) { want = append(want, e.Layout) })
	for i, w := range want {
		left := fmt.Sprintf(", %d layouts left", len(want)-i)
		if len(want)-i == 1 {
			left = ", 1 layout left"
		}
		if !strings.Contains(plain(m), "next yams: "+good+left) {
			t.Fatalf("layout %d: the status line does not say %q:\n%s", i, left, plain(m))
		}
		press(m, "a")
		settle(m)
		got := m.Showing("yams").Layout.Yams
		if got.Cups != w.Yams.Cups || !got.Stake.Equal(w.Yams.Stake) || !m.Showing("yams").Unit.Prize.Equal(w.Score().Prize()) {
			t.Fatalf("layout %d: played %+v, loaded %+v", i, got, w.Yams)
		}
		if op := m.Recent()[0]; !op.Stake.Equal(w.Yams.Stake) {
			t.Errorf("layout %d: staked %s, the layout's stake is %s", i, op.Stake, w.Yams.Stake)
		}
	}
	if strings.Contains(plain(m), "next yams") {
		t.Error("the queue of loaded layouts did not end")
	}
}

// TestSameSeedSameScreens plays the same keys in two sessions with the same
// seed: every screen and the summary are the same.
func TestSameSeedSameScreens(t *testing.T) {
	keys := []string{"1", "a", "!", "right", "enter", "2", "1", "3", "!", "esc", "2", "enter", "space", "tab", "space", "a", "!", "h", "enter"}
	run := func() []string {
		m := newModel(t, French, MenuScreen, 80, 24)
		var shots []string
		for _, k := range keys {
			if k == "!" {
				settle(m)
			} else {
				press(m, k)
			}
			shots = append(shots, plain(m))
		}
		return append(shots, m.Summary())
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("step %d differs:\n%s\n---\n%s", i, a[i], b[i])
		}
	}
}

// TestBigWinFlashes: a win of ten stakes or more flashes its banner for a
// while, over the board in big letters, then stops and the board shows
// again; a small win does not.
func TestBigWinFlashes(t *testing.T) {
	m := newQA(t, YamsScreen)
	press(m, "f", "enter", "a") // the top lot
	settle(m)
	first := plain(m)
	if !celebrate(m) || plain(m) == first || !strings.Contains(plain(m), "✦") {
		t.Error("the banner does not flash")
	}
	n := 1
	for celebrate(m) {
		n++
	}
	if after := plain(m); after == first || strings.Contains(after, "█") || !strings.Contains(after, "Mat 1") || n != partyFrames {
		t.Errorf("the celebration did not end after %d frames:\n%s", n, after)
	}
	// 1 €: a plain win.
	press(m, "f", "down", "down", "down", "down", "down", "down", "down", "down", "enter", "a")
	settle(m)
	if p := m.Showing("yams").Unit.Prize; !p.Equal(decimal.NewFromInt(1)) || celebrate(m) {
		t.Errorf("a small win of %s is celebrated", p)
	}
}

// TestQAFileBounded loads a file of 100 000 invalid layouts: the panel
// keeps the first 20 errors and counts the rest. esc closes the panel at
// once while a file is read, the reading stops, and its answer changes
// nothing.
func TestQAFileBounded(t *testing.T) {
	lines := 100_000
	if raceEnabled {
		lines = 10_000
	}
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(path, []byte(strings.Repeat(`{"game":"yams","cups":[[9,9,9,9,9],[1,1,1,1,1],[1,1,1,1,1]]}`+"\n", lines)), 0o644)
	m := newQA(t, YamsScreen)
	press(m, "f", "tab", "tab", "tab")
	typeText(m, path)
	_, cmd := m.Update(keyMsg("enter"))
	if !strings.Contains(plain(m), "reading the file…") || !strings.Contains(lastLine(m), "esc stop reading") {
		t.Errorf("the panel does not say it is reading:\n%s", plain(m))
	}
	msg := cmd().(layoutsMsg)
	if len(msg.problems) != 20 || msg.more != lines-20 {
		t.Fatalf("%d errors kept, %d counted", len(msg.problems), msg.more)
	}
	send(m, msg)
	s := plain(m)
	shown := strings.Count(s, "die 9 is not between 1 and 6")
	if shown < 5 || !strings.Contains(s, fmt.Sprintf("… and %d more errors", lines-shown)) {
		t.Fatalf("the panel shows %d errors:\n%s", shown, s)
	}
	// Again, and esc while the file is read.
	_, cmd = m.Update(keyMsg("enter"))
	press(m, "esc")
	if forcing(m) || !strings.Contains(lastLine(m), "f force") {
		t.Fatalf("esc did not close the panel:\n%s", plain(m))
	}
	msg = cmd().(layoutsMsg)
	if len(msg.problems) != 0 || msg.more != 0 {
		t.Errorf("the cancelled reading went on: %d errors", len(msg.problems)+msg.more)
	}
	send(m, msg)
	if forcing(m) || strings.Contains(plain(m), "next yams") {
		t.Error("a cancelled load changed the game")
	}
}

// TestControlCharactersEscaped: a unit name read from a file reaches the
// screen with its control characters escaped, as Go's %q writes them.
func TestControlCharactersEscaped(t *testing.T) {
	var entries []lottery.Entry
	lottery.Read(strings.NewReader(`{"unit":"yams:1:1:1\u001b]0;pwned\u0007","game":"yams","stake":"1","cups":[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]}`+"\n"), func(e lottery.Entry) {
		entries = append(entries, e)
	})
	m := mustReplay(t, entries, English, 1, false)
	send(m, sizeMsg(100, 30))
	v := m.View().Content
	if strings.Contains(v, "\x1b]0;") || strings.Contains(v, "\a") || !strings.Contains(ansi.Strip(v), `yams:1:1:1\x1b]0;pwned\a`) || !strings.Contains(ansi.Strip(v), "1 invalid: listed when you quit") {
		t.Errorf("the unit's control characters reach the terminal:\n%q", v)
	}
}
