package ui

import (
	"tapis/game"

	"os"
	"path/filepath"
	"strings"
	"tapis/session"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game/yams"
)

// paste sends text as the terminal sends a paste (bracketed), and returns
// what the model asked beyond the game.
func paste(m *Model, text string) tea.Cmd { return send(m, tea.PasteMsg{Content: text}) }

// field returns the line of the forcing panel's field: what follows its
// question.
func field(t *testing.T, m *Model) string {
	t.Helper()
	lines := strings.Split(plain(m), "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, ":") && i+2 < len(lines) {
			return strings.TrimSpace(lines[i+2])
		}
	}
	t.Fatalf("no field on screen:\n%s", plain(m))
	return ""
}

// TestQAPasteFile pastes a path into the File tab, with the end of line a
// copied line brings, and cut over two lines: the line breaks are dropped,
// and enter loads the file, whose layout the next purchase plays.
func TestQAPasteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.jsonl")
	os.WriteFile(path, []byte(`{"game":"yams","stake":"1","cups":[[1,1,1,1,1],[2,2,2,2,2],[6,6,1,1,3]]}`+"\n"), 0o644)
	for _, pasted := range []string{path + "\n", path[:5] + "\r\n" + path[5:] + "\r\n"} {
		m := newQA(t, YamsScreen)
		press(m, "f", "tab", "tab", "tab")
		paste(m, pasted)
		if got := field(t, m); got != path {
			t.Fatalf("pasted %q, the field shows %q", pasted, got)
		}
		_, cmd := m.Update(keyMsg("enter"))
		send(m, cmd())
		if forcing(m) || !strings.Contains(plain(m), "next yams: "+path+", 1 layout left") {
			t.Fatalf("the pasted path did not load:\n%s", plain(m))
		}
		press(m, "a")
		settle(m)
		if got := m.Showing("yams").Layout.Yams.Cups[2]; got != (yams.Cup{6, 6, 1, 1, 3}) {
			t.Errorf("played %v, not the file's layout", got)
		}
	}
}

// TestQAFieldKeys edits the fields as a terminal user does: the cursor
// keys, home and end move, ctrl+w erases a word, ctrl+u what is before the
// cursor; a paste elsewhere than a field does nothing.
func TestQAFieldKeys(t *testing.T) {
	m := newQA(t, YamsScreen)
	press(m, "f")
	lot := plain(m)
	paste(m, "42")
	if plain(m) != lot {
		t.Errorf("a paste changed the Lot tab:\n%s", plain(m))
	}
	press(m, "tab", "3", "home", "7", "end")
	if got := field(t, m); got != "73" {
		t.Fatalf("typed 3, home, 7: the field shows %q", got)
	}
	press(m, "enter", "a")
	settle(m)
	if got := m.Showing("yams").Layout.Yams.Score().Points; got != 73 {
		t.Fatalf("forced 73 points, played %d", got)
	}
	press(m, "f", "tab", "tab", "tab")
	typeText(m, "/tmp/some dir/file.jsonl")
	press(m, "ctrl+w")
	if got := field(t, m); got != "/tmp/some" {
		t.Errorf("ctrl+w left %q", got)
	}
	press(m, "left", "left", "left", "ctrl+u")
	if got := field(t, m); got != "me" {
		t.Errorf("ctrl+u before the last three characters left %q", got)
	}
	press(m, "end", "ctrl+u")
	if got := field(t, m); got != "" {
		t.Errorf("ctrl+u at the end left %q", got)
	}
}

// TestQAPasteEscaped pastes a terminal escape sequence into the File tab:
// it is shown escaped, nothing of it reaches the terminal raw, and the
// error of the file not found names it escaped as well.
func TestQAPasteEscaped(t *testing.T) {
	m := newQA(t, YamsScreen)
	press(m, "f", "tab", "tab", "tab")
	paste(m, "/tmp/\x1b]0;pwned\a\u202e.jsonl")
	shown := `/tmp/\x1b]0;pwned\a\u202e.jsonl`
	if got := field(t, m); got != shown {
		t.Errorf("the field shows %q, want %q", got, shown)
	}
	v := m.View().Content
	if strings.Contains(v, "\x1b]0;") || strings.Contains(v, "\a") || strings.Contains(v, "\u202e") {
		t.Errorf("the pasted sequence reaches the terminal:\n%q", v)
	}
	_, cmd := m.Update(keyMsg("enter"))
	send(m, cmd())
	if !strings.Contains(plain(m), "open "+shown+": no such file") {
		t.Errorf("the error does not name the path as shown:\n%s", plain(m))
	}
}

