package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/assets"
	"tapis/game/lottery"
	"tapis/game/yams"
	safe "tapis/text"
)

// cupPhase is where a cup stands: still covering its dice, rolling, or
// showing them.
type cupPhase int

const (
	cupCovered cupPhase = iota
	cupRolling
	cupShown
)

// The roll of a cup: the dice tumble for about half a second.
const (
	rollFrames = 8
	rollEvery  = 60 * time.Millisecond
)

// yamsState is the Yam's screen: the stake chosen and the unit being played.
type yamsState struct {
	stake  int // index into the stakes, 1 € at start
	sold   *lottery.Sold
	phase  [3]cupPhase
	faces  [3]yams.Cup // what each cup shows now: tumbling dice while rolling
	frames [3]int
	gen    [3]int
	note   note // why the last purchase was refused, or a unit recovered
	shown  bool // the journal knows the unit was revealed
	arts   [2]yamsArt
}

// yamsArt holds the drawings of the board at one size, styled once for the
// session: dice of five cells for 80 columns, of seven for wide windows.
type yamsArt struct {
	matW     int          // the width of a mat
	dieW     int          // the width of a die
	dice     [6][3]string // each face's three rows, with its edges
	cups     [3][]string  // each cup's rows, its number written on it, mat-wide
	blankRow string       // an empty row of felt, mat-wide
}

// wideBoard is the width from which the board uses large dice.
const wideBoard = 117

func newYamsArt(st *styles, wide bool) yamsArt {
	a := yamsArt{matW: 26, dieW: 5}
	if wide {
		a.matW, a.dieW = 37, 7
	}
	for f, face := range assets.MustDrawing("dice.txt") {
		for r, row := range face {
			if wide { // a pip every other cell
				row = string([]rune{rune(row[0]), ' ', rune(row[1]), ' ', rune(row[2])})
			}
			a.dice[f][r] = st.dieEdge.Render("▐") + st.die.Render(pips(row)) + st.dieEdge.Render("▌")
		}
	}
	for i := range a.cups {
		for _, r := range assets.MustDrawing("cup.txt")[0] {
			r = strings.Replace(r, "#", strconv.Itoa(i+1), 1)
			a.cups[i] = append(a.cups[i], st.cup.Width(a.matW).Align(lipgloss.Center).Render(r))
		}
	}
	a.blankRow = st.felt.Render(spaces(a.matW))
	return a
}

func newYamsState(st *styles) yamsState {
	return yamsState{stake: 1, arts: [2]yamsArt{newYamsArt(st, false), newYamsArt(st, true)}}
}

// boardArt returns the drawings that fit a board w cells wide.
func (m *Model) boardArt(w int) *yamsArt {
	if w >= wideBoard {
		return &m.yams.arts[1]
	}
	return &m.yams.arts[0]
}

// revealing reports whether a unit is bought and not all shown.
func (s *yamsState) revealing() bool {
	return s.sold != nil && !(s.phase[0] == cupShown && s.phase[1] == cupShown && s.phase[2] == cupShown)
}

// pending returns the prize of the unit being revealed.
func (s *yamsState) pending() (decimal.Decimal, bool) {
	if s.revealing() {
		return s.sold.Unit.Prize, true
	}
	return decimal.Zero, false
}

func (m *Model) yamsStake() decimal.Decimal { return lottery.Yams().Stakes[m.yams.stake] }

// start puts a unit on the board, its cups covered; its stake is chosen.
func (s *yamsState) start(sold *lottery.Sold) {
	s.sold, s.note, s.shown = sold, note{}, false
	if i := lottery.Yams().StakeIndex(sold.Layout.Yams.Stake); i >= 0 {
		s.stake = i // a loaded layout brings its stake
	}
	for i := range s.phase {
		s.phase[i], s.frames[i] = cupCovered, 0
		s.gen[i]++ // drop the ticks of the last unit's rolls
	}
}

func (m *Model) yamsKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.yams
	s := &m.yams
	switch {
	case key.Matches(msg, k.Left):
		if !s.revealing() {
			s.stake = max(0, s.stake-1)
		}
	case key.Matches(msg, k.Right):
		if !s.revealing() {
			s.stake = min(len(lottery.Yams().Stakes)-1, s.stake+1)
		}
	case key.Matches(msg, k.Play):
		return m.yamsPlay(false)
	case key.Matches(msg, k.Auto):
		return m.yamsPlay(true)
	case key.Matches(msg, k.Roll):
		i, _ := strconv.Atoi(msg.String())
		return m.rollCup(i - 1)
	}
	return nil
}

func (m *Model) yamsClick(id string) tea.Cmd {
	switch {
	case strings.HasPrefix(id, "stake:"):
		if !m.yams.revealing() {
			m.yams.stake, _ = strconv.Atoi(strings.TrimPrefix(id, "stake:"))
		}
	case id == "btn:play":
		return m.yamsPlay(false)
	case id == "btn:auto":
		return m.yamsPlay(true)
	case strings.HasPrefix(id, "cup:"):
		i, _ := strconv.Atoi(strings.TrimPrefix(id, "cup:"))
		return m.rollCup(i)
	}
	return nil
}

// yamsPlay buys a unit with Jouer (auto false: the player rolls each cup) or
// Auto (every cup rolls by itself), art. 4.1. While a unit is being revealed
// nothing is bought: Auto then rolls the cups left.
func (m *Model) yamsPlay(auto bool) tea.Cmd {
	s := &m.yams
	if s.revealing() {
		if auto {
			return m.rollAll()
		}
		return nil
	}
	if !m.offer(yams.Name) {
		sold, _, err := m.sell(lottery.Yams(), m.yamsStake())
		if err != nil {
			s.note = m.refusal(err)
			return nil
		}
		s.start(&sold)
	}
	if auto {
		return m.rollAll()
	}
	return nil
}

