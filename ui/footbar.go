package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The bottom line's buttons: the whole game by mouse. Left of the keys'
// help, each screen that esc leaves has a Back button (a game's goes to
// the menu), and tapis replay its previous, next and Quit buttons; a click
// does what the key does. They are drawn as chips, which the mouse hits,
// and nothing else on the line is.

// footButton is one of the bottom line's buttons: what a click on it hits,
// and its text's key.
type footButton struct {
	t     target
	label string
	says  key.Binding // the key it does the work of: the line's help leaves it to the button
}

// footButtonKey is a bottom-line button as drawn.
type footButtonKey struct{ label string }

// footButtons returns the bottom line's buttons of the screen on show:
// none on the menu, over a modal (the reality check, the QA panel, which
// have their own), in the kiosk's attract loop, nor while a notice takes
// the line (until the next key or click, which any click anywhere is).
func (m *Model) footButtons() []footButton {
	if m.reality.open || m.panel != nil || m.demo.on || len(m.notices) > 0 {
		return nil
	}
	var bs []footButton
	switch s := m.nav.screen; {
	case s == YamsScreen || s == VegasScreen:
		bs = []footButton{{target{kind: backTarget}, "b.menu", m.keys.global.Menu}}
	case overlay(s):
		bs = []footButton{{target{kind: backTarget}, "b.back", m.keys.global.Back}}
	}
	if f, ok := m.current().(footed); ok {
		bs = append(bs, f.footButtons()...)
	}
	return bs
}

// footed is a screen with buttons of its own on the bottom line, after
// Back: a click on one is the screen's.
type footed interface{ footButtons() []footButton }

// footButtons are the replay's: the layout before, the next one, Quit.
func (s *replayScreen) footButtons() []footButton {
	r := s.keys.replay
	return []footButton{{target{kind: prevTarget}, "b.prev", r.Page}, {target{kind: nextTarget}, "b.next", r.Page},
		{target{kind: quitTarget}, "b.quit", s.keys.global.Quit}}
}

// footButtons are the rules': the other game's rules (tab).
func (s *rulesScreen) footButtons() []footButton {
	if s.vegas {
		return []footButton{{target{kind: switchTarget}, "b.rules.yams", s.keys.list.Switch}}
	}
	return []footButton{{target{kind: switchTarget}, "b.rules.vegas", s.keys.list.Switch}}
}

// footButtons are the stats': the game and stake before, the next one
// (←, tab), when more than one was played.
func (s *statsScreen) footButtons() []footButton {
	if len(s.sequences()) < 2 {
		return nil
	}
	k := s.keys.stats
	return []footButton{{target{kind: prevTarget}, "b.prev", k.Prev}, {target{kind: nextTarget}, "b.next", k.Next}}
}

// footLayers appends the bottom line to layers: its buttons, then the
// keys' help (or a notice) in the width left.
func (m *Model) footLayers(layers []layer) []layer {
	x, y := 1, m.height-1
	bs := m.footButtons()
	for _, b := range bs {
		label := b.label // one of footButtons' keys, written out there
		d := drawn(m.common, footButtonKey{label}, func() string { return m.st.barButton.Render(m.t.get(label)) })
		layers = append(layers, named(b.t, area{x, y, d.w, 1}, d))
		x += d.w + 1
	}
	return append(layers, place(area{x, y, m.width - x, 1}, m.footer(m.width-x, bs)))
}

// onFootButton does what a click on a bottom-line button does, and
// reports whether the target was one.
func (m *Model) onFootButton(t target) (tea.Cmd, bool) {
	switch t.kind {
	case backTarget:
		m.escape()
		return nil, true
	case quitTarget:
		return tea.Quit, true
	}
	return nil, false
}

// truncated cuts a line of text to w cells, with an ellipsis when it is
// cut.
func truncated(s string, w int) string { return ansi.Truncate(s, max(0, w), "…") }

// withoutButtons returns the bindings but those the buttons do the work
// of (the same keys and help): the bottom line says each thing once.
func withoutButtons(bs []key.Binding, buttons []footButton) []key.Binding {
	if len(buttons) == 0 {
		return bs
	}
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if !slices.ContainsFunc(buttons, func(f footButton) bool {
			return b.Help() == f.says.Help() && slices.Equal(b.Keys(), f.says.Keys())
		}) {
			out = append(out, b)
		}
	}
	return out
}
