package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

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

// The roll of a cup at the normal speed: the dice tumble for about half a
// second (speed.go has the other speeds).
const (
	rollFrames = 8
	rollEvery  = 60 * time.Millisecond
)

// yamsScreen is « Yam's ! » (art. 4): the stake chosen, and the unit
// being played, its cups rolled one by one or all at once.
type yamsScreen struct {
	*common
	slot
	g       lottery.Game // Yam's, made once: a frame asks for its stakes
	stakeAt int          // index into the stakes, 1 € at start
	first   int          // the stake chosen at start: a fresh wallet goes back to it
	phase   [3]cupPhase
	faces   [3]yams.Cup // what each cup shows now: tumbling dice while rolling
	frames  [3]int
	gen     [3]int
	auto    bool    // Auto's cups are rolling one after another
	laid    []layer // the array layers fills, frame after frame
}

func newYamsScreen(c *common, stake decimal.Decimal) *yamsScreen {
	s := &yamsScreen{common: c, g: lottery.Yams(), stakeAt: 1}
	if i := s.g.StakeIndex(stake); i >= 0 {
		s.stakeAt = i
	}
	s.first = s.stakeAt
	return s
}

func (s *yamsScreen) game() lottery.Game { return s.g }

// revealing reports whether a unit is bought and not all shown.
func (s *yamsScreen) revealing() bool {
	return s.sold != nil && !(s.phase[0] == cupShown && s.phase[1] == cupShown && s.phase[2] == cupShown)
}

func (s *yamsScreen) stake() decimal.Decimal { return s.g.Stakes[s.stakeAt] }

func (s *yamsScreen) setStake(d decimal.Decimal) {
	if i := s.g.StakeIndex(d); i >= 0 {
		s.stakeAt = i
	}
}

// take puts a unit on the board, its cups covered; its stake is chosen (a
// loaded layout brings its own).
func (s *yamsScreen) take(sold *lottery.Sold, n note) {
	s.sold, s.note, s.shown, s.auto = sold, n, false, false
	s.setStake(sold.Layout.Yams.Stake)
	for i := range s.phase {
		s.phase[i], s.frames[i] = cupCovered, 0
		s.gen[i]++ // drop the ticks of the last unit's rolls
	}
}

// reset empties the board for a fresh wallet, back to the starting stake.
func (s *yamsScreen) reset() {
	*s = yamsScreen{common: s.common, g: s.g, stakeAt: s.first, first: s.first, gen: s.gen, laid: s.laid}
	for i := range s.gen {
		s.gen[i]++
	}
}

func (s *yamsScreen) shownNow() *lottery.Sold { return s.seen(s.revealing()) }

func (s *yamsScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s.key(msg)
	case clickMsg:
		if !msg.drag {
			return s.click(msg.target)
		}
	case cupTickMsg:
		return s.tick(msg)
	case boughtMsg:
		return takeBought(s, &s.slot, s.till, msg)
	}
	return nil
}

func (s *yamsScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys.yams
	if s.hold(msg, key.Matches(msg, k.Auto, k.Roll)) {
		return nil
	}
	switch {
	case key.Matches(msg, k.Left):
		if !s.revealing() && !s.busy {
			s.stakeAt = max(0, s.stakeAt-1)
		}
	case key.Matches(msg, k.Right):
		if !s.revealing() && !s.busy {
			s.stakeAt = min(len(s.g.Stakes)-1, s.stakeAt+1)
		}
	case key.Matches(msg, k.Play):
		return s.play(false)
	case key.Matches(msg, k.Auto):
		return s.play(true)
	case key.Matches(msg, k.Speed):
		s.changeSpeed()
	}
	for i, cup := range k.Cups {
		if key.Matches(msg, cup) {
			return s.rollCup(i)
		}
	}
	return nil
}

func (s *yamsScreen) click(t target) tea.Cmd {
	switch t.kind {
	case stakeTarget:
		if !s.revealing() && !s.busy && t.n < len(s.g.Stakes) {
			s.stakeAt = t.n
		}
	case playTarget:
		return s.play(false)
	case autoTarget:
		return s.play(true)
	case cupTarget:
		return s.rollCup(t.n)
	}
	return nil
}

// play buys a unit with Jouer (auto false: the player rolls each cup) or
// Auto (every cup rolls by itself), art. 4.1.
func (s *yamsScreen) play(auto bool) tea.Cmd { return playOn(s, &s.slot, s.till, auto) }

// revealAll rolls every cup still covered.
func (s *yamsScreen) revealAll() tea.Cmd { return s.rollAll() }

// rollAll rolls every cup still covered, one after another (Auto): the
// first covered cup rolls, and each lands before the next starts, a beat
// later (the speed's). A second Auto while they roll changes nothing.
func (s *yamsScreen) rollAll() tea.Cmd {
	if s.auto {
		return nil
	}
	g := rollGroup{chain: true}
	for i := range s.phase {
		if g.add(s, i) {
			s.auto = true
			break
		}
	}
	return s.rolls(g)
}

