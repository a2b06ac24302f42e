package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game/yams"
)

// Keys of the board's drawings.
type (
	// matKey is a mat as drawn: covered, its dice tumbling (faces), or
	// showing the dealt ones (faces).
	matKey struct {
		cup, w int
		phase  cupPhase
		faces  yams.Cup
	}
	resultKey struct {
		w                              int
		unit                           *yams.Unit
		recovered, replay, done, flash bool
		label, caption                 string
		sofar                          int // the points of the cups shown so far, -1 for none
		auto                           bool
	}
	combosKey struct{ lit [3]yams.Combination }
	winsKey   struct {
		stakeAt int    // the stake's index among Yam's stakes
		stake   string // the stake written, when it is none of them
		reached int
	}
)

// matKeyOf returns the key of mat i as b shows it, w wide: only what the
// drawing shows is in it.
func matKeyOf(b *yamsBoard, i, w int) matKey {
	switch {
	case b.unit == nil || b.phase[i] == cupCovered:
		return matKey{cup: i, w: w, phase: cupCovered}
	case b.phase[i] == cupRolling:
		return matKey{i, w, cupRolling, b.faces[i]}
	}
	return matKey{i, w, b.phase[i], b.unit.Cups[i]}
}

// boardLayers appends to layers the three mats, the result line, and the
// tables of combinations (art. 4.4) and winnings (art. 4.5), inside a.
func (c *common) boardLayers(layers []layer, b *yamsBoard, a area) []layer {
	const matH = 6
	art := c.boardArt(a.w)
	matW := art.matW
	gap := min(6, max(1, (a.w-3*matW)/4))
	x0 := a.x + (a.w-(3*matW+2*gap))/2
	party := c.party.frame > 0 && !b.replay && b.done() && c.party.celebrating(b.unit.Score().Prize.Decimal(), b.unit.Stake)
	if party { // a big win: its lettering over the mats, a jackpot's over the tables too
		layers = append(layers, c.partyBands(area{a.x, a.y + 3, a.w, matH}, area{a.x, a.y + 10, a.w, max(0, a.h-10)})...)
	}
	for i := range 3 {
		if party {
			break
		}
		mat := area{x0 + i*(matW+gap), a.y + 3, matW, matH}
		key := matKeyOf(b, i, matW)
		var d *drawing
		if key.phase == cupRolling {
			// A rolling cup's dice are kept only while they show: in the
			// memo they would push out what shows again.
			d = c.kept.mats[i].get(key, func() *drawing { return c.mat(b, i, art) })
		} else {
			d = memo(c, key, func() *drawing { return c.mat(b, i, art) })
		}
		layers = append(layers, named(target{cupTarget, i}, mat, d))
	}
	result := drawn(c, resultKey{a.w, b.unit, b.recovered, b.replay, b.done(), c.party.flashing(), b.label, b.caption, b.sofar(), b.auto},
		func() string {
			line := c.yamsResult(b)
			if b.replay { // marked as a Vegas ticket shown again is: on its result's line
				line = c.st.replay.Render(c.t.get("replay")) + "  " + c.st.dim.Render(b.caption) + "  " + line
			}
			return fit(a.w, 1, ansi.Truncate(line, a.w, "…"))
		})
	layers = append(layers, place(area{a.x, a.y + 9, a.w, 1}, result))
	lit := c.lit(b)
	combos := memo(c, combosKey{lit}, func() *drawing {
		var shown uint16 // the combinations lit; none is never listed
		for _, combo := range lit {
			shown |= 1 << combo
		}
		return c.sharedTable(tableKey{lit: shown &^ 1}, func() string { return c.combosTable(b) })
	})
	wk := winsKey{stakeAt: b.stakeAt, reached: c.reached(b)}
	if wk.stakeAt < 0 {
		wk.stake = b.stake.String()
	}
	wins := memo(c, wk, func() *drawing {
		if wk.stakeAt < 0 { // a stake of no table: the session's own
			return measure(c.winningsTable(b))
		}
		return c.sharedTable(tableKey{wins: true, stakeAt: wk.stakeAt, reached: wk.reached}, func() string { return c.winningsTable(b) })
	})
	tw := combos.w + 4 + wins.w
	tx := a.x + max(0, (a.w-tw)/2)
	if party && c.party.huge && a.h-10 >= letterRows {
		return layers
	}
	layers = append(layers,
		place(area{tx, a.y + 10, 0, 0}, combos),
		place(area{tx + combos.w + 4, a.y + 10, 0, 0}, wins))
	return layers
}

