package ui

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// statsScreen shows the session's figures as charts.
type statsScreen struct {
	*common
}

func newStatsScreen(c *common) *statsScreen { return &statsScreen{common: c} }

func (s *statsScreen) update(tea.Msg) tea.Cmd { return nil }

func (s *statsScreen) keyMap() keyMap {
	return s.withGlobal(StatsScreen, nil, nil)
}

func (s *statsScreen) layers(body area) []*lipgloss.Layer {
	return nil
}
