package ui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/game/yams"
	"tapis/wallet"
)

// rulesState is the rules screen: which game, and how far it is scrolled.
type rulesState struct {
	vegas  bool
	offset int
}

func (m *Model) rulesKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.list
	switch {
	case key.Matches(msg, k.Up):
		m.rules.offset = max(0, m.rules.offset-1)
	case key.Matches(msg, k.Down):
		m.rules.offset = min(m.rules.offset+1, max(0, len(m.rulesLines())-m.rulesRows()))
	case key.Matches(msg, k.Switch):
		m.rules = rulesState{vegas: !m.rules.vegas}
	}
	return nil
}

// rulesWidth and rulesRows are the size of the rules' text on screen.
func (m *Model) rulesWidth() int { return min(m.width-4, 96) }
func (m *Model) rulesRows() int  { return m.height - 3 }

// rulesLines are the lines of a game's rules in short, its lot table with
// each lot's chance, and the return to player.
func (m *Model) rulesLines() []string {
	w := m.rulesWidth()
	// The rules and tables depend only on the game and the width; the
	// commitments follow the blocks.
	rules := m.memoize(fmt.Sprint("rules:", m.rules.vegas, w), func() string {
		if m.rules.vegas {
			return strings.Join([]string{m.st.boxTitle.Render("« Vegas »"), "",
				lipgloss.NewStyle().Width(w).Render(m.vegasRules()), "", m.vegasLots()}, "\n")
		}
		return strings.Join([]string{m.st.boxTitle.Render("« " + m.t.get("yams") + " »"), "",
			lipgloss.NewStyle().Width(w).Render(m.yamsRules()), "", m.combosTable(&yamsBoard{}), "", m.yamsLots()}, "\n")
	})
	return strings.Split(rules+"\n\n"+m.commitments(w), "\n")
}

// yamsRules is the Yam's rules in short, with the stakes of the table.
func (m *Model) yamsRules() string {
	var stakes []string
	for _, s := range lottery.Yams().Stakes {
		stakes = append(stakes, m.euros(s))
	}
	n := len(stakes)
	return m.t.f("rules.yams", strings.Join(stakes[:n-1], ", ")+" "+m.t.get("or")+" "+stakes[n-1])
}

// vegasRules is the Vegas rules in short, with the ticket's price and the
// prizes of the poker combinations and the jackpot cases.
func (m *Model) vegasRules() string {
	args := []any{m.euros(vegas.Price())}
	for c := vegas.PokerPair; c <= vegas.PokerFourOfAKind; c++ {
		args = append(args, m.euros(c.Prize()))
	}
	for c := vegas.SevenCase; c >= vegas.CherryCase; c-- {
		args = append(args, m.euros(c.Prize()))
	}
	return m.t.f("rules.vegas", args...)
}

// commitments lists, for the game shown, the block each stake sells next
// and its commitment (SHA-256 of the block's seed, published before its
// first sale), then the seeds of the blocks exhausted so far.
func (m *Model) commitments(w int) string {
	g := lottery.Yams()
	if m.rules.vegas {
		g = lottery.Vegas()
	}
	rows := []string{m.st.boxTitle.Render(m.t.get("commit.title")), lipgloss.NewStyle().Width(w).Render(m.st.dim.Render(m.t.get("commit.about")))}
	for _, stake := range g.Stakes {
		n, c, err := m.session.Commitment(g, stake)
		if err == nil {
			rows = append(rows, m.t.f("commit.block", m.t.money(stake), n), "  "+c)
		}
	}
	var names []string
	for b := range m.session.Revealed() {
		if strings.HasPrefix(b, g.Name+":") {
			names = append(names, b)
		}
	}
	sort.Strings(names)
	for _, b := range names {
		rows = append(rows, m.t.f("commit.revealed", b), "  "+m.session.Revealed()[b])
	}
	return strings.Join(rows, "\n")
}

