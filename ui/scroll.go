package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// wheelStep is how many lines (the rules, the help) or rows (the history)
// a notch of the mouse wheel moves.
const wheelStep = 3

// scroller is a text that scrolls in a viewport, with the list keys (↑↓
// and k/j, PgUp/PgDn, Home/End) and the mouse wheel: the rules and the
// help. Its zero value is ready to use.
type scroller struct {
	vp      viewport.Model
	ready   bool     // vp is set up with the list keys
	content string   // the text the viewport holds
	text    *drawing // the same, measured
}

// setUp makes the viewport scroll with the list keys (neither h nor f,
// which History and the QA panel take, nor half pages) and the wheel.
func (s *scroller) setUp(k listKeys) {
	if s.ready {
		return
	}
	off := key.NewBinding(key.WithDisabled())
	s.vp = viewport.New()
	s.vp.KeyMap = viewport.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: off, HalfPageDown: off, Left: off, Right: off}
	s.vp.MouseWheelDelta = wheelStep
	s.vp.SetHorizontalStep(0)
	s.ready = true
}

// fit gives the viewport its size and text, keeping the offset (within
// the new text). It reports whether the text changed.
func (s *scroller) fit(k listKeys, w, h int, text *drawing) bool {
	s.setUp(k)
	s.vp.SetWidth(max(0, w))
	s.vp.SetHeight(max(0, h))
	changed := false
	if text != s.text {
		// The same drawing is the same text; another (drawn again once
		// the memo was emptied) may still say the same.
		content := text.String()
		changed = content != s.content
		s.content, s.text = content, text
		if changed {
			s.vp.SetContent(content)
		}
	}
	s.vp.SetYOffset(s.vp.YOffset()) // within the text at this height
	return changed
}

// update scrolls on the list keys and the wheel.
func (s *scroller) update(k listKeys, msg tea.Msg) {
	s.setUp(k)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Home):
			s.vp.GotoTop()
		case key.Matches(msg, k.End):
			s.vp.GotoBottom()
		case key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown):
			s.vp, _ = s.vp.Update(msg)
		}
	case tea.MouseWheelMsg:
		s.vp, _ = s.vp.Update(msg)
	}
}

// sized reports whether the viewport was given a text at this size.
func (s *scroller) sized(w, h int) bool {
	return s.ready && s.vp.Width() == max(0, w) && s.vp.Height() == max(0, h)
}

// scrolls reports whether the text is taller than the viewport.
func (s *scroller) scrolls() bool { return s.vp.TotalLineCount() > s.vp.Height() }

// top goes back to the text's first line.
func (s *scroller) top() { s.vp.GotoTop() }

// draw returns the lines in view: those the viewport's View shows, as
// they are (its text is no wider than it), measured once, without the
// spaces View pads every line and the rows below the text with, which
// paint fills anyway.
func (s *scroller) draw() *drawing {
	if s.text == nil {
		return measure("")
	}
	from := min(s.vp.YOffset(), s.text.height())
	return s.text.rows(from, min(from+s.vp.Height(), s.text.height()))
}