// mat draws mat i: its title, its cup or its five dice, and once shown
// the combination and its points. Its rows are the art's, measured once.
func (c *common) mat(b *yamsBoard, i int, art *yamsArt) *drawing {
	w := art.matW
	n := 3 + len(art.cups[i])
	d := &drawing{lines: make([]string, 0, n), widths: make([]int, 0, n)}
	add := func(row string, w int) {
		d.lines, d.widths, d.w = append(d.lines, row), append(d.widths, w), max(d.w, w)
	}
	add(c.feltLine(w, c.t.f("mat", i+1)))
	switch {
	case b.unit == nil || b.phase[i] == cupCovered:
		for r, row := range art.cups[i] {
			add(row, art.cupsW[i][r])
		}
	default:
		faces := b.faces[i]
		if b.phase[i] == cupShown {
			faces = b.unit.Cups[i]
		}
		for r := range 3 {
			n, w := len(art.left)+len(art.margin), art.leftW+art.marginW
			for _, f := range faces {
				n, w = n+len(art.dice[f-1][r]), w+art.diceW[f-1][r]
			}
			var sb strings.Builder
			sb.Grow(n)
			sb.WriteString(art.left)
			for _, f := range faces {
				sb.WriteString(art.dice[f-1][r])
			}
			sb.WriteString(art.margin)
			add(sb.String(), w)
		}
	}
	add(art.blankRow, art.blankW)
	last := ""
	if b.unit != nil && b.phase[i] == cupShown {
		combo := b.unit.Cups[i].Combination()
		last = c.comboName(combo) + " · " + c.t.f("pts", combo.Points())
	}
	add(c.feltLine(w, last))
	if strings.Contains(d.lines[0], "\n") || strings.Contains(d.lines[len(d.lines)-1], "\n") {
		return measure(d.String()) // a title or a combination too long for the mat, wrapped
	}
	return d
}

// feltLineKey is a line of a mat's title or combination, w wide.
type feltLineKey struct {
	w    int
	text string
}

// feltLine writes a line of text on the felt, centered in w cells, and
// says how wide it is.
func (c *common) feltLine(w int, text string) (string, int) {
	l := memo(c, feltLineKey{w, text}, func() feltLineDrawn {
		s := c.st.feltTitle.Width(w).Align(lipgloss.Center).Render(text)
		return feltLineDrawn{s, cellWidth(s)}
	})
	return l.s, l.w
}

// feltLineDrawn is a line of feltLine and its width.
type feltLineDrawn struct {
	s string
	w int
}

func pips(row string) string { return strings.ReplaceAll(row, "o", "●") }

// comboKeys are the text keys of the combinations, lowest first.
var comboKeys = [...]string{"c.none", "c.pair", "c.two_pairs", "c.three", "c.full", "c.small", "c.four", "c.large", "c.yams"}

func (c *common) comboName(combo yams.Combination) string { return c.t.get(comboKeys[combo]) }

// yamsResult is the line under the mats: a hint, or the total and the prize,
// celebrated in proportion to the lot.
func (c *common) yamsResult(b *yamsBoard) string {
	switch {
	case b.recovered && !b.replay && !b.done():
		return c.st.note.Render(c.t.get("recovered"))
	case b.unit == nil:
		return c.st.dim.Render(c.t.get("buy.hint"))
	case !b.done() && b.sofar() >= 0: // the total counts up as the cups land
		total := c.st.win.Render(c.t.f("total", b.sofar()))
		if b.auto { // the cups roll by themselves
			return total
		}
		return total + "  " + c.st.dim.Render(c.t.f("roll.hint", c.keys.yams.Roll.Help().Key))
	case !b.done() && b.auto:
		return ""
	case !b.done():
		return c.st.dim.Render(c.t.f("roll.hint", c.keys.yams.Roll.Help().Key))
	}
	s := b.unit.Score()
	total := c.t.f("total", s.Points)
	if b.label != "" {
		total = c.st.replay.Render(c.unitLabel(b.label)) + "  " + total
	}
	if s.Prize.IsZero() {
		return total + "  " + c.st.lose.Render(c.t.get("lost"))
	}
	return total + "  " + c.celebrate(s.Prize.Decimal(), b.unit.Stake)
}

