package ui

import (
	"fmt"

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

func (s *menuScreen) layers(body area) []*lipgloss.Layer {
	head := lipgloss.JoinVertical(lipgloss.Center, s.st.logo.Render(logo), "", s.st.dim.Render(s.t.get("menu.hint")), "")
	var entries []string
	for i, e := range s.entries() {
		label := fmt.Sprintf("%d  %s", i+1, s.t.get(entryKeys[e]))
		style := s.st.menuItem
		if i == s.cursor {
			style = s.st.menuOn
		}
		entries = append(entries, style.Width(24).Render(label))
	}
	w := max(lipgloss.Width(head), lipgloss.Width(entries[0]))
	top := lipgloss.Height(head) // the entries' first row, counted in lines drawn
	a := body.centered(w, top+len(entries))
	layers := []*lipgloss.Layer{place(area{a.x, a.y, w, top}, lipgloss.PlaceHorizontal(w, lipgloss.Center, head))}
	for i, e := range entries {
		// Each entry is its own named layer: where it is drawn is where it is hit.
		layers = append(layers, layer(target{menuTarget, i}, area{a.x, a.y + top + i, w, 1}, lipgloss.PlaceHorizontal(w, lipgloss.Center, e)))
	}
	return layers
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
	k := s.keys.menu
	n := len(s.entries())
	number := group(fmt.Sprintf("1-%d", n), k.Number.Help().Desc, k.Entries[:n]...)
	own := []key.Binding{k.Up, k.Choose, number}
	return s.withGlobal(MenuScreen, own, own)
}
