package ui

import "charm.land/lipgloss/v2"

// styles is the look of the game, built once. Colours degrade with the
// terminal's profile (Bubble Tea downsamples what the view writes). Without
// colours (NO_COLOR), what is chosen or lit shows in reverse video, since
// bold alone hardly stands out.
type styles struct {
	header, brand, label, value, good, bad lipgloss.Style
	chip, chipOn, button, buttonOff        lipgloss.Style
	felt, feltTitle, die, dieEdge, cup     lipgloss.Style
	box, boxTitle, row, rowLit, dim        lipgloss.Style
	win, bigWin, lose, note, replay, help  lipgloss.Style
	menuItem, menuOn, logo                 lipgloss.Style
	coating, surface, surfaceOn, card      lipgloss.Style
	cardRed, cardLit, reel, wheel, qa      lipgloss.Style
}

func newStyles(plain bool) styles {
	var (
		ink    = lipgloss.Color("#1B1B1B")
		paper  = lipgloss.Color("#F5F1E6")
		gold   = lipgloss.Color("#F2C14E")
		felt   = lipgloss.Color("#1E5E3B")
		feltHi = lipgloss.Color("#2E7D4F")
		red    = lipgloss.Color("#D7263D")
		grey   = lipgloss.Color("#8A8A8A")
		plum   = lipgloss.Color("#5B2A86")
		silver = lipgloss.Color("#B8B8C8")
	)
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
	s.buttonOff = s.button.Background(lipgloss.Color("#5A5A5A")).Foreground(grey)
	s.felt = lipgloss.NewStyle().Background(felt).Foreground(paper)
	s.feltTitle = s.felt.Bold(true).Foreground(gold)
	s.die = lipgloss.NewStyle().Background(paper).Foreground(ink)
	s.dieEdge = lipgloss.NewStyle().Background(felt).Foreground(paper)
	s.cup = lipgloss.NewStyle().Background(felt).Foreground(lipgloss.Color("#C8A165"))
	s.box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(feltHi).Padding(0, 1)
	s.boxTitle = lipgloss.NewStyle().Bold(true).Foreground(gold)
	s.row = lipgloss.NewStyle()
	s.rowLit = lipgloss.NewStyle().Background(gold).Foreground(ink).Bold(true)
	s.dim = lipgloss.NewStyle().Foreground(grey)
	s.win = lipgloss.NewStyle().Bold(true).Foreground(gold)
	s.bigWin = lipgloss.NewStyle().Bold(true).Foreground(ink).Background(gold).Padding(0, 1)
	s.lose = lipgloss.NewStyle().Foreground(grey)
	s.note = lipgloss.NewStyle().Foreground(red).Bold(true)
	s.replay = lipgloss.NewStyle().Bold(true).Foreground(paper).Background(red).Padding(0, 1)
	s.help = lipgloss.NewStyle().Foreground(grey)
	s.menuItem = lipgloss.NewStyle().Padding(0, 2)
	s.menuOn = s.menuItem.Background(gold).Foreground(ink).Bold(true)
	s.logo = lipgloss.NewStyle().Bold(true).Foreground(gold)
	s.coating = lipgloss.NewStyle().Foreground(lipgloss.Color("#9E9EAE")).Background(lipgloss.Color("#5E5E6E"))
	s.surface = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(grey)
	s.surfaceOn = s.surface.Border(lipgloss.ThickBorder()).BorderForeground(gold)
	s.card = lipgloss.NewStyle().Background(paper).Foreground(ink)
	s.cardRed = s.card.Foreground(red)
	s.cardLit = s.card.Background(gold).Bold(true)
	s.reel = lipgloss.NewStyle().Background(paper).Foreground(ink).Bold(true)
	s.wheel = lipgloss.NewStyle().Foreground(gold)
	s.qa = lipgloss.NewStyle().Background(lipgloss.Color("#23395B")).Foreground(paper)
	if plain {
		for _, st := range []*lipgloss.Style{&s.chipOn, &s.rowLit, &s.menuOn, &s.cardLit, &s.bigWin, &s.button, &s.replay} {
			*st = st.Reverse(true).Bold(true)
		}
		s.buttonOff = s.buttonOff.Faint(true)
	}
	return s
}
