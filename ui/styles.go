package ui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// styles is the look of the game, built once for the terminal. Colours
// degrade with the terminal's profile (Bubble Tea downsamples what the view
// writes). Without colours (NO_COLOR), what is chosen or lit shows in
// reverse video, since bold alone hardly stands out.
//
// What has a background of its own (the header, the felt, the cards, the
// chips and buttons) looks the same everywhere; text drawn straight on the
// terminal's background (titles, prizes, grey notes, borders, the key help)
// takes a light or a dark ink to match it. Every character stands at least
// 3:1 (WCAG's contrast ratio) against what is behind it on black, white and
// the usual greys in between: TestContrast checks every screen.
type styles struct {
	header, brand, label, value, good, bad lipgloss.Style
	chip, chipOn, button, buttonOff        lipgloss.Style
	barButton                              lipgloss.Style // the bottom line's buttons
	felt, feltTitle, die, dieEdge, cup     lipgloss.Style
	box, boxTitle, row, rowLit, dim        lipgloss.Style
	win, bigWin, lose, note, replay, help  lipgloss.Style
	menuItem, menuOn, logo                 lipgloss.Style
	coating, surface, surfaceOn, card      lipgloss.Style
	cardRed, cardLit, reel, wheel, qa      lipgloss.Style
	keys                                   help.Styles // the key help at the bottom and on the help screen
}

// newStyles builds the look for a terminal without colours (plain) or
// with, on a dark background or a light one.
func newStyles(plain, dark bool) styles {
	on := lipgloss.LightDark(dark) // on(light, dark): the ink for the terminal's background
	p := NewPalette(dark)
	ink, paper, gold, felt, red, plum, silver := p.Ink, p.Paper, p.Gold, p.Felt, p.Red, p.Plum, p.Silver
	goldInk, greyInk, feltHi, alertInk := p.GoldInk, p.GreyInk, p.FeltHi, p.AlertInk
	s := styles{}
	s.header = lipgloss.NewStyle().Background(plum).Foreground(paper)
	s.brand = s.header.Bold(true).Foreground(gold)
	s.label = s.header.Foreground(silver)
	s.value = s.header.Bold(true)
	s.good = s.header.Bold(true).Foreground(lipgloss.Color("#7BE495"))
	s.bad = s.header.Bold(true).Foreground(lipgloss.Color("#FF8A8A"))
	s.chip = lipgloss.NewStyle().Foreground(paper).Background(lipgloss.Color("#444444"))
	s.chipOn = s.chip.Foreground(ink).Background(gold).Bold(true)
	s.button = lipgloss.NewStyle().Foreground(paper).Background(red).Bold(true).Padding(0, 2)
	s.buttonOff = s.button.Background(lipgloss.Color("#4A4A4A")).Foreground(lipgloss.Color("#A8A8A8"))
	s.barButton = s.chip.Padding(0, 1)
	s.felt = lipgloss.NewStyle().Background(felt).Foreground(paper)
	s.feltTitle = s.felt.Bold(true).Foreground(gold)
	s.die = lipgloss.NewStyle().Background(paper).Foreground(ink)
	s.dieEdge = lipgloss.NewStyle().Background(felt).Foreground(paper)
	s.cup = lipgloss.NewStyle().Background(felt).Foreground(lipgloss.Color("#C8A165"))
	s.box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(feltHi).Padding(0, 1)
	s.boxTitle = lipgloss.NewStyle().Bold(true).Foreground(goldInk)
	s.row = lipgloss.NewStyle()
	s.rowLit = lipgloss.NewStyle().Background(gold).Foreground(ink).Bold(true)
	s.dim = lipgloss.NewStyle().Foreground(greyInk)
	s.win = lipgloss.NewStyle().Bold(true).Foreground(goldInk)
	s.bigWin = lipgloss.NewStyle().Bold(true).Foreground(ink).Background(gold).Padding(0, 1)
	s.lose = lipgloss.NewStyle().Foreground(greyInk)
	s.note = lipgloss.NewStyle().Foreground(alertInk).Bold(true)
	s.replay = lipgloss.NewStyle().Bold(true).Foreground(paper).Background(red).Padding(0, 1)
	s.help = lipgloss.NewStyle().Foreground(greyInk)
	s.menuItem = lipgloss.NewStyle().Padding(0, 2)
	s.menuOn = s.menuItem.Background(gold).Foreground(ink).Bold(true)
	s.logo = lipgloss.NewStyle().Bold(true).Foreground(goldInk)
	s.coating = lipgloss.NewStyle().Foreground(lipgloss.Color("#C8C8D6")).Background(lipgloss.Color("#5E5E6E"))
	s.surface = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(greyInk)
	s.surfaceOn = s.surface.Border(lipgloss.ThickBorder()).BorderForeground(goldInk)
	s.card = lipgloss.NewStyle().Background(paper).Foreground(ink)
	s.cardRed = s.card.Foreground(red)
	s.cardLit = s.card.Background(gold).Bold(true)
	s.reel = lipgloss.NewStyle().Background(paper).Foreground(ink).Bold(true)
	s.wheel = lipgloss.NewStyle().Foreground(goldInk)
	s.qa = lipgloss.NewStyle().Background(lipgloss.Color("#23395B")).Foreground(paper)
	s.keys = keyStyles(on)
	if plain {
		for _, st := range []*lipgloss.Style{&s.chipOn, &s.rowLit, &s.menuOn, &s.cardLit, &s.bigWin, &s.button, &s.replay} {
			*st = st.Reverse(true).Bold(true)
		}
		s.buttonOff = s.buttonOff.Faint(true)
		// Without colours a terminal may show no attribute at all
		// (TERM=dumb): what a click works on is bracketed, in the same
		// width, and a button that does nothing now is not.
		brackets := lipgloss.Border{Left: "[", Right: "]"}
		s.button = s.button.Padding(0, 1).Border(brackets, false, true)
		s.barButton = s.barButton.Padding(0).Border(brackets, false, true)
	}
	return s
}

