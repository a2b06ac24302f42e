package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/game/yams"
	"tapis/store"
	"tapis/wallet"
)

// rulesScreen is the rules of a game in short, its lot table and the
// blocks' commitments: which game, scrolled in a viewport.
type rulesScreen struct {
	*common
	vegas bool
	text  scroller
}

func (s *rulesScreen) update(msg tea.Msg) tea.Cmd {
	s.fit(s.body())
	press, ok := msg.(tea.KeyPressMsg)
	click, clicked := msg.(clickMsg)
	if ok && key.Matches(press, s.keys.list.Switch) || clicked && !click.drag && click.target.kind == switchTarget {
		s.vegas = !s.vegas
		s.fit(s.body())
		s.text.top()
		return nil
	}
	s.text.update(s.keys.list, msg)
	return nil
}

func (s *rulesScreen) keyMap() keyMap {
	if b := s.box(s.body()); !s.text.sized(b.w, b.h) { // whether it scrolls, before it is drawn too
		s.fit(s.body())
	}
	k, scrolls := s.keys.list, s.text.scrolls()
	return s.keyMapOf(keyMapKey{RulesScreen, states(scrolls)}, func() keyMap {
		own := []key.Binding{only(k.Up, scrolls), only(k.PageUp, scrolls), only(k.Home, scrolls), k.Switch, s.keys.global.Back}
		return s.withGlobal(RulesScreen, own, []key.Binding{only(k.Scroll, scrolls), k.Switch, s.keys.global.Back})
	})
}

// box is where the rules' text goes in the body: centered, under a blank
// line.
func (s *rulesScreen) box(body area) area {
	w := min(body.w-4, 96)
	return area{body.x + (body.w-w)/2, body.y + 1, w, body.h - 1}
}

// fit sizes the viewport to the body and gives it the game's text; it
// returns where the text goes.
func (s *rulesScreen) fit(body area) area {
	b := s.box(body)
	s.text.fit(s.keys.list, b.w, b.h, s.content(b.w))
	return b
}

// Keys of the rules' drawings.
type (
	rulesKey struct {
		vegas bool
		w     int
	}
	rulesTextKey struct {
		vegas   bool
		w       int
		commits string
	}
	aboutKey   struct{ w int }
	commitsKey struct {
		vegas  bool
		w      int
		loaded int
	}
)

// content is a game's rules in short, its lot table with each lot's
// chance, the return to player and the blocks' commitments, w wide.
func (s *rulesScreen) content(w int) *drawing {
	// The rules and tables depend only on the game and the width; the
	// commitments follow the blocks.
	commits := s.commitments(w)
	return drawn(s.common, rulesTextKey{s.vegas, w, commits}, func() string {
		rules := memo(s.common, rulesKey{s.vegas, w}, func() string {
			if s.vegas {
				return strings.Join([]string{s.st.boxTitle.Render("« Vegas »"), "",
					lipgloss.NewStyle().Width(w).Render(s.vegasRules()), "", s.symbolsLegend(w), "", s.vegasLots()}, "\n")
			}
			return strings.Join([]string{s.st.boxTitle.Render("« " + s.t.get("yams") + " »"), "",
				lipgloss.NewStyle().Width(w).Render(s.yamsRules()), "", s.combosTable(&yamsBoard{}), "", s.yamsLots()}, "\n")
		})
		return rules + "\n\n" + commits
	})
}

// yamsRules is the Yam's rules in short, with the stakes of the table and
// the points of its brackets: the top lot's total, the lowest and the
// highest totals that pay.
func (c *common) yamsRules() string {
	var stakes []string
	for _, s := range lottery.Yams().Stakes {
		stakes = append(stakes, c.amount(s))
	}
	n := len(stakes)
	brackets := yams.Brackets(yams.Stakes()[0])
	low, high := brackets[0].Low, brackets[0].High
	for _, b := range brackets {
		low, high = min(low, b.Low), max(high, b.High)
	}
	return c.t.f("rules.yams", strings.Join(stakes[:n-1], ", ")+" "+c.t.get("or")+" "+stakes[n-1],
		brackets[0].High, low, high)
}

// vegasRules is the Vegas rules in short, with the ticket's price and the
// prizes of the poker combinations and the jackpot cases.
func (c *common) vegasRules() string {
	args := []any{c.amount(vegas.Price())}
	for combo := vegas.PokerPair; combo <= vegas.PokerFourOfAKind; combo++ {
		args = append(args, c.amount(combo.Prize()))
	}
	for cs := vegas.SevenCase; cs >= vegas.CherryCase; cs-- {
		args = append(args, c.amount(cs.Prize()))
	}
	return c.t.f("rules.vegas", args...)
}