// rulesLayers shows the rules of the chosen game from the scrolled line.
func (m *Model) rulesLayers(body area) []*lipgloss.Layer {
	all, rows, w := m.rulesLines(), m.rulesRows(), m.rulesWidth()
	from := min(m.rules.offset, max(0, len(all)-rows))
	shown := all[from:min(len(all), from+rows)]
	return []*lipgloss.Layer{layer("", area{body.x + (body.w-w)/2, body.y + 1, w, rows}, strings.Join(shown, "\n"))}
}

// yamsLots is the Yam's table: points, the prize at each stake, lots per
// block and chance (art. 3 and 4.5).
func (m *Model) yamsLots() string {
	stakes := yams.Stakes()
	tables := make([]*game.Table, len(stakes))
	for i, s := range stakes {
		tables[i], _ = yams.Table(s)
	}
	head := padRight(m.t.get("points"), 12)
	for _, s := range stakes {
		head += padLeft(m.t.money(s), 13)
	}
	head += padLeft(m.t.get("count"), 11) + padLeft(m.t.get("chance"), 14)
	rows := []string{m.st.boxTitle.Render(head)}
	for i, br := range yams.Brackets(stakes[0]) {
		pts := fmt.Sprint(br.Low)
		if br.High != br.Low {
			pts += "–" + fmt.Sprint(br.High)
		}
		line := padRight(pts, 12)
		for _, t := range tables {
			line += padLeft(m.t.money(t.Lots[i].Prize), 13)
		}
		t := tables[0]
		rows = append(rows, line+padLeft(m.number(t.Lots[i].Count), 11)+padLeft(m.chance(t.Units, t.Lots[i].Count), 14))
	}
	return strings.Join(append(rows, "", m.rtpLine(tables[0], stakes[0])), "\n")
}

// vegasLots is the Vegas table (art. 3).
func (m *Model) vegasLots() string {
	t := vegas.Table()
	rows := []string{m.st.boxTitle.Render(padRight(m.t.get("lot"), 14) + padLeft(m.t.get("count"), 12) + padLeft(m.t.get("chance"), 16))}
	for _, l := range t.Lots {
		rows = append(rows, padRight(m.t.money(l.Prize), 14)+padLeft(m.number(l.Count), 12)+padLeft(m.chance(t.Units, l.Count), 16))
	}
	return strings.Join(append(rows, "", m.rtpLine(t, vegas.Price())), "\n")
}

func (m *Model) rtpLine(t *game.Table, stake decimal.Decimal) string {
	rtp := t.Payout().Div(stake.Mul(decimal.NewFromInt(t.Units))).Shift(2)
	return m.st.win.Render(m.t.f("rtp", rtp.String()))
}

// chance writes a lot's chance, "1 / N", N as the language writes numbers:
// one decimal below 100.
func (m *Model) chance(units, count int64) string {
	x := decimal.NewFromInt(units).Div(decimal.NewFromInt(count))
	places := int32(0)
	if x.LessThan(decimal.NewFromInt(100)) {
		places = 1
	}
	return "1 / " + wallet.Number(x, places, string(m.t.lang))
}

// mouseHelp says, for each screen the mouse acts on, what it does there.
var mouseHelp = map[Screen]string{
	MenuScreen: "help.mouse.menu", YamsScreen: "help.mouse.yams",
	VegasScreen: "help.mouse.vegas", HistoryScreen: "help.mouse.history",
}

// helpLayers shows every key of the screen help was opened from.
func (m *Model) helpLayers(body area) []*lipgloss.Layer {
	full := m.help.FullHelpView(m.keyMapFor(m.from()).FullHelp())
	block := m.st.boxTitle.Render(m.t.get("help")) + "\n\n" + full
	if mouse, ok := mouseHelp[m.from()]; ok {
		block += "\n\n" + m.st.help.Width(max(lipgloss.Width(full), min(body.w-4, 60))).Render(m.t.get(mouse))
	}
	return []*lipgloss.Layer{layer("", body.centered(lipgloss.Width(block), lipgloss.Height(block)), block)}
}
