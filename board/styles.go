package board

import (
	"charm.land/lipgloss/v2"

	"tapis/chart"
	"tapis/ui"
)

// styles is the look of the board: the game's colours (the header's plum,
// the gold of prizes, the felt's green). Without colours (NO_COLOR, a
// dumb terminal) the header shows in reverse video and the bars read by
// their characters: full blocks for the lots left, a light shade for
// those gone, ┃ for the share of the block left.
type styles struct {
	header, brand, headerDim lipgloss.Style
	title, dim, value, note  lipgloss.Style
	win, fresh, spark, box   lipgloss.Style
	bars                     chart.BarStyles
}

// newStyles builds the look for a terminal without colours (plain) or
// with, on a dark background or a light one.
func newStyles(plain, dark bool) styles {
	if plain {
		bold := lipgloss.NewStyle().Bold(true)
		return styles{
			header: lipgloss.NewStyle().Reverse(true), brand: lipgloss.NewStyle().Reverse(true).Bold(true),
			headerDim: lipgloss.NewStyle().Reverse(true),
			title:     bold, dim: lipgloss.NewStyle(), value: bold, note: bold,
			win: lipgloss.NewStyle(), fresh: lipgloss.NewStyle().Reverse(true), spark: lipgloss.NewStyle(),
			box: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1),
		}
	}
	on := lipgloss.LightDark(dark) // on(light, dark): the ink for the terminal's background
	p := ui.NewPalette(dark)
	ink, paper, gold, plum, silver := p.Ink, p.Paper, p.Gold, p.Plum, p.Silver
	goldInk, greyInk, feltHi, alert := p.GoldInk, p.GreyInk, p.FeltHi, p.AlertInk
	track := on(lipgloss.Color("#C8C8C8"), lipgloss.Color("#4A4A4A"))
	s := styles{}
	s.header = lipgloss.NewStyle().Background(plum).Foreground(paper)
	s.brand = s.header.Bold(true).Foreground(gold)
	s.headerDim = s.header.Foreground(silver)
	s.title = lipgloss.NewStyle().Bold(true).Foreground(goldInk)
	s.dim = lipgloss.NewStyle().Foreground(greyInk)
	s.value = lipgloss.NewStyle().Bold(true)
	s.note = lipgloss.NewStyle().Bold(true).Foreground(alert)
	s.win = lipgloss.NewStyle().Bold(true).Foreground(goldInk)
	s.fresh = lipgloss.NewStyle().Bold(true).Foreground(ink).Background(gold)
	s.spark = lipgloss.NewStyle().Foreground(feltHi)
	s.box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(feltHi).Padding(0, 1)
	s.bars = chart.BarStyles{
		Label:  lipgloss.NewStyle().Foreground(goldInk),
		Bar:    lipgloss.NewStyle().Foreground(goldInk),
		Above:  lipgloss.NewStyle().Foreground(feltHi),
		Marker: lipgloss.NewStyle().Foreground(alert),
		Track:  lipgloss.NewStyle().Foreground(track),
		Text:   lipgloss.NewStyle(),
	}
	return s
}
