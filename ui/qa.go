package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
	"tapis/game/yams"
	"tapis/wallet"
)

// pendingForce is what the next purchase of a game plays instead of a unit
// from its block (ruling G6): a force, or layouts loaded from a file, in
// order.
type pendingForce struct {
	game   string
	label  string // QA, or DEMO for the attract loop's units
	force  lottery.Force
	queue  []lottery.Layout // loaded layouts still to play, after force
	detail string           // what it deals, for the status line
	file   string           // the file the layouts come from (printable), if they do
	cut    bool             // the file held more layouts than were loaded
}

// describe says what the force deals, for the status line: for a file's
// layouts, how many are left.
func (c *common) describe(p *pendingForce) string {
	if p.file == "" {
		return p.detail
	}
	n := len(p.queue) + 1
	s := c.t.count("qa.fileleft", n, p.file, n)
	if p.cut {
		s += " · " + c.t.f("qa.cut", lottery.MaxRecords)
	}
	return s
}

// qaMode is a tab of the forcing panel.
type qaMode int

const (
	qaLot qaMode = iota
	qaPoints
	qaCombos
	qaSplit
	qaFile
)

// qaModeKeys are the text keys of each tab's name.
var qaModeKeys = [...]string{
	qaLot:    "qa.mode.lot",
	qaPoints: "qa.mode.points",
	qaCombos: "qa.mode.combos",
	qaSplit:  "qa.mode.surfaces",
	qaFile:   "qa.mode.file",
}

// gameKeys are the text keys of the games' names.
var gameKeys = map[string]string{yams.Name: "yams", vegas.Name: "vegas"}

// qaPanel is the forcing panel opened by f over a game's screen: what the
// next purchase of that game plays.
type qaPanel struct {
	*common
	g      gameScreen // the game it forces
	closed bool       // esc, or a force set: the root takes the panel away
	mode   qaMode
	cursor int                 // the lot chosen, in qaLot and qaSplit
	split  int                 // the split chosen, in qaSplit
	input  textinput.Model     // the points or the file name, in qaPoints and qaFile
	cup    int                 // the cup being set, in qaCombos
	combos [3]yams.Combination // the combinations chosen, in qaCombos
	err    string              // why the last try failed
	errs   []string            // a file's errors, the first maxProblems
	more   int                 // and how many more it holds
	load   *fileLoad           // the file being read, in qaFile
}

func (p *qaPanel) modes() []qaMode {
	if p.g.game().Name == vegas.Name {
		return []qaMode{qaLot, qaSplit, qaFile}
	}
	return []qaMode{qaLot, qaPoints, qaCombos, qaFile}
}

// qaStatus is the QA line: the pending force, the seed, the block being
// sold for the game and stake on screen and its serial, what is left of it
// by lot, and the losing units left. It fits width cells: the parts that
// do not fit are left out, least useful first (the forcing panel shows
// every lot left and every sequence's block).
func (c *common) qaStatus(on gameScreen, width int) string {
	g, stake := on.game(), on.stake()
	b, ok := c.till.blocks.block(g, stake)
	switch {
	case !ok && c.till.blocks.err != nil:
		// The store's words are its own (an address, a query): a QA
		// session over SSH is a remote one.
		return ansi.Truncate(c.t.get("qa.unread"), width, "")
	case !ok:
		return ""
	}
	var lots []string
	for i := range b.Losing {
		lots = append(lots, strconv.FormatInt(b.Left[i], 10))
	}
	// Each part with its rank: the lower, the more it matters.
	type part struct {
		rank int
		text string
	}
	var parts []part
	if p := c.till.force; p != nil {
		parts = append(parts, part{0, c.t.f("qa.next", p.game, c.describe(p))})
	}
	if seed := c.till.session.Seed(); seed != (game.Seed{}) { // a store's seed is the house's, never shown
		parts = append(parts, part{1, c.t.f("qa.seed", seed.String()[:12])}) // its first 12 digits: the seed given is the QA's
	}
	parts = append(parts,
		part{2, c.t.f("qa.block", g.Name, c.t.money(stake), b.Number, b.Sold)},
		part{3, c.t.f("qa.leftn", b.Remaining)},
		part{5, c.t.f("qa.lots", strings.Join(lots, "·"))},
		part{4, c.t.f("qa.losingn", b.Left[b.Losing])},
	)
	keep := make([]bool, len(parts))
	used := -3
fill:
	for rank := range 6 {
		for i, p := range parts {
			if p.rank != rank {
				continue
			}
			if w := lipgloss.Width(p.text) + 3; used+w > width {
				break fill // what matters less would read out of context
			}
			keep[i], used = true, used+lipgloss.Width(p.text)+3
		}
	}
	var out []string
	for i, p := range parts {
		if keep[i] {
			out = append(out, p.text)
		}
	}
	return strings.Join(out, " · ")
}