// celebrate shows a prize: plainly when it does not beat the stake, with a
// banner growing with the lot otherwise.
func (c *common) celebrate(prize, stake decimal.Decimal) string {
	won := c.t.f("won", c.t.money(prize))
	ratio := prize.Div(stake)
	banner := c.st.bigWin
	star := "★"
	if c.party.flashing() {
		banner, star = c.st.replay, "✦"
	}
	switch {
	case !prize.GreaterThan(stake):
		return won
	case ratio.GreaterThanOrEqual(decimal.NewFromInt(500)):
		return banner.Render(star + star + star + " " + c.t.get("hugewin") + " " + star + star + star + " " + won + " " + star + star + star)
	case ratio.GreaterThanOrEqual(decimal.NewFromInt(10)):
		return banner.Render(star + star + " " + c.t.get("bigwin") + " · " + won + " " + star + star)
	}
	return c.st.win.Render("★ " + won + " ★")
}

// sofar returns the points of the cups shown so far, -1 when none is.
func (b *yamsBoard) sofar() int {
	if b.unit == nil {
		return -1
	}
	n := -1
	for i, p := range b.phase {
		if p == cupShown {
			n = max(n, 0) + b.unit.Cups[i].Combination().Points()
		}
	}
	return n
}

// lit returns the combinations the cups show once the unit is over.
func (c *common) lit(b *yamsBoard) [3]yams.Combination {
	var out [3]yams.Combination
	if b.done() {
		for i, cup := range b.unit.Cups {
			out[i] = cup.Combination()
		}
	}
	return out
}

// reached returns the winnings row reached once the unit is over, or -1;
// none when the table shows another stake than the unit's.
func (c *common) reached(b *yamsBoard) int {
	if b.done() && b.unit.Stake.Equal(b.stake) {
		return b.unit.Score().Tier
	}
	return -1
}

// combosTable lists the combinations and their points (art. 4.4), lighting
// those the cups show once the unit is over.
func (c *common) combosTable(b *yamsBoard) string {
	shown := map[yams.Combination]bool{}
	if b.done() {
		for _, combo := range c.lit(b) {
			shown[combo] = true
		}
	}
	rows := []string{c.st.boxTitle.Render(c.t.get("combos"))}
	cs := yams.Combinations()
	for i := len(cs) - 1; i >= 1; i-- {
		combo := cs[i]
		line := padRight(c.comboName(combo), 15) + padLeft(strconv.Itoa(combo.Points()), 3)
		style := c.st.row
		if shown[combo] {
			style = c.st.rowLit
		}
		rows = append(rows, style.Render(line))
	}
	return c.st.box.Render(strings.Join(rows, "\n"))
}

// winningsTable lists what each points bracket pays at the stake (art. 4.5),
// lighting the row reached once the unit is over.
func (c *common) winningsTable(b *yamsBoard) string {
	reached := c.reached(b)
	rows := []string{c.st.boxTitle.Render(c.t.f("winnings", c.t.money(b.stake)))}
	for i, br := range yams.Brackets(b.stake) {
		pts := strconv.Itoa(br.Low)
		if br.High != br.Low {
			pts += "–" + strconv.Itoa(br.High)
		}
		line := padRight(pts+" "+c.t.get("points"), 14) + padLeft(c.t.money(br.Prize), 12)
		style := c.st.row
		if i == reached {
			style = c.st.rowLit
		}
		rows = append(rows, style.Render(line))
	}
	return c.st.box.Render(strings.Join(rows, "\n"))
}

func padRight(s string, n int) string { return s + spaces(n-lipgloss.Width(s)) }
func padLeft(s string, n int) string  { return spaces(n-lipgloss.Width(s)) + s }
