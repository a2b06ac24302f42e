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
	switch s := m.nav.screen; {
	case s == ReplayScreen:
		return []footButton{{target{kind: prevTarget}, "b.prev"}, {target{kind: nextTarget}, "b.next"},
			{target{kind: quitTarget}, "b.quit"}}
	case s == YamsScreen || s == VegasScreen:
		return []footButton{{target{kind: backTarget}, "b.menu"}}
	case overlay(s):
		return []footButton{{target{kind: backTarget}, "b.back"}}
	}
	return nil
}

// footLayers appends the bottom line to layers: its buttons, then the
// keys' help (or a notice) in the width left.
func (m *Model) footLayers(layers []layer) []layer {
	x, y := 1, m.height-1
	for _, b := range m.footButtons() {
		label := b.label // one of footButtons' keys, written out there
		d := drawn(m.common, footButtonKey{label}, func() string { return m.st.chip.Render(" " + m.t.get(label) + " ") })
		layers = append(layers, named(b.t, area{x, y, d.w, 1}, d))
		x += d.w + 1
	}
	return append(layers, place(area{x, y, m.width - x, 1}, m.footer(m.width-x)))
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

// backButton reports whether the bottom line shows a Back button.
func (m *Model) backButton() bool {
	for _, b := range m.footButtons() {
		if b.t.kind == backTarget {
			return true
		}
	}
	return false
}

// withoutBack returns the bindings but back's (the same keys and help).
func withoutBack(bs []key.Binding, back key.Binding) []key.Binding {
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if b.Help() != back.Help() || !slices.Equal(b.Keys(), back.Keys()) {
			out = append(out, b)
		}
	}
	return out
}