func (m *Model) rollAll() tea.Cmd {
	var cmds []tea.Cmd
	for i := range m.yams.phase {
		cmds = append(cmds, m.rollCup(i))
	}
	return tea.Batch(cmds...)
}

// rollCup starts rolling cup i (art. 4.3), if it still covers its dice.
func (m *Model) rollCup(i int) tea.Cmd {
	s := &m.yams
	if i < 0 || i > 2 || s.sold == nil || s.phase[i] != cupCovered {
		return nil
	}
	s.phase[i], s.frames[i] = cupRolling, 0
	s.gen[i]++
	m.tumble(i)
	return cupTick(i, s.gen[i])
}

func cupTick(i, gen int) tea.Cmd {
	return tea.Tick(rollEvery, func(time.Time) tea.Msg { return tickMsg{id: "cup:" + strconv.Itoa(i), gen: gen} })
}

// yamsTick moves a rolling cup on: tumbling faces, then the dealt ones.
func (m *Model) yamsTick(t tickMsg) tea.Cmd {
	i, _ := strconv.Atoi(strings.TrimPrefix(t.id, "cup:"))
	s := &m.yams
	if i < 0 || i > 2 || t.gen != s.gen[i] || s.phase[i] != cupRolling {
		return nil
	}
	s.frames[i]++
	if s.frames[i] >= rollFrames {
		s.phase[i] = cupShown
		s.faces[i] = s.sold.Layout.Yams.Cups[i]
		return nil
	}
	m.tumble(i)
	return cupTick(i, t.gen)
}

func (m *Model) tumble(i int) {
	for d := range m.yams.faces[i] {
		m.yams.faces[i][d] = uint8(1 + m.rng.IntN(6))
	}
}

// yamsBoard is what the board shows: the live unit or a replay.
type yamsBoard struct {
	stake  decimal.Decimal
	unit   *yams.Unit // nil before the first purchase
	phase  [3]cupPhase
	faces  [3]yams.Cup
	replay bool
}

func (m *Model) liveBoard() yamsBoard {
	s := &m.yams
	b := yamsBoard{stake: m.yamsStake(), phase: s.phase, faces: s.faces}
	if s.sold != nil {
		b.unit = s.sold.Layout.Yams
	}
	return b
}

// unitCup returns the dealt dice of cup i, or nothing before a purchase.
func (b *yamsBoard) unitCup(i int) yams.Cup {
	if b.unit == nil {
		return yams.Cup{}
	}
	return b.unit.Cups[i]
}

func (b *yamsBoard) done() bool {
	return b.unit != nil && b.phase == [3]cupPhase{cupShown, cupShown, cupShown}
}

// yamsHeight is the height the board needs; it fits 80×24.
const yamsHeight = 22

func (m *Model) yamsLayers(body area) []*lipgloss.Layer {
	b := m.liveBoard()
	a := m.boardArea(body)
	layers := m.stakeRow(area{a.x, a.y + 1, a.w, 1})
	if line := m.yamsNote(); line != "" {
		layers = append(layers, layer("", area{a.x, a.y + 2, a.w, 1}, fit(a.w, 1, ansi.Truncate(line, a.w, "…"))))
	}
	layers = append(layers, m.boardLayers(&b, a)...)
	return layers
}

// yamsNote is the line under the stakes: why the last purchase was
// refused, why the wallet cannot pay the stake chosen, or where another
// unit left unrevealed waits.
func (m *Model) yamsNote() string {
	s := &m.yams
	switch {
	case s.note.kind == noteRefused:
		return m.st.note.Render(s.note.text)
	case s.revealing():
		return ""
	}
	if n := m.payNote(lottery.Yams(), m.yamsStake()); n != "" {
		return m.st.note.Render(n)
	}
	if s.sold != nil {
		if e := m.elsewhere(yams.Name); e != "" {
			return m.st.win.Render(e)
		}
	}
	return ""
}

// boardArea places the board in the body; with one row less than it needs
// (the QA status line at 80×24), its first row, which is blank, goes.
func (m *Model) boardArea(body area) area {
	a := body.centered(body.w, min(body.h, yamsHeight))
	if body.h < yamsHeight {
		a.y -= yamsHeight - body.h
	}
	return a
}

// stakeRow draws the stake chips and the Jouer and Auto buttons (art. 4.1).
func (m *Model) stakeRow(a area) []*lipgloss.Layer {
	busy := m.yams.revealing()
	label := m.st.dim.Render(m.t.get("stake") + "  ")
	var parts []string
	var ids []string
	for i, st := range lottery.Yams().Stakes {
		chip := m.st.chip.Render(" " + m.t.money(st) + " ")
		if i == m.yams.stake {
			chip = m.st.chipOn.Render("[" + m.t.money(st) + "]")
		}
		parts = append(parts, chip)
		ids = append(ids, "stake:"+strconv.Itoa(i))
	}
	btn := m.st.button
	if busy {
		btn = m.st.buttonOff
	}
	parts = append(parts, "    ", btn.Render(m.t.get("play")), btn.Render(m.t.get("auto")))
	ids = append(ids, "", "btn:play", "btn:auto")
	total := lipgloss.Width(label)
	for _, p := range parts {
		total += lipgloss.Width(p) + 1
	}
	x := a.x + max(0, (a.w-total)/2)
	layers := []*lipgloss.Layer{layer("", area{x, a.y, 0, 1}, label)}
	x += lipgloss.Width(label)
	for i, p := range parts {
		layers = append(layers, layer(ids[i], area{x, a.y, 0, 1}, p))
		x += lipgloss.Width(p) + 1
	}
	return layers
}

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
