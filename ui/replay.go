package ui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tapis/game/lottery"
	"tapis/session"
	safe "tapis/text"
	"tapis/wallet"
)

// ReplayScreen shows layouts read from a file, uncovered, without a wallet
// (tapis replay FILE).
const ReplayScreen Screen = 100

// replayScreen is the list of layouts of `tapis replay` and the one shown.
type replayScreen struct {
	*common
	entries []lottery.Entry
	at      int
	invalid int  // invalid layouts of the file, listed on standard error once the terminal is back
	leftOut bool // the file held more layouts than are shown
}

// NewReplay returns a model that shows the given layouts (valid entries of
// a layout file), one at a time, fully revealed. The header counts the
// invalid layouts (the program lists them on standard error once the
// terminal is given back) and says when the file held more layouts than
// are shown. A replay buys nothing: its session is an empty one in memory.
func NewReplay(entries []lottery.Entry, lang Lang, invalid int, leftOut bool) (*Model, error) {
	sess, err := session.Open(session.Options{})
	if err != nil {
		return nil, err
	}
	m := New(sess, Options{Lang: lang, Start: ReplayScreen})
	m.screens[ReplayScreen] = &replayScreen{common: m.common, entries: entries, invalid: invalid, leftOut: leftOut}
	return m, nil
}

func (s *replayScreen) update(msg tea.Msg) tea.Cmd {
	n := len(s.entries)
	if c, ok := msg.(clickMsg); ok && !c.drag { // the bottom line's buttons
		switch c.target.kind {
		case prevTarget:
			s.at = max(0, s.at-1)
		case nextTarget:
			s.at = min(n-1, s.at+1)
		}
		return nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	r := s.keys.replay
	switch {
	case key.Matches(k, r.Next):
		s.at = min(n-1, s.at+1)
	case key.Matches(k, r.Prev):
		s.at = max(0, s.at-1)
	case key.Matches(k, r.First):
		s.at = 0
	case key.Matches(k, r.Last):
		s.at = n - 1
	}
	return nil
}

func (s *replayScreen) keyMap() keyMap {
	return s.keyMapOf(keyMapKey{s: ReplayScreen}, func() keyMap {
		r, g := s.keys.replay, s.keys.global
		return keyMap{short: []key.Binding{r.Page, g.Help, g.Quit},
			full: [][]key.Binding{{r.Next, r.Prev, r.First, r.Last}, {g.Help, g.Quit}}}
	})
}

// layers shows the current layout like a unit of the history.
func (s *replayScreen) layers(body area) []layer {
	return memo(s.common, replayKey{body, s.at, s.party.flashing()}, func() []layer {
		e := s.entries[s.at]
		caption := s.t.f("replay.line", e.Line)
		if e.Unit != "" {
			caption = safe.Printable(e.Unit) + " · " + caption
		}
		p := session.Played{Op: wallet.Operation{Unit: caption, Stake: e.Layout.Stake(), Prize: e.Layout.Score().Prize()},
			Sold: lottery.Sold{Layout: e.Layout}}
		return s.replayLayers(body, &p)
	})
}

// replayKey is a layout of the file shown, in a body, its big win's
// banner flashing or not.
type replayKey struct {
	body  area
	at    int
	flash bool
}

// replayHeaderKey is the header's right side in replay mode.
type replayHeaderKey struct{ at int }

// header is the header's right side in replay mode: where we are in the
// file.
func (s *replayScreen) header() string {
	return memo(s.common, replayHeaderKey{s.at}, func() string {
		said := ""
		if n := s.invalid; n > 0 {
			said = s.st.bad.Render(s.t.count("replay.said", n, n)) + s.st.header.Render("   ")
		}
		if s.leftOut {
			said += s.st.bad.Render(s.t.f("replay.leftout", len(s.entries))) + s.st.header.Render("   ")
		}
		return said + s.st.label.Render(s.t.get("replay.title")+" ") +
			s.st.value.Render(strconv.Itoa(s.at+1)+"/"+strconv.Itoa(len(s.entries))) + s.st.header.Render(" ")
	})
}