// sequences lists the block and serial reached by every sequence of the
// session: each Yam's stake and Vegas.
func (c *common) sequences() string {
	var out []string
	for _, g := range lottery.Games() {
		for _, stake := range g.Stakes {
			if b, ok := c.till.blocks.block(g, stake); ok {
				out = append(out, c.t.f("qa.seq", g.Name, c.t.money(stake), b.Number, b.Sold)+fmt.Sprintf(" · sha256 %x…", b.Commitment[:6]))
			}
		}
	}
	return strings.Join(out, "\n")
}

func (p *qaPanel) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return p.key(msg)
	case tea.PasteMsg:
		if p.typing() {
			return p.edit(msg)
		}
	case layoutsMsg:
		p.onLayouts(msg)
	}
	return nil
}

// key handles every key while the forcing panel is open (ctrl+c aside).
func (p *qaPanel) key(msg tea.KeyPressMsg) tea.Cmd {
	g, stake := p.g.game(), p.g.stake()
	table, _ := g.Table(stake)
	k := p.keys.qa
	switch {
	case key.Matches(msg, k.Close, k.Stop):
		p.cancelLoad()
		p.closed = true
		return nil
	case key.Matches(msg, k.Mode):
		p.nextMode()
		return nil
	}
	switch p.mode {
	case qaLot, qaSplit:
		n := table.Tiers()
		switch {
		case key.Matches(msg, k.PrevLot):
			p.cursor, p.split = (p.cursor+n-1)%n, 0
		case key.Matches(msg, k.NextLot):
			p.cursor, p.split = (p.cursor+1)%n, 0
		case p.mode == qaSplit && key.Matches(msg, k.PrevSplit):
			p.split = max(0, p.split-1)
		case p.mode == qaSplit && key.Matches(msg, k.NextSplit):
			p.split = min(len(vegas.Splits(table.Prize(p.cursor).IntPart()))-1, p.split+1)
		case key.Matches(msg, k.Force) && p.mode == qaLot:
			tier := p.cursor
			p.setForce(g.Name, lottery.Force{Tier: &tier}, p.t.money(table.Prize(tier)))
		case key.Matches(msg, k.Force):
			s := vegas.Splits(table.Prize(p.cursor).IntPart())[p.split]
			p.setForce(g.Name, lottery.Force{Split: &s}, splitText(s))
		}
	case qaCombos:
		all := yams.Combinations()
		switch {
		case key.Matches(msg, k.PrevCup):
			p.cup = (p.cup + 2) % 3
		case key.Matches(msg, k.NextCup):
			p.cup = (p.cup + 1) % 3
		case key.Matches(msg, k.NextCombo):
			p.combos[p.cup] = all[(int(p.combos[p.cup])+1)%len(all)]
		case key.Matches(msg, k.PrevCombo):
			p.combos[p.cup] = all[(int(p.combos[p.cup])+len(all)-1)%len(all)]
		case key.Matches(msg, k.Force):
			cs := p.combos
			names := []string{p.comboName(cs[0]), p.comboName(cs[1]), p.comboName(cs[2])}
			p.setForce(g.Name, lottery.Force{Combos: &cs}, strings.Join(names, " / "))
		}
	case qaPoints:
		if !key.Matches(msg, k.Force) {
			return p.edit(msg)
		}
		typed := p.input.Value()
		n, err := strconv.Atoi(strings.TrimSpace(typed))
		u := yams.Unit{Stake: stake}
		switch {
		case err != nil:
			p.err = p.t.f("qa.notanumber", typed)
		case n < 0 || n > 150 || !yams.DealTotal(p.rng, n, &u):
			p.err = p.t.f("qa.nototal", typed)
		default:
			p.setForce(g.Name, lottery.Force{Total: &n}, p.t.f("pts", n))
		}
	case qaFile:
		if !key.Matches(msg, k.Load) {
			return p.edit(msg)
		}
		p.cancelLoad()
		p.load, p.err, p.errs, p.more = &fileLoad{}, "", nil, 0
		return loadLayouts(p.load, p.t, g, strings.TrimSpace(p.input.Value()))
	}
	return nil
}

// nextMode goes to the panel's next tab, afresh.
func (p *qaPanel) nextMode() {
	p.cancelLoad()
	modes := p.modes()
	next := modes[(slices.Index(modes, p.mode)+1)%len(modes)]
	*p = qaPanel{common: p.common, g: p.g, mode: next, cursor: p.cursor}
	if p.typing() {
		p.input = p.newField()
	}
}

// setForce makes the next purchase of a game play the force, and closes the
// panel.
func (p *qaPanel) setForce(gameName string, f lottery.Force, detail string) {
	p.till.force = &pendingForce{game: gameName, label: forcedLabel, force: f, detail: detail}
	p.closed = true
}

// splitText writes a split of a lot over the four surfaces, each after its
// initial: R 35000 · C 5000 · P 0 · J 0.
func splitText(s vegas.Split) string {
	return fmt.Sprintf("R %d · C %d · P %d · J %d", s[0], s[1], s[2], s[3])
}

