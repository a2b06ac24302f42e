package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/shopspring/decimal"

	"tapis/game/yams"
	safe "tapis/text"
)

// boardLayers draws the three mats, the result line, and the tables of
// combinations (art. 4.4) and winnings (art. 4.5), inside a.
func (m *Model) boardLayers(b *yamsBoard, a area) []*lipgloss.Layer {
	const matH = 6
	art := m.boardArt(a.w)
	matW := art.matW
	gap := min(6, max(1, (a.w-3*matW)/4))
	x0 := a.x + (a.w-(3*matW+2*gap))/2
	var layers []*lipgloss.Layer
	for i := range 3 {
		mat := area{x0 + i*(matW+gap), a.y + 3, matW, matH}
		key := fmt.Sprint("mat:", i, matW, b.phase[i], b.faces[i], b.unitCup(i))
		layers = append(layers, layer("cup:"+strconv.Itoa(i), mat, m.memoize(key, func() string { return m.mat(b, i, art) })))
	}
	result := m.yamsResult(b)
	layers = append(layers, layer("", area{a.x, a.y + 9, a.w, 1}, m.memoize("line:"+strconv.Itoa(a.w)+result, func() string { return fit(a.w, 1, result) })))
	combos := m.memoize(fmt.Sprint("combos:", m.lit(b)), func() string { return m.combosTable(b) })
	wins := m.memoize(fmt.Sprint("wins:", b.stake, ":", m.reached(b)), func() string { return m.winningsTable(b) })
	tw := lipgloss.Width(combos) + 4 + lipgloss.Width(wins)
	tx := a.x + max(0, (a.w-tw)/2)
	layers = append(layers,
		layer("", area{tx, a.y + 10, 0, 0}, combos),
		layer("", area{tx + lipgloss.Width(combos) + 4, a.y + 10, 0, 0}, wins))
	if b.replay {
		layers = append(layers, layer("", area{a.x + 1, a.y + 1, 0, 1}, m.st.replay.Render(m.t.get("replay"))))
	}
	return layers
}

// mat draws mat i: its title, its cup or its five dice, and once shown the
// combination and its points.
func (m *Model) mat(b *yamsBoard, i int, art *yamsArt) string {
	felt := m.st.felt
	w := art.matW
	title := m.t.f("mat", i+1)
	rows := []string{m.st.feltTitle.Width(w).Align(lipgloss.Center).Render(title)}
	switch {
	case b.unit == nil || b.phase[i] == cupCovered:
		rows = append(rows, art.cups[i]...)
	default:
		faces := b.faces[i]
		if b.phase[i] == cupShown {
			faces = b.unit.Cups[i]
		}
		left := felt.Render(spaces((w - 5*art.dieW) / 2))
		margin := felt.Render(spaces(w - 5*art.dieW - (w-5*art.dieW)/2))
		for r := range 3 {
			var sb strings.Builder
			sb.WriteString(left)
			for _, d := range faces {
				sb.WriteString(art.dice[d-1][r])
			}
			sb.WriteString(margin)
			rows = append(rows, sb.String())
		}
	}
	rows = append(rows, art.blankRow)
	last := ""
	if b.unit != nil && b.phase[i] == cupShown {
		c := b.unit.Cups[i].Combination()
		last = m.comboName(c) + " · " + m.t.f("pts", c.Points())
	}
	rows = append(rows, m.st.feltTitle.Width(w).Align(lipgloss.Center).Render(last))
	return strings.Join(rows, "\n")
}

func pips(row string) string { return strings.ReplaceAll(row, "o", "●") }

// comboKeys are the text keys of the combinations, lowest first.
var comboKeys = [...]string{"c.none", "c.pair", "c.two_pairs", "c.three", "c.full", "c.small", "c.four", "c.large", "c.yams"}

func (m *Model) comboName(c yams.Combination) string { return m.t.get(comboKeys[c]) }

