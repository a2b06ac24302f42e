package server

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// sizedModel draws its size, and nothing before it has one.
type sizedModel struct{ w, h int }

func (m *sizedModel) Init() tea.Cmd { return nil }

func (m *sizedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg, ok := msg.(tea.WindowSizeMsg); ok {
		m.w, m.h = msg.Width, msg.Height
	}
	return m, nil
}

func (m *sizedModel) View() tea.View {
	if m.w == 0 {
		return tea.View{}
	}
	return tea.View{Content: strings.Repeat("menu\n", m.h-1) + "menu"}
}

// TestPacedFirstFrameAtTheSize: Bubble Tea's first messages, the colour
// profile then the size, come microseconds apart; the first frame is
// drawn at the size, at once, not a frame's turn after a frame of nothing
// drawn for the colour profile (which put every session's menu 40 ms
// late). The next message within the turn waits for it.
func TestPacedFirstFrameAtTheSize(t *testing.T) {
	var out syncBuffer
	scr := newScreen(&out, 20, 3, colorprofile.ANSI, &styleMemo{}, nil)
	p := newPaced(&sizedModel{}, scr)
	if _, cmd := p.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI}); cmd != nil || p.due {
		t.Errorf("the colour profile, before the size: a frame's turn is waited for (due %v)", p.due)
	}
	handed := func() int { scr.mu.Lock(); defer scr.mu.Unlock(); return scr.handed }
	if n := handed(); n != 0 {
		t.Errorf("%d frames handed in before the model has its size, want none", n)
	}
	if _, cmd := p.Update(tea.WindowSizeMsg{Width: 20, Height: 3}); cmd != nil || p.due {
		t.Errorf("the size: the first frame waits for a turn (due %v), want it drawn at once", p.due)
	}
	if n := handed(); n != 1 {
		t.Errorf("%d frames handed in at the size, want 1", n)
	}
	if _, cmd := p.Update(tea.KeyPressMsg{Code: 'a'}); cmd == nil || !p.due {
		t.Error("a key within the first frame's turn is drawn at once, want it at its turn")
	}
	p.end(false)
	if !strings.Contains(out.String(), "menu") {
		t.Errorf("the screen wrote %q, want the menu", out.String())
	}
}

// TestPacedNoSizeIsTheScreens: a PTY of no size (OpenSSH's -tt from a
// pipe sends 0×0) is drawn at 80×24, and the model is given that size
// too: given 0×0, it drew nothing but the modes.
func TestPacedNoSizeIsTheScreens(t *testing.T) {
	var out syncBuffer
	scr := newScreen(&out, noSizeWidth, noSizeHeight, colorprofile.ANSI, &styleMemo{}, nil)
	m := &sizedModel{}
	p := newPaced(m, scr)
	p.Update(tea.WindowSizeMsg{})
	if m.w != noSizeWidth || m.h != noSizeHeight {
		t.Errorf("the model was given %dx%d, want %dx%d", m.w, m.h, noSizeWidth, noSizeHeight)
	}
	p.end(false)
	if !strings.Contains(out.String(), "menu") {
		t.Errorf("the screen wrote %q, want the menu", out.String())
	}
}
