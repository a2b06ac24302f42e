package server

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"tapis/ui"
)

// sync waits until the screen has drawn every frame handed in.
func (s *screen) sync() {
	for {
		s.mu.Lock()
		done := s.drawn == s.handed
		s.mu.Unlock()
		if done {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// randomFrame is a frame of h lines of styled runs: plain and coloured
// text, wide characters, blank lines, lines shorter and longer than w;
// given the frame before (its runs), it changes a few of them, as frames
// follow each other.
func randomFrame(r *rand.Rand, w, h int, before [][]int) (string, [][]int) {
	styles := []lipgloss.Style{
		lipgloss.NewStyle(),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#f5f1e6")).Background(lipgloss.Color("#1e5e3b")),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#1b1b1b")).Background(lipgloss.Color("#f5f1e6")),
		lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#d4a017")),
		lipgloss.NewStyle().Foreground(lipgloss.Color("#888888")).Underline(true),
	}
	words := []string{"Mise", "1,00 €", "●", "▐", "▌", "  ", "Yam's", "é", "日本", "♦", "─────", " ", "     ", "● ●"}
	runs := make([][]int, h) // each run: a style and a word, as one number
	for y := range h {
		switch {
		case before != nil && r.IntN(3) > 0:
			runs[y] = append([]int(nil), before[y]...)
			for range r.IntN(3) {
				if len(runs[y]) > 0 {
					runs[y][r.IntN(len(runs[y]))] = r.IntN(len(styles) * len(words))
				}
			}
		case r.IntN(5) > 0:
			for range r.IntN(w/3 + 2) {
				runs[y] = append(runs[y], r.IntN(len(styles)*len(words)))
			}
		}
	}
	lines := make([]string, h)
	for y, line := range runs {
		var b strings.Builder
		for _, k := range line {
			b.WriteString(styles[k/len(words)].Render(words[k%len(words)]))
		}
		lines[y] = b.String()
	}
	return strings.Join(lines, "\n"), runs
}

// emulated is what a terminal of w×h shows after out: each cell's text
// and style, line by line.
func emulated(w, h int, out ...[]byte) string {
	e := vt.NewEmulator(w, h)
	for _, o := range out {
		e.Write(o) //nolint:errcheck // an emulator takes everything
	}
	var b strings.Builder
	for y := range h {
		for x := range w {
			c := e.CellAt(x, y)
			if c == nil {
				b.WriteString("·")
				continue
			}
			fmt.Fprintf(&b, "%s%v|", c.Content, c.Style)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestScreenDrawsWhatAWholeFrameDraws draws random frames one after the
// other through a screen, then checks that a terminal shows after them
// what it shows when the last frame is written whole on a clear screen,
// its colours turned to the session's profile, cell by cell, text and
// style.
func TestScreenDrawsWhatAWholeFrameDraws(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const w, h = 40, 12
	profiles := []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII}
	for round := range 400 {
		out := &syncBuffer{}
		profile := profiles[round%len(profiles)]
		scr := newScreen(out, w, h, profile, &styleMemo{}, nil, nil)
		var last string
		var runs [][]int
		for range 1 + r.IntN(6) {
			last, runs = randomFrame(r, w, h, runs)
			v := tea.NewView(last)
			v.AltScreen = true
			if round%2 == 0 { // as a game hands them: rows
				rows := strings.Split(last, "\n")
				v.Content = ""
				scr.set(v, rows, ui.HeaderTime{})
			} else {
				scr.set(v, nil, ui.HeaderTime{})
			}
			scr.sync()
		}
		var whole bytes.Buffer
		cw := colorprofile.Writer{Forward: &whole, Profile: profile}
		cw.WriteString("\x1b[H\x1b[2J" + strings.ReplaceAll(clipped(last, w, h), "\n", "\r\n")) //nolint:errcheck // a buffer takes everything
		got, want := strings.Split(emulated(w, h, []byte(out.String())), "\n"), strings.Split(emulated(w, h, whole.Bytes()), "\n")
		for y := range got {
			if got[y] != want[y] {
				g, wa := strings.Split(got[y], "|"), strings.Split(want[y], "|")
				for x := range g {
					if g[x] != wa[x] {
						t.Fatalf("round %d: line %d, column %d shows %q, want %q; the frame's line %q",
							round, y, x, g[x], wa[x], strings.Split(last, "\n")[y])
					}
				}
			}
		}
		scr.close()
	}
}

// clipped is a frame cut to w×h, as a terminal that wrapped nothing
// would show it.
func clipped(frame string, w, h int) string {
	lines := strings.Split(frame, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = ansi.TruncateWc(l, w, "")
	}
	return strings.Join(lines, "\n")
}

// TestNarrow holds narrow to the grapheme segmenter: each rune it reads
// alone is one cluster of one column, followed by any other it reads.
func TestNarrow(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		if !narrow(r) {
			continue
		}
		for _, next := range []string{"", "a", "\x1b[m", "●", string(r)} {
			s := string(r) + next
			g, w := ansi.FirstGraphemeCluster(s, ansi.WcWidth)
			if g != string(r) || w != 1 {
				t.Fatalf("%U before %q: the segmenter reads %q, %d wide", r, next, g, w)
			}
		}
	}
}

// TestScreenClearsTheVisibleScreen: the first frame and the first after a
// resize are drawn on a screen cleared with ED 2, which clears what the
// terminal shows. ED 3 clears only the scrollback in xterm, tmux and VTE
// (x/vt clears everything for both, so the emulated tests cannot tell):
// the frame drawn before a resize showed through every cell the next left
// plain.
func TestScreenClearsTheVisibleScreen(t *testing.T) {
	out := &syncBuffer{}
	scr := newScreen(out, 20, 4, colorprofile.ANSI, &styleMemo{}, nil, nil)
	defer scr.close()
	scr.set(tea.NewView("first\nframe"), nil, ui.HeaderTime{})
	scr.sync()
	if !strings.Contains(out.String(), ansi.EraseEntireScreen) {
		t.Errorf("the first frame: %q, want the screen cleared (%q)", out.String(), ansi.EraseEntireScreen)
	}
	before := len(out.String())
	scr.resize(30, 6)
	scr.set(tea.NewView("after\nresize"), nil, ui.HeaderTime{})
	scr.sync()
	after := out.String()[before:]
	if !strings.Contains(after, ansi.EraseEntireScreen) || strings.Contains(after, ansi.EraseEntireDisplay) {
		t.Errorf("after a resize: %q, want the visible screen cleared (%q), not only the scrollback (%q)",
			after, ansi.EraseEntireScreen, ansi.EraseEntireDisplay)
	}
}