// revealStep rolls the next covered cup, at the demo's pace.
func (s *yamsScreen) revealStep() (tea.Cmd, time.Duration) {
	for i, p := range s.phase {
		if p == cupCovered {
			return s.rollCup(i), demoPause
		}
	}
	return nil, demoPause // the last cup is rolling
}

// rollCup starts rolling cup i (art. 4.3), if it still covers its dice:
// on its own, as the player rolls one cup at a time.
func (s *yamsScreen) rollCup(i int) tea.Cmd {
	var g rollGroup
	g.add(s, i)
	return s.rolls(g)
}

// rollGroup is cups that started rolling together, and the generation
// each started in: their ticks come as one message.
type rollGroup struct {
	cups [3]bool
	gen  [3]int
	// chain is Auto's: once the group's cup lands, the next covered one
	// rolls. Between the two, the group has no cup and gen is every
	// cup's generation as it landed: a unit taken since drops the chain.
	chain bool
}

// add starts rolling cup i (art. 4.3) with the group, if it still covers
// its dice, and reports whether it did.
func (g *rollGroup) add(s *yamsScreen, i int) bool {
	if i < 0 || i > 2 || s.sold == nil || s.phase[i] != cupCovered {
		return false
	}
	s.phase[i], s.frames[i] = cupRolling, 0
	s.gen[i]++
	s.tumble(i)
	g.cups[i], g.gen[i] = true, s.gen[i]
	return true
}

// rolls returns the tick of a group's next step, if it has cups.
func (s *yamsScreen) rolls(g rollGroup) tea.Cmd {
	if g.cups == [3]bool{} {
		return nil
	}
	return s.clock.After(s.pace().rollEvery, cupTickMsg{g})
}

// tick moves the cups of a group on, in order: tumbling faces, then the
// dealt ones. A cup whose roll was dropped since (a new unit, a fresh
// wallet) leaves the group.
func (s *yamsScreen) tick(t cupTickMsg) tea.Cmd {
	g := t.group
	if g.chain && g.cups == [3]bool{} {
		return s.chainNext(g)
	}
	landed := false
	for i := range g.cups {
		if !g.cups[i] || g.gen[i] != s.gen[i] || s.phase[i] != cupRolling {
			g.cups[i] = false
			continue
		}
		s.frames[i]++
		if s.frames[i] >= s.pace().rollFrames {
			s.phase[i] = cupShown
			s.faces[i] = s.sold.Layout.Yams.Cups[i]
			g.cups[i], landed = false, true
			continue
		}
		s.tumble(i)
	}
	if g.chain && landed && g.cups == [3]bool{} {
		// Auto's cup has landed: the next one after a beat, if any is
		// left.
		g.gen = s.gen
		if s.revealing() {
			return s.clock.After(s.pace().land, cupTickMsg{g})
		}
		s.auto = false
		return nil
	}
	return s.rolls(g)
}

// chainNext rolls the next covered cup of Auto's chain, once the beat
// after the last one landed is over; none if the unit changed since, or
// every cup is rolling or shown.
func (s *yamsScreen) chainNext(g rollGroup) tea.Cmd {
	if !s.auto {
		return nil
	}
	for i := range s.phase {
		if s.phase[i] == cupCovered {
			if g.gen[i] != s.gen[i] { // a unit taken since: its cups are the player's
				return nil
			}
			next := rollGroup{chain: true}
			next.add(s, i)
			return s.rolls(next)
		}
	}
	s.auto = false
	return nil
}

func (s *yamsScreen) tumble(i int) {
	for d := range s.faces[i] {
		s.faces[i][d] = uint8(1 + s.rng.IntN(6))
	}
}

// yamsBoard is what the board shows: the live unit or a replay.
type yamsBoard struct {
	stake     decimal.Decimal
	stakeAt   int        // the stake's index among Yam's stakes, -1 for none
	recovered bool       // the unit is one of an earlier run
	label     string     // a forced unit's label (QA, DEMO)
	unit      *yams.Unit // nil before the first purchase
	phase     [3]cupPhase
	faces     [3]yams.Cup
	replay    bool
	caption   string // a replay's unit (and its line in a file)
	auto      bool   // Auto rolls the cups: no hint to roll them
}

func (s *yamsScreen) board() yamsBoard {
	b := yamsBoard{stake: s.stake(), stakeAt: s.stakeAt, phase: s.phase, faces: s.faces, recovered: s.note.kind == noteRecovered,
		auto: s.auto}
	if s.sold != nil {
		b.unit = s.sold.Layout.Yams
		if s.sold.Forced != nil {
			b.label = s.sold.Forced.Label
		}
	}
	return b
}

func (b *yamsBoard) done() bool {
	return b.unit != nil && b.phase == [3]cupPhase{cupShown, cupShown, cupShown}
}

