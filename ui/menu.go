package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// menuState is the menu's cursor.
type menuState struct{ cursor int }

// menuItems are the menu's entries, in order, as text keys.
var menuItems = [...]string{"yams", "vegas", "history", "rules", "quit"}

const logo = `╺┳╸┏━┓┏━┓╻┏━┓
 ┃ ┣━┫┣━┛┃┗━┓
 ╹ ╹ ╹╹  ╹┗━┛`

func (m *Model) menuLayers(body area) []*lipgloss.Layer {
	head := lipgloss.JoinVertical(lipgloss.Center, m.st.logo.Render(logo), "", m.st.dim.Render(m.t.get("menu.hint")), "")
	var entries []string
	for i, item := range m.menuItems() {
		label := fmt.Sprintf("%d  %s", i+1, m.t.get(item))
		style := m.st.menuItem
		if i == m.menu.cursor {
			style = m.st.menuOn
		}
		entries = append(entries, style.Width(24).Render(label))
	}
	w := max(lipgloss.Width(head), lipgloss.Width(entries[0]))
	top := lipgloss.Height(head) // the entries' first row, counted in lines drawn
	a := body.centered(w, top+len(entries))
	layers := []*lipgloss.Layer{layer("", area{a.x, a.y, w, top}, lipgloss.PlaceHorizontal(w, lipgloss.Center, head))}
	for i, e := range entries {
		// Each entry is its own named layer: where it is drawn is where it is hit.
		layers = append(layers, layer("menu:"+strconv.Itoa(i), area{a.x, a.y + top + i, w, 1}, lipgloss.PlaceHorizontal(w, lipgloss.Center, e)))
	}
	return layers
}

// menuItems are the menu's entries: the kiosk has no Quit for its visitors.
func (m *Model) menuItems() []string {
	if m.demo.enabled {
		return menuItems[:len(menuItems)-1]
	}
	return menuItems[:]
}

func (m *Model) menuKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.menu
	n := len(m.menuItems())
	switch {
	case key.Matches(msg, k.Up):
		m.menu.cursor = (m.menu.cursor + n - 1) % n
	case key.Matches(msg, k.Down):
		m.menu.cursor = (m.menu.cursor + 1) % n
	case key.Matches(msg, k.Choose):
		return m.choose(m.menu.cursor)
	default:
		if n, err := strconv.Atoi(msg.String()); err == nil && n >= 1 && n <= len(m.menuItems()) {
			m.menu.cursor = n - 1
			return m.choose(n - 1)
		}
	}
	return nil
}

// menuClick acts on a click on a menu entry.
func (m *Model) menuClick(id string) (tea.Cmd, bool) {
	n, ok := strings.CutPrefix(id, "menu:")
	if !ok || m.screen != MenuScreen {
		return nil, false
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 0 || i >= len(m.menuItems()) {
		return nil, false
	}
	m.menu.cursor = i
	return m.choose(i), true
}

func (m *Model) choose(i int) tea.Cmd {
	switch m.menuItems()[i] {
	case "yams":
		m.goTo(YamsScreen)
	case "vegas":
		m.goTo(VegasScreen)
	case "history":
		m.openHistory()
	case "rules":
		m.open(RulesScreen)
	case "quit":
		return tea.Quit
	}
	return nil
}
