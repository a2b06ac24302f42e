package board

import (
	"charm.land/lipgloss/v2"

	"tapis/ui"
)

// styles is the look of the board: the game's colours (the header's plum,
// the gold of prizes, the felt's green), and the QR code dark on light
// whatever the terminal's background, as phones read it. Without colours
// (NO_COLOR, a dumb terminal) the header shows in reverse video and the
// QR code's glyphs draw the modules that are the terminal's ink.
type styles struct {
	header, brand, headerDim lipgloss.Style
	title, dim, value, note  lipgloss.Style
	win, fresh, big, figure  lipgloss.Style
	join, qr                 lipgloss.Style
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
			win: bold, fresh: lipgloss.NewStyle().Reverse(true), big: lipgloss.NewStyle(), figure: lipgloss.NewStyle(),
			join: bold, qr: lipgloss.NewStyle(),
		}
	}
	p := ui.NewPalette(dark)
	s := styles{}
	s.header = lipgloss.NewStyle().Background(p.Plum).Foreground(p.Paper)
	s.brand = s.header.Bold(true).Foreground(p.Gold)
	s.headerDim = s.header.Foreground(p.Silver)
	s.title = lipgloss.NewStyle().Bold(true).Foreground(p.GoldInk)
	s.dim = lipgloss.NewStyle().Foreground(p.GreyInk)
	s.value = lipgloss.NewStyle().Bold(true)
	s.note = lipgloss.NewStyle().Bold(true).Foreground(p.AlertInk)
	s.win = lipgloss.NewStyle().Bold(true).Foreground(p.GoldInk)
	s.fresh = lipgloss.NewStyle().Bold(true).Foreground(p.Ink).Background(p.Gold)
	s.big = lipgloss.NewStyle().Foreground(p.GoldInk)
	s.figure = lipgloss.NewStyle().Foreground(p.FeltHi)
	s.join = lipgloss.NewStyle().Bold(true).Foreground(p.Paper).Background(p.Felt)
	s.qr = lipgloss.NewStyle().Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#FFFFFF"))
	return s
}