// number writes a count as the screen's language writes numbers.
func (c *common) number(n int64) string {
	return wallet.Number(decimal.NewFromInt(n), 0, string(c.t.lang))
}

// panelLayers draws the forcing panel in place of the screen's body.
func (p *qaPanel) layers(body area) []layer {
	g, stake := p.g.game(), p.g.stake()
	table, _ := g.Table(stake)
	block, _ := p.till.blocks.block(g, stake)
	var tabs []string
	for _, md := range p.modes() {
		label := p.t.get(qaModeKeys[md])
		if md == p.mode {
			tabs = append(tabs, p.st.chipOn.Render("["+label+"]"))
		} else {
			tabs = append(tabs, p.st.chip.Render(" "+label+" "))
		}
	}
	rows := []string{
		p.st.boxTitle.Render(p.t.f("qa.title", p.t.get(gameKeys[g.Name]), p.t.money(stake))),
		strings.Join(tabs, " "), "",
	}
	switch p.mode {
	case qaLot, qaSplit:
		for i := range table.Tiers() {
			prize := p.t.money(table.Prize(i))
			if i == table.Losing() {
				prize = p.t.get("qa.losing")
			}
			left := "…" // not read yet, or the store did not answer
			if i < len(block.Left) {
				left = p.number(block.Left[i])
			}
			line := padRight(prize, 14) + padLeft(left, 11) + " " + p.t.get("qa.left")
			if p.mode == qaSplit && i == p.cursor {
				splits := vegas.Splits(table.Prize(i).IntPart())
				line += "   ◀ " + splitText(splits[p.split]) + " ▶ " + p.t.f("qa.of", p.split+1, len(splits))
			}
			style := p.st.row
			if i == p.cursor {
				style = p.st.rowLit
			}
			rows = append(rows, style.Render(line))
		}
	case qaPoints:
		rows = append(rows, p.t.get("qa.points.ask"), "", p.fieldView(min(body.w-2, 76)))
	case qaCombos:
		for i, c := range p.combos {
			line := p.t.f("mat", i+1) + "  ▲▼ " + p.comboName(c)
			if i == p.cup {
				line = p.st.rowLit.Render(line)
			}
			rows = append(rows, line)
		}
	case qaFile:
		rows = append(rows, p.t.get("qa.file.ask"), "", p.fieldView(min(body.w-2, 76)))
		if p.load != nil {
			rows = append(rows, "", p.st.dim.Render(p.t.get("qa.loading")))
		}
	}
	if p.mode == qaLot {
		rows = append(rows, "", p.st.dim.Render(p.sequences()))
	}
	if p.err != "" {
		rows = append(rows, "", p.st.note.Render(p.err))
	}
	if len(p.errs) > 0 {
		// As many of the file's errors as the screen holds, and a count of
		// the others.
		room := max(1, body.h-len(rows)-2)
		errs, more := p.errs, p.more
		if len(errs) > room {
			errs, more = errs[:room-1], more+len(errs)-(room-1)
		}
		rows = append(rows, "")
		for _, e := range errs {
			rows = append(rows, p.st.note.Render(ansi.Truncate(e, min(body.w-2, 76), "…")))
		}
		if more > 0 {
			rows = append(rows, p.st.note.Render(p.t.count("qa.more", more, more)))
		}
	}
	// One width for every tab, so that the panel does not move between them.
	drawn := measure(strings.Join(rows, "\n"))
	w := max(drawn.w, min(body.w-2, 76))
	return []layer{place(body.centered(w, drawn.height()), drawn)}
}

// forcedLabel marks forced units in their names and on screen.
const forcedLabel = "QA"

// keyMap is the panel's keys, tab by tab: the bottom line says what they
// do there. Help and quit are not among them: while the panel is open, ?
// and q are typed into its fields.
func (p *qaPanel) keyMap() keyMap {
	k, f := p.keys.qa, p.keys.field
	var short []key.Binding
	switch p.mode {
	case qaLot:
		short = []key.Binding{k.PrevLot, k.Force}
	case qaSplit:
		short = []key.Binding{k.PrevLot, k.PrevSplit, k.Force}
	case qaCombos:
		short = []key.Binding{k.PrevCup, k.NextCombo, k.Force}
	case qaPoints:
		short = []key.Binding{k.Force}
	case qaFile:
		short = []key.Binding{k.Load}
	}
	leave := k.Close
	if p.load != nil {
		leave = k.Stop
	}
	short = append(short, k.Mode, leave)
	full := [][]key.Binding{short}
	if p.typing() {
		// Last, so that a narrow line leaves them out before the others.
		short = append(short, f.DeleteBeforeCursor, f.DeleteWordBackward)
		full = append(full, []key.Binding{f.CharacterBackward, f.LineStart, f.DeleteWordBackward, f.DeleteBeforeCursor, f.DeleteAfterCursor})
	}
	return keyMap{short: short, full: full}
}
