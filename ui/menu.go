package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// menuEntry is an entry of the menu.
type menuEntry uint8

// The menu's entries, in order.
const (
	entryYams menuEntry = iota
	entryVegas
	entryHistory
	entryRules
	entryStats
	entryQuit
)

// entryKeys are the entries' text keys.
var entryKeys = [...]string{entryYams: "yams", entryVegas: "vegas", entryHistory: "history",
	entryRules: "rules", entryStats: "stats", entryQuit: "quit"}

// menuScreen is the menu and its cursor.
type menuScreen struct {
	*common
	cursor int
}

const logo = `╺┳╸┏━┓┏━┓╻┏━┓
 ┃ ┣━┫┣━┛┃┗━┓
 ╹ ╹ ╹╹  ╹┗━┛`

// menuKey is the menu as laid out in a body.
type menuKey struct {
	body    area
	cursor  int
	entries int
}

func (s *menuScreen) layers(body area) []layer {
	entries := s.entries()
	// The menu depends only on the cursor, the entries and the body.
	return memo(s.common, menuKey{body, s.cursor, len(entries)}, func() []layer {
		drawn := measure(s.draw(entries))
		top := drawn.height() - len(entries) // the entries' first row, counted in lines drawn
		w := drawn.widths[0]
		a := body.centered(w, drawn.height())
		layers := []layer{place(a, drawn.rows(0, top))}
		for i := range entries {
			// Each entry is its own named layer: where it is drawn is where it is hit.
			layers = append(layers, named(target{menuTarget, i}, area{a.x, a.y + top + i, w, 1}, drawn.rows(top+i, top+i+1)))
		}
		return layers
	})
}

// draw draws the caption and the entries, the cursor's lit, each line as
// wide as the widest.
func (s *menuScreen) draw(entries []menuEntry) string {
	head := lipgloss.JoinVertical(lipgloss.Center, s.st.logo.Render(logo), "", s.st.dim.Render(s.t.get("menu.hint")), "")
	rows := []string{head}
	if s.guest != "" { // a guest: what becomes of the account, and how to keep one
		rows = append(rows, s.st.note.Render(s.t.get("menu.guest")), s.st.dim.Render(s.t.f("menu.guest.keep", s.guest)), "")
	}
	for i, e := range entries {
		label := fmt.Sprintf("%d  %s", i+1, s.t.get(entryKeys[e]))
		style := s.st.menuItem
		if i == s.cursor {
			style = s.st.menuOn
		}
		if s.plain {
			// Without colours the reverse video may not show (TERM=dumb):
			// a marker says where the cursor is.
			label = cursorMark(i == s.cursor) + label
			style = style.PaddingLeft(0)
		}
		rows = append(rows, style.Width(24).Render(label))
	}
	w := 0
	for _, r := range rows {
		w = max(w, lipgloss.Width(r))
	}
	for i, r := range rows {
		rows[i] = lipgloss.PlaceHorizontal(w, lipgloss.Center, r)
	}
	return strings.Join(rows, "\n")
}

// entries are the menu's entries: the kiosk has no Quit for its visitors.
func (s *menuScreen) entries() []menuEntry {
	all := []menuEntry{entryYams, entryVegas, entryHistory, entryRules, entryStats, entryQuit}
	if s.kiosk {
		return all[:len(all)-1]
	}
	return all
}

func (s *menuScreen) update(msg tea.Msg) tea.Cmd {
	n := len(s.entries())
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		k := s.keys.menu
		switch {
		case key.Matches(msg, k.Up):
			s.cursor = (s.cursor + n - 1) % n
		case key.Matches(msg, k.Down):
			s.cursor = (s.cursor + 1) % n
		case key.Matches(msg, k.Choose):
			return s.choose(s.cursor)
		}
		for i, entry := range k.Entries[:n] {
			if key.Matches(msg, entry) {
				s.cursor = i
				return s.choose(i)
			}
		}
	case clickMsg:
		if !msg.drag && msg.target.kind == menuTarget && msg.target.n < n {
			s.cursor = msg.target.n
			return s.choose(msg.target.n)
		}
	}
	return nil
}

func (s *menuScreen) choose(i int) tea.Cmd {
	switch s.entries()[i] {
	case entryYams:
		s.nav.goTo(YamsScreen)
	case entryVegas:
		s.nav.goTo(VegasScreen)
	case entryHistory:
		s.nav.open(HistoryScreen)
	case entryRules:
		s.nav.open(RulesScreen)
	case entryStats:
		s.nav.open(StatsScreen)
	case entryQuit:
		return tea.Quit
	}
	return nil
}

func (s *menuScreen) keyMap() keyMap {
	return s.keyMapOf(keyMapKey{s: MenuScreen}, func() keyMap { // the entries are the session's
		k := s.keys.menu
		n := len(s.entries())
		number := group(fmt.Sprintf("1-%d", n), k.Number.Help().Desc, k.Entries[:n]...)
		own := []key.Binding{k.Up, k.Choose, number}
		return s.withGlobal(MenuScreen, own, own)
	})
}

// cursorMark is the marker of the row a cursor is on, without colours,
// and the blank of the same width before the other rows.
func cursorMark(on bool) string {
	if on {
		return "▸ "
	}
	return "  "
}