// Palette is the game's colours: those with a background of their own, and
// the inks drawn straight on the terminal's background, light or dark. The
// board (package board) dresses in them too.
type Palette struct {
	Ink, Paper, Gold, Felt, Red, Plum, Silver color.Color
	// On the terminal's own background.
	GoldInk, GreyInk, FeltHi, AlertInk color.Color
}

// NewPalette returns the colours for a terminal on a dark background or a
// light one.
func NewPalette(dark bool) Palette {
	on := lipgloss.LightDark(dark) // on(light, dark): the ink for the terminal's background
	gold := lipgloss.Color("#F2C14E")
	return Palette{
		Ink:      lipgloss.Color("#1B1B1B"),
		Paper:    lipgloss.Color("#F5F1E6"),
		Gold:     gold,
		Felt:     lipgloss.Color("#1E5E3B"),
		Red:      lipgloss.Color("#D7263D"),
		Plum:     lipgloss.Color("#5B2A86"),
		Silver:   lipgloss.Color("#B8B8C8"),
		GoldInk:  on(lipgloss.Color("#9A6B00"), gold),
		GreyInk:  on(lipgloss.Color("#666666"), lipgloss.Color("#8A8A8A")),
		FeltHi:   on(lipgloss.Color("#2E7D4F"), lipgloss.Color("#3C9A63")),
		AlertInk: on(lipgloss.Color("#C41E3A"), lipgloss.Color("#F25063")),
	}
}

// keyStyles is the look of the key help (bubbles/help): the keys stand out
// more than what they do, the separators less, and all of them stay
// readable on the terminal's background (the bubble's own defaults put the
// separators at 2:1 on black).
func keyStyles(on lipgloss.LightDarkFunc) help.Styles {
	key := lipgloss.NewStyle().Foreground(on(lipgloss.Color("#303030"), lipgloss.Color("#B0B0B0")))
	desc := lipgloss.NewStyle().Foreground(on(lipgloss.Color("#5E5E5E"), lipgloss.Color("#8A8A8A")))
	sep := lipgloss.NewStyle().Foreground(on(lipgloss.Color("#7A7A7A"), lipgloss.Color("#767676")))
	return help.Styles{
		Ellipsis: sep, ShortKey: key, ShortDesc: desc, ShortSeparator: sep,
		FullKey: key, FullDesc: desc, FullSeparator: sep,
	}
}
