package board

import (
	"charm.land/lipgloss/v2"

	"tapis/chart"
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
	var (
		ink     = lipgloss.Color("#1B1B1B")
		paper   = lipgloss.Color("#F5F1E6")
		gold    = lipgloss.Color("#F2C14E")
		plum    = lipgloss.Color("#5B2A86")
		silver  = lipgloss.Color("#B8B8C8")
		goldInk = on(lipgloss.Color("#9A6B00"), gold)
		greyInk = on(lipgloss.Color("#666666"), lipgloss.Color("#8A8A8A"))
		feltHi  = on(lipgloss.Color("#2E7D4F"), lipgloss.Color("#3C9A63"))
		alert   = on(lipgloss.Color("#C41E3A"), lipgloss.Color("#F25063"))
		track   = on(lipgloss.Color("#C8C8C8"), lipgloss.Color("#4A4A4A"))
	)
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
