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
	var rows []string
	rows = append(rows, m.st.logo.Render(logo), "", m.st.dim.Render(m.t.get("menu.hint")), "")
	top := len(rows)
	for i, item := range menuItems {
		label := fmt.Sprintf("%d  %s", i+1, m.t.get(item))
		style := m.st.menuItem
		if i == m.menu.cursor {
			style = m.st.menuOn
		}
		rows = append(rows, style.Width(24).Render(label))
	}
	block := lipgloss.JoinVertical(lipgloss.Center, rows...)
	a := body.centered(lipgloss.Width(block), lipgloss.Height(block))
	layers := []*lipgloss.Layer{layer("", a, block)}
	rowsOf := strings.Split(block, "\n")
	for i := range menuItems {
		// Each entry's row again, named, on top of the block: what is seen is hit.
		layers = append(layers, layer("menu:"+strconv.Itoa(i), area{a.x, a.y + top + i, a.w, 1}, rowsOf[top+i]))
	}
	return layers
}

func (m *Model) menuKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.menu
	switch {
	case key.Matches(msg, k.Up):
		m.menu.cursor = (m.menu.cursor + len(menuItems) - 1) % len(menuItems)
	case key.Matches(msg, k.Down):
		m.menu.cursor = (m.menu.cursor + 1) % len(menuItems)
	case key.Matches(msg, k.Choose):
		return m.choose(m.menu.cursor)
	default:
		if n, err := strconv.Atoi(msg.String()); err == nil && n >= 1 && n <= len(menuItems) {
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
	i, _ := strconv.Atoi(n)
	m.menu.cursor = i
	return m.choose(i), true
}

func (m *Model) choose(i int) tea.Cmd {
	switch menuItems[i] {
	case "yams":
		m.screen = YamsScreen
	case "vegas":
		m.screen = VegasScreen
	case "history":
		m.openHistory()
	case "rules":
		m.screen = RulesScreen
	case "quit":
		return tea.Quit
	}
	return nil
}