// TestQAPanelFooter: the bottom line says the panel's keys, tab by tab, in
// the screen's language, and what esc does while a file is read.
func TestQAPanelFooter(t *testing.T) {
	m := newQA(t, VegasScreen)
	press(m, "f")
	want := []string{
		"↑/↓ lot • enter play it next • tab mode • esc close",
		"↑/↓ lot • ←/→ split • enter play it next • tab mode • esc close",
		"enter load • tab mode • esc close • ctrl+u erase before • ctrl+w erase a word",
	}
	for i, w := range want {
		if got := strings.TrimSpace(lastLine(m)); got != w {
			t.Errorf("tab %d: the bottom line says %q, want %q", i, got, w)
		}
		press(m, "tab")
	}
	// Points and Combinations, in French; esc while a file is read.
	fr := open(t, Options{Lang: French, Balance: decimal.NewFromInt(100), Start: YamsScreen, QA: true}, 100, 30, session.Options{Seed: game.SeedFrom(42)})
	press(fr, "f", "tab")
	if got := lastLine(fr); !strings.Contains(got, "entrée jouer ensuite • tab mode • échap fermer • ctrl+u effacer avant") {
		t.Errorf("Points: %q", got)
	}
	press(fr, "tab")
	if got := lastLine(fr); !strings.Contains(got, "←/→ gobelet • ↑/↓ combinaison • entrée jouer ensuite") {
		t.Errorf("Combinations: %q", got)
	}
	press(fr, "tab")
	typeText(fr, filepath.Join(t.TempDir(), "none.jsonl"))
	fr.Update(keyMsg("enter"))
	if got := lastLine(fr); !strings.Contains(got, "échap arrêter la lecture") {
		t.Errorf("reading a file: %q", got)
	}
}

// TestQAFieldLong pastes a path longer than the panel: the field shows the
// part around the cursor, cut with …, within the panel's width, and home
// shows its start.
func TestQAFieldLong(t *testing.T) {
	m := newQA(t, YamsScreen)
	press(m, "f", "tab", "tab", "tab")
	long := "/start" + strings.Repeat("/abcdefghij", 20) + "/end.jsonl"
	paste(m, long)
	got := field(t, m)
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "/end.jsonl") || len([]rune(got)) > 74 {
		t.Errorf("at the end, the field shows %q", got)
	}
	press(m, "home")
	got = field(t, m)
	if !strings.HasPrefix(got, "/start/abc") || !strings.HasSuffix(got, "…") || len([]rune(got)) > 74 {
		t.Errorf("at the start, the field shows %q", got)
	}
}

// TestQAPanelFooterFits: at the smallest window, in both languages, every
// tab's bottom line says at least how to change tabs and how to close the
// panel (the editing keys come last, and are left out first).
func TestQAPanelFooterFits(t *testing.T) {
	for _, c := range []struct {
		lang      Lang
		tab, quit string
	}{{English, "tab mode", "esc close"}, {French, "tab mode", "échap fermer"}} {
		for _, start := range []Screen{YamsScreen, VegasScreen} {
			m := open(t, Options{Lang: c.lang, Balance: decimal.NewFromInt(100), Start: start, QA: true}, MinWidth, MinHeight, session.Options{Seed: game.SeedFrom(42)})
			press(m, "f")
			for range 4 {
				if got := lastLine(m); !strings.Contains(got, c.tab) || !strings.Contains(got, c.quit) {
					t.Errorf("%v: the bottom line %q leaves out tab or esc", start, got)
				}
				press(m, "tab")
			}
		}
	}
}