// yamsResult is the line under the mats: a hint, or the total and the prize,
// celebrated in proportion to the lot.
func (m *Model) yamsResult(b *yamsBoard) string {
	switch {
	case m.yams.note.kind == noteRecovered && !b.replay && !b.done():
		return m.st.note.Render(m.t.get("recovered"))
	case b.unit == nil:
		return m.st.dim.Render(m.t.get("buy.hint"))
	case !b.done():
		return m.st.dim.Render(m.t.get("roll.hint"))
	}
	s := b.unit.Score()
	total := m.t.f("total", s.Points)
	if !b.replay && m.yams.sold != nil && m.yams.sold.Forced != nil {
		total = m.st.replay.Render(safe.Printable(m.yams.sold.Forced.Label)) + "  " + total
	}
	if s.Prize.IsZero() {
		return total + "  " + m.st.lose.Render(m.t.get("lost"))
	}
	return total + "  " + m.celebrate(s.Prize, b.unit.Stake)
}

// celebrate shows a prize: plainly when it does not beat the stake, with a
// banner growing with the lot otherwise.
func (m *Model) celebrate(prize, stake decimal.Decimal) string {
	won := m.t.f("won", m.t.money(prize))
	ratio := prize.Div(stake)
	banner := m.st.bigWin
	star := "★"
	if m.party.frame%2 == 0 && m.party.frame > 0 { // flashing, while the celebration lasts
		banner, star = m.st.replay, "✦"
	}
	switch {
	case !prize.GreaterThan(stake):
		return won
	case ratio.GreaterThanOrEqual(decimal.NewFromInt(500)):
		return banner.Render(star + star + star + " " + m.t.get("hugewin") + " " + star + star + star + " " + won + " " + star + star + star)
	case ratio.GreaterThanOrEqual(decimal.NewFromInt(10)):
		return banner.Render(star + star + " " + m.t.get("bigwin") + " · " + won + " " + star + star)
	}
	return m.st.win.Render("★ " + won + " ★")
}

// lit returns the combinations the cups show once the unit is over.
func (m *Model) lit(b *yamsBoard) [3]yams.Combination {
	var out [3]yams.Combination
	if b.done() {
		for i, c := range b.unit.Cups {
			out[i] = c.Combination()
		}
	}
	return out
}

// reached returns the winnings row reached once the unit is over, or -1;
// none when the table shows another stake than the unit's.
func (m *Model) reached(b *yamsBoard) int {
	if b.done() && b.unit.Stake.Equal(b.stake) {
		return b.unit.Score().Tier
	}
	return -1
}

// combosTable lists the combinations and their points (art. 4.4), lighting
// those the cups show once the unit is over.
func (m *Model) combosTable(b *yamsBoard) string {
	shown := map[yams.Combination]bool{}
	if b.done() {
		for _, c := range m.lit(b) {
			shown[c] = true
		}
	}
	rows := []string{m.st.boxTitle.Render(m.t.get("combos"))}
	cs := yams.Combinations()
	for i := len(cs) - 1; i >= 1; i-- {
		c := cs[i]
		line := padRight(m.comboName(c), 15) + padLeft(strconv.Itoa(c.Points()), 3)
		style := m.st.row
		if shown[c] {
			style = m.st.rowLit
		}
		rows = append(rows, style.Render(line))
	}
	return m.st.box.Render(strings.Join(rows, "\n"))
}

// winningsTable lists what each points bracket pays at the stake (art. 4.5),
// lighting the row reached once the unit is over.
func (m *Model) winningsTable(b *yamsBoard) string {
	reached := m.reached(b)
	rows := []string{m.st.boxTitle.Render(m.t.f("winnings", m.t.money(b.stake)))}
	for i, br := range yams.Brackets(b.stake) {
		pts := strconv.Itoa(br.Low)
		if br.High != br.Low {
			pts += "–" + strconv.Itoa(br.High)
		}
		line := padRight(pts+" "+m.t.get("points"), 14) + padLeft(m.t.money(br.Prize), 12)
		style := m.st.row
		if i == reached {
			style = m.st.rowLit
		}
		rows = append(rows, style.Render(line))
	}
	return m.st.box.Render(strings.Join(rows, "\n"))
}

func padRight(s string, n int) string { return s + spaces(n-lipgloss.Width(s)) }
func padLeft(s string, n int) string  { return spaces(n-lipgloss.Width(s)) + s }
