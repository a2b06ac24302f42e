package ui

import (
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
	if busy || !m.canPay(m.yamsStake()) { // they would buy nothing now
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
