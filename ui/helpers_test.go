package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/wallet"
)

// update is -update, which rewrites the golden files. teatest's golden
// package defines the same flag, with the same meaning, when it is linked.
var update = func() *bool {
	if flag.Lookup("update") != nil {
		return nil
	}
	return flag.Bool("update", false, "rewrite the golden files")
}()

// updating reports whether -update was given.
func updating() bool {
	if update != nil {
		return *update
	}
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// fixedClock is a clock that does not move, so screens do not either.
func fixedClock() time.Time { return time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC) }

// newModel returns a session seeded with 42, sized w×h.
func newModel(t testing.TB, lang Lang, start Screen, w, h int) *Model {
	t.Helper()
	m, err := New(Options{Lang: lang, Balance: decimal.NewFromInt(100), Seed: 42, Start: start, Now: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// keyMsg builds the message of a key as Bubble Tea reads it.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+z":
		return tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// press sends keys to the model and returns the last command.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(keyMsg(k))
	}
	return cmd
}

// settle runs the animations to their end by sending the ticks they would
// receive, without waiting.
func settle(m *Model) {
	for range 1000 {
		moved := false
		for i := range m.yams.phase {
			if m.yams.phase[i] == cupRolling {
				m.Update(tickMsg{id: "cup:" + strconv.Itoa(i), gen: m.yams.gen[i]})
				moved = true
			}
		}
		if m.vegas.autoOn {
			m.Update(tickMsg{id: "vegas:all", gen: m.vegas.gen})
			moved = true
		}
		if !moved {
			return
		}
	}
}

// screen returns what the terminal shows, without colours.
func screen(m *Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// golden compares got with testdata/golden/name.txt; -update rewrites it.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update to write it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from %s (go test ./ui -update rewrites it):\n%s", name, path, got)
	}
}

// find returns a cell inside the layer named id, by asking the same layers
// the view draws: the tests click where a player would.
func find(t *testing.T, m *Model, id string) (int, int) {
	t.Helper()
	f := lipgloss.NewCompositor(m.layers()...)
	for y := range m.height {
		for x := range m.width {
			if h := f.Hit(x, y); !h.Empty() && h.ID() == id {
				b := h.Bounds()
				return b.Min.X + b.Dx()/2, b.Min.Y + b.Dy()/2
			}
		}
	}
	t.Fatalf("no layer %q on screen:\n%s", id, screen(m))
	return 0, 0
}

func click(m *Model, x, y int) tea.Cmd {
	_, cmd := m.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	return cmd
}

func sizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// clickOn clicks in the middle of the layer named id.
func clickOn(t *testing.T, m *Model, id string) tea.Cmd {
	t.Helper()
	x, y := find(t, m, id)
	return click(m, x, y)
}

// lastOp returns the purchase of the session's newest unit.
func lastOp(m *Model) wallet.Operation {
	r := m.session.Recent()
	return r[len(r)-1].Op
}