// symbolsLegend draws the Jackpot's symbols as the reels show them, each
// with its name under it, in the regulation's order (art. 4.5.2), in rows
// of as many as w cells hold.
func (c *common) symbolsLegend(w int) string {
	const colW = 11
	order := [...]vegas.Symbol{vegas.Seven, vegas.Crown, vegas.Bar, vegas.Bell, vegas.Star, vegas.Cherry}
	perRow := max(1, min(len(order), w/colW))
	center := lipgloss.NewStyle().Width(colW).Align(lipgloss.Center)
	rows := []string{c.st.boxTitle.Render(c.t.get("v.symbols"))}
	for i := 0; i < len(order); i += perRow {
		var cols []string
		for _, sym := range order[i:min(len(order), i+perRow)] {
			art := c.ticketArt().symbols[sym]
			lines := make([]string, 0, len(art)+1)
			for _, r := range art {
				lines = append(lines, c.st.win.Render(center.Render(r)))
			}
			cols = append(cols, strings.Join(append(lines, center.Render(c.t.get(symbolKeys[sym]))), "\n"))
		}
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cols...))
	}
	return strings.Join(rows, "\n")
}

// amount writes an amount of the rules' running text: whole euros without
// cents, and never cut at the end of a line ("10 000 €" keeps its spaces).
func (c *common) amount(d decimal.Decimal) string {
	return strings.ReplaceAll(c.euros(d), " ", "\u00a0")
}

// commitments lists, for the game shown, the block each stake sells next
// and its commitment (SHA-256 of the block's seed, published before its
// first sale), then the seeds of the blocks exhausted so far.
func (s *rulesScreen) commitments(w int) string {
	// The blocks move on only with a purchase.
	return memo(s.common, commitsKey{s.vegas, w, s.till.blocks.loaded}, func() string { return s.drawCommitments(w) })
}

// drawCommitments writes the commitments, w wide.
func (s *rulesScreen) drawCommitments(w int) string {
	g := lottery.Yams()
	if s.vegas {
		g = lottery.Vegas()
	}
	about := memo(s.common, aboutKey{w}, func() string {
		return s.st.boxTitle.Render(s.t.get("commit.title")) + "\n" + lipgloss.NewStyle().Width(w).Render(s.st.dim.Render(s.t.get("commit.about")))
	})
	rows := []string{about}
	for _, stake := range g.Stakes {
		if n, commit, ok := s.till.blocks.commitment(g, stake); ok {
			rows = append(rows, s.t.f("commit.block", s.t.money(stake), n), "  "+commit)
		}
	}
	// The blocks of the game exhausted so far, by stake then number.
	var blocks []store.Reveal
	for _, r := range s.till.blocks.revealed {
		if r.Block.Game == g.Name {
			blocks = append(blocks, r)
		}
	}
	slices.SortFunc(blocks, func(a, b store.Reveal) int {
		return cmp.Or(a.Block.Stake.Cmp(b.Block.Stake), cmp.Compare(a.Block.Block, b.Block.Block))
	})
	for _, r := range blocks {
		rows = append(rows, s.t.f("commit.revealed", r.Block), "  "+r.Seed)
	}
	return strings.Join(rows, "\n")
}

// layers shows the rules of the chosen game from the line scrolled to.
func (s *rulesScreen) layers(body area) []layer {
	return []layer{place(s.fit(body), s.text.draw())}
}

// yamsLots is the Yam's table: points, the prize at each stake, lots per
// block and chance (art. 3 and 4.5).
func (c *common) yamsLots() string {
	stakes := yams.Stakes()
	tables := make([]*game.Table, len(stakes))
	for i, s := range stakes {
		tables[i], _ = yams.Table(s)
	}
	head := padRight(c.t.get("points"), 12)
	for _, s := range stakes {
		head += padLeft(c.t.money(s), 13)
	}
	head += padLeft(c.t.get("count"), 11) + padLeft(c.t.get("chance"), 14)
	rows := []string{c.st.boxTitle.Render(head)}
	for i, br := range yams.Brackets(stakes[0]) {
		pts := fmt.Sprint(br.Low)
		if br.High != br.Low {
			pts += "–" + fmt.Sprint(br.High)
		}
		line := padRight(pts, 12)
		for _, t := range tables {
			line += padLeft(c.t.money(t.Lots[i].Prize), 13)
		}
		t := tables[0]
		rows = append(rows, line+padLeft(c.number(t.Lots[i].Count), 11)+padLeft(c.chance(t.Units, t.Lots[i].Count), 14))
	}
	return strings.Join(append(rows, "", c.rtpLine(tables[0], stakes[0])), "\n")
}