// yamsHeight is the height the board needs; it fits 80×24.
const yamsHeight = 22

func (s *yamsScreen) layers(body area) []layer {
	b := s.board()
	a := boardArea(body)
	layers := append(s.laid[:0], s.stakeRow(area{a.x, a.y + 1, a.w, 1})...)
	if line := s.noteLine(); line != "" {
		layers = append(layers, place(area{a.x, a.y + 2, a.w, 1}, s.centerLine(a.w, line)))
	}
	s.laid = s.boardLayers(layers, &b, a)
	return s.laid
}

// noteLine is the line under the stakes: why the last purchase was
// refused, why the wallet cannot pay the stake chosen, or where another
// unit left unrevealed waits.
func (s *yamsScreen) noteLine() string {
	switch {
	case s.note.refused():
		return s.st.note.Render(s.say(s.note))
	case s.busy:
		return s.st.dim.Render(s.t.get("buying"))
	case s.revealing():
		return ""
	}
	if n := s.payNote(s.g, s.stake()); n != "" {
		return s.st.note.Render(n)
	}
	if s.sold != nil {
		if e := s.elsewhere(yams.Name); e != "" {
			return s.st.win.Render(e)
		}
	}
	return ""
}

// boardArea places the board in the body; with one row less than it needs
// (the QA status line at 80×24), its first row, which is blank, goes.
func boardArea(body area) area {
	a := body.centered(body.w, min(body.h, yamsHeight))
	if body.h < yamsHeight {
		a.y -= yamsHeight - body.h
	}
	return a
}

// stakeRowKey is the row of stakes and buttons as laid out in an area.
type stakeRowKey struct {
	a                        area
	stakeAt                  int
	locked, playOff, autoOff bool
}

// stakeRow draws the stake chips and the Jouer and Auto buttons (art. 4.1):
// the memo's layers, for the caller to copy. Each is drawn as what a
// click on it does now: Jouer is off while a unit is bought or revealed,
// or when the balance does not pay the stake; Auto stays on while a unit
// is revealed (it reveals the rest); the chips other than the stake
// chosen lose their look of chips while the stake cannot change.
func (s *yamsScreen) stakeRow(a area) []layer {
	revealing, pays := s.revealing(), s.till.canPay(s.stake())
	locked := revealing || s.busy
	k := stakeRowKey{a: a, stakeAt: s.stakeAt, locked: locked, playOff: locked || !pays, autoOff: s.busy || (!revealing && !pays)}
	row := memo(s.common, k, func() []layer {
		label := measure(s.st.dim.Render(s.t.get("stake") + "  "))
		var parts []*drawing
		var ids []target
		for i, st := range s.g.Stakes {
			chip := s.st.chip.Render(" " + s.t.money(st) + " ")
			switch {
			case i == s.stakeAt:
				chip = s.st.chipOn.Render("[" + s.t.money(st) + "]")
			case k.locked:
				chip = s.st.dim.Render(" " + s.t.money(st) + " ")
			}
			parts = append(parts, measure(chip))
			ids = append(ids, target{stakeTarget, i})
		}
		button := func(off bool, text string) *drawing {
			if off {
				return measure(s.st.buttonOff.Render(text))
			}
			return measure(s.st.button.Render(text))
		}
		parts = append(parts, measure("    "), button(k.playOff, s.t.get("play")), button(k.autoOff, s.t.get("auto")))
		ids = append(ids, target{}, target{kind: playTarget}, target{kind: autoTarget})
		total := label.w
		for _, p := range parts {
			total += p.w + 1
		}
		x := a.x + max(0, (a.w-total)/2)
		layers := []layer{place(area{x, a.y, 0, 1}, label)}
		x += label.w
		for i, p := range parts {
			layers = append(layers, named(ids[i], area{x, a.y, 0, 1}, p))
			x += p.w + 1
		}
		return layers
	})
	return row
}

// drawings are the pictures of both games, styled for a look: the same for
// every session in it (sharedLook), and only read once made.
type drawings struct {
	yams    [2]*yamsArt // dice of five cells, and of seven for wide windows
	ticket  *ticketArt
	inks    *inks     // the grids' inks
	letters lettering // a big win's big characters
}

func (s *yamsScreen) keyMap() keyMap {
	// The bottom line shows what the keys do now.
	revealing := s.revealing()
	busy, pays := revealing || s.busy, s.till.canPay(s.stake())
	return s.keyMapOf(keyMapKey{YamsScreen, states(busy, pays, revealing)}, func() keyMap {
		y := s.keys.yams
		own := []key.Binding{y.Stake, y.Play, y.Auto, y.Roll, y.Speed}
		short := []key.Binding{only(y.Stake, !busy), only(y.Play, !busy && pays), only(y.Auto, busy || pays), only(y.Roll, revealing), only(y.Speed, revealing)}
		return s.withGlobal(YamsScreen, own, short)
	})
}
