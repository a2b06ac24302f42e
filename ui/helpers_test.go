package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"
)

func d100() decimal.Decimal { return decimal.NewFromInt(100) }

func sizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