// vegasLots is the Vegas table (art. 3).
func (c *common) vegasLots() string {
	t := vegas.Table()
	rows := []string{c.st.boxTitle.Render(padLeft(c.t.get("lot"), 12) + padLeft(c.t.get("count"), 14) + padLeft(c.t.get("chance"), 16))}
	for _, l := range t.Lots { // amounts right-aligned, as in the Yam's table
		rows = append(rows, padLeft(c.t.money(l.Prize), 12)+padLeft(c.number(l.Count), 14)+padLeft(c.chance(t.Units, l.Count), 16))
	}
	return strings.Join(append(rows, "", c.rtpLine(t, vegas.Price())), "\n")
}

func (c *common) rtpLine(t *game.Table, stake decimal.Decimal) string {
	rtp := t.Payout().Div(stake.Mul(decimal.NewFromInt(t.Units))).Shift(2)
	return c.st.win.Render(c.t.f("rtp", rtp.String()))
}

// chance writes a lot's chance, "1 / N", N as the language writes numbers:
// one decimal below 100.
func (c *common) chance(units, count int64) string {
	x := decimal.NewFromInt(units).Div(decimal.NewFromInt(count))
	places := int32(0)
	if x.LessThan(decimal.NewFromInt(100)) {
		places = 1
	}
	return "1 / " + wallet.Number(x, places, string(c.t.lang))
}

// mouseHelp says, for each screen the mouse acts on, what it does there.
var mouseHelp = map[Screen]string{
	MenuScreen: "help.mouse.menu", YamsScreen: "help.mouse.yams",
	VegasScreen: "help.mouse.vegas", HistoryScreen: "help.mouse.history",
	RulesScreen: "help.mouse.rules",
}

// helpScreen shows every key of the screen it was opened from, and what
// the mouse does there; it scrolls when it is taller than the window.
type helpScreen struct {
	*common
	keysOf func(Screen) keyMap // a screen's keys
	text   scroller
}

func (s *helpScreen) update(msg tea.Msg) tea.Cmd {
	s.fit(s.body())
	s.text.update(s.keys.list, msg)
	return nil
}

func (s *helpScreen) keyMap() keyMap {
	if !s.text.ready { // whether it scrolls, before it is first drawn too
		s.fit(s.body())
	}
	k, scrolls := s.keys.list, s.text.scrolls()
	return s.keyMapOf(keyMapKey{HelpScreen, states(scrolls)}, func() keyMap {
		own := []key.Binding{only(k.Up, scrolls), only(k.PageUp, scrolls), only(k.Home, scrolls), s.keys.global.Back}
		return s.withGlobal(HelpScreen, own, []key.Binding{only(k.Scroll, scrolls), s.keys.global.Back})
	})
}

// fit sizes the viewport to the help, or to the body when the help is
// taller, and gives it the help; it returns where the help goes: centered,
// a line at least below the header. Another screen's help starts at its
// top.
func (s *helpScreen) fit(body area) area {
	km := s.keysOf(s.nav.from())
	groups, name := km.FullHelp(), km.fullName
	if name == "" {
		name = bindingsKey(groups...)
	}
	block := drawn(s.common, helpKey{s.nav.from(), body.w, name}, func() string {
		full := s.help.FullHelpView(groups)
		block := s.st.boxTitle.Render(s.t.get("help")) + "\n\n" + full
		if mouse, ok := mouseHelp[s.nav.from()]; ok {
			block += "\n\n" + s.st.help.Width(max(lipgloss.Width(full), min(body.w-4, 60))).Render(s.t.get(mouse))
		}
		return block
	})
	w, h := block.w, min(block.height(), body.h-1)
	if s.text.fit(s.keys.list, w, h, block) {
		s.text.top()
	}
	return area{body.x + max(0, (body.w-w)/2), body.y + max(1, (body.h-h)/2), w, h}
}

// helpKey is the help of a screen's keys, in a width.
type helpKey struct {
	from     Screen
	w        int
	bindings string
}

func (s *helpScreen) layers(body area) []layer {
	return []layer{place(s.fit(body), s.text.draw())}
}
