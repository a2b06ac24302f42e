package ui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/session"
	safe "tapis/text"
)

// historyScreen lists the session's units, newest first: the row chosen,
// the first row in view, and the unit shown again, if any (art. 4.1: a
// player who could not see the end checks it).
type historyScreen struct {
	*common
	cursor int
	first  int
	listed int // the units listed when last laid out
	replay *session.Played
	// asked is the unit still to reveal whose result the player asked
	// for once: asked again, the history shows it (art. 4.1).
	asked string
}

// opened starts the list again from the newest unit.
func (s *historyScreen) opened() {
	s.cursor, s.first, s.listed, s.replay, s.asked = 0, 0, len(s.newest()), nil, ""
}

// escape closes the unit shown again, and reports whether there was one.
func (s *historyScreen) escape() bool {
	if s.replay == nil {
		return false
	}
	s.replay = nil
	return true
}

func (s *historyScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s.key(msg)
	case tea.MouseWheelMsg:
		s.wheel(msg)
	case clickMsg:
		if !msg.drag && msg.target.kind == historyTarget {
			return s.click(msg.target.n)
		}
	}
	return nil
}

// newest returns the last units of the session (HistoryLimit at most),
// newest first.
func (s *historyScreen) newest() []session.Played {
	h := s.till.session.Recent()
	if len(h) > HistoryLimit {
		h = h[len(h)-HistoryLimit:]
	}
	out := make([]session.Played, len(h))
	for i, p := range h {
		out[len(out)-1-i] = p
	}
	return out
}

// key moves the cursor: a row with ↑↓, the list following as little as
// it can; a page with PgUp/PgDn, the list with it; to the newest or the
// oldest unit with Home/End. enter shows the unit again.
func (s *historyScreen) key(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys.list
	n, rows := len(s.newest()), s.rows(s.body())
	switch {
	case s.replay != nil:
		return nil
	case key.Matches(msg, k.Up):
		s.cursor--
	case key.Matches(msg, k.Down):
		s.cursor++
	case key.Matches(msg, k.PageUp):
		s.scroll(-rows)
	case key.Matches(msg, k.PageDown):
		s.scroll(rows)
	case key.Matches(msg, k.Home):
		s.cursor = 0
	case key.Matches(msg, k.End):
		s.cursor = n - 1
	case key.Matches(msg, k.Show):
		if n > 0 {
			return s.showAgain(min(s.cursor, n-1))
		}
		return nil
	}
	s.keepInView()
	return nil
}

// wheel scrolls the list a few rows, the cursor with it.
func (s *historyScreen) wheel(msg tea.MouseWheelMsg) {
	switch {
	case s.replay != nil:
		return
	case msg.Button == tea.MouseWheelUp:
		s.scroll(-wheelStep)
	case msg.Button == tea.MouseWheelDown:
		s.scroll(wheelStep)
	}
	s.keepInView()
}

// scroll moves the cursor and the list by d rows, down when d > 0, the
// list as far as it goes: the cursor keeps its place on screen until the
// list ends, then goes on towards its end.
func (s *historyScreen) scroll(d int) {
	s.first = max(0, min(s.first+d, len(s.newest())-s.rows(s.body())))
	s.cursor += d
}

// keepInView keeps the cursor on a row and the list where it shows.
func (s *historyScreen) keepInView() {
	n := len(s.newest())
	s.cursor = max(0, min(s.cursor, n-1))
	s.first = inView(s.first, s.cursor, s.rows(s.body()), n)
}

// rows is how many rows of the list the body shows, under the titles and
// above the hint.
func (s *historyScreen) rows(body area) int { return max(1, body.h-4) }

// inView returns the first row in view of n rows, rows at a time, so that
// the cursor shows: first, moved as little as it takes.
func inView(first, cursor, rows, n int) int {
	first = max(min(first, cursor), cursor-rows+1)
	return max(0, min(first, n-rows))
}

// showAgain shows the unit of a history row again. A unit still to
// reveal is first offered to its game's screen; asked for again, its
// result shows here, and it counts as shown from then on (art. 4.1: a
// player who could not see a unit to its end checks it in the history;
// ruling G3). The command records it as shown.
func (s *historyScreen) showAgain(row int) tea.Cmd {
	p := s.newest()[row]
	var cmd tea.Cmd
	if s.till.unshown(p.Op.Unit) {
		if s.asked != p.Op.Unit {
			s.asked = p.Op.Unit
			s.tell(note{kind: noteUnshown})
			return nil
		}
		cmd = s.till.shownEarly(&p.Sold)
	}
	s.asked, s.replay = "", &p
	return cmd
}

// hiddenSince returns, for the history, what the prizes not shown yet add
// to the balances the wallet recorded: by purchase number, the sum of the
// hidden prizes of that purchase and all before it.
func (s *historyScreen) hiddenSince(units []session.Played) func(seq int) decimal.Decimal {
	type hidden struct {
		seq   int
		prize decimal.Decimal
	}
	var hs []hidden
	for _, p := range units {
		if s.till.unshown(p.Op.Unit) {
			hs = append(hs, hidden{p.Op.Seq, p.Op.Prize})
		}
	}
	return func(seq int) decimal.Decimal {
		sum := decimal.Zero
		for _, h := range hs {
			if h.seq <= seq {
				sum = sum.Add(h.prize)
			}
		}
		return sum
	}
}

func (s *historyScreen) click(i int) tea.Cmd {
	if s.replay != nil || i >= len(s.newest()) {
		return nil
	}
	s.cursor = i
	return s.showAgain(i)
}

// historyKey is the list as laid out in a body: which units it holds
// (the wallet's generation, how many, the newest's number), which of them
// are still to show, and the rows in view.
type historyKey struct {
	body                  area
	epoch, n, newest      int
	unshown               string
	first, cursor, listed int
}

func (s *historyScreen) layers(body area) []layer {
	if p := s.replay; p != nil {
		return memo(s.common, shownAgainKey{body, p, s.party.flashing()}, func() []layer { return s.replayLayers(body, p) })
	}
	n, newest := s.till.session.RecentSeq() // not Recent: a copy of every unit, on every frame
	s.listed = min(n, HistoryLimit)
	if s.listed == 0 {
		return []layer{place(body, drawn(s.common, emptyKey{body, "hist.empty"}, func() string {
			return fit(body.w, body.h, s.st.dim.Render(s.t.get("hist.empty")))
		}))}
	}
	rows := s.rows(body)
	first := inView(s.first, s.cursor, rows, s.listed)
	key := historyKey{body, s.till.epoch, s.listed, newest, s.till.unshownNames(), first, s.cursor, rows}
	return memo(s.common, key, func() []layer { return s.list(body, first, rows) })
}

// emptyKey is a screen with nothing to show yet, but a line saying so.
type emptyKey struct {
	body area
	text string
}

// list draws the rows in view of the history, from first, and under them
// how many units it keeps.
func (s *historyScreen) list(body area, first, rows int) []layer {
	units := s.newest()
	now := s.clock.Now()
	cols := historyColumns(body.w, sameDay(units[len(units)-1].Time, now))
	head := cols.historyRow(s.historyHeads())
	w := cols.width()
	if s.plain { // the reverse video may not show (TERM=dumb): a marker column
		head = cursorMark(false) + head
		w += ansi.StringWidth(cursorMark(false))
	}
	x := body.x + max(0, (body.w-w)/2)
	layers := []layer{
		place(area{x, body.y + 1, w, 1}, measure(s.st.boxTitle.Render(head))),
	}
	// Balances as the player has seen them: without the prizes not shown yet.
	hidden := s.hiddenSince(units)
	for i := first; i < len(units) && i < first+rows; i++ {
		p := &units[i]
		op := p.Op
		prize, reached := s.t.money(op.Prize), s.reachedOf(p, cols.reached-2)
		if s.till.unshown(op.Unit) { // its result is for its own screen to show
			prize, reached, op.Prize = s.t.get("hist.hidden"), "", decimal.Zero
		}
		line := cols.historyRow(historyCells{seq: strconv.Itoa(op.Seq), when: s.playedWhen(p.Time, now), game: s.playedGame(p),
			stake: s.t.money(op.Stake), reached: reached, prize: prize,
			balance: s.t.money(op.After.Sub(hidden(op.Seq))), number: safe.Printable(op.Unit)})
		style := s.st.row
		if i == s.cursor {
			style = s.st.rowLit
		} else if op.Prize.IsPositive() {
			style = s.st.win
		}
		if s.plain { // the reverse video may not show (TERM=dumb)
			line = cursorMark(i == s.cursor) + line
		}
		layers = append(layers, named(target{historyTarget, i}, area{x, body.y + 2 + i - first, w, 1}, measure(style.Render(padRight(line, w)))))
	}
	hint := s.t.f("hist.hint", s.keys.list.Show.Help().Key) + " · " + s.t.f("hist.kept", min(s.till.session.RecentLimit(), HistoryLimit))
	return append(layers, place(area{x, body.y + body.h - 1, w, 1}, measure(s.st.dim.Render(hint))))
}

// replayLayers shows a unit of the history again exactly as dealt, fully
// revealed and marked as a replay, with its receipt when the session has
// it (a store that signs): on the free row above the dice, or below the
// ticket. A window of the least height in QA mode (its QA line taking a
// row) has none free: the receipt is left out there.
func (c *common) replayLayers(body area, p *session.Played) []layer {
	if p.Sold.Layout.Yams != nil {
		var layers []layer
		stake := p.Sold.Layout.Yams.Stake
		b := yamsBoard{stake: stake, stakeAt: lottery.Yams().StakeIndex(stake), unit: p.Sold.Layout.Yams, replay: true,
			phase: [3]cupPhase{cupShown, cupShown, cupShown}, caption: safe.Printable(p.Op.Unit)}
		a := boardArea(body)
		if y := a.y + 2; p.Receipt != nil && y != body.y+1 { // between the stakes and the mats
			layers = append(layers, c.receiptLayer(body, y, p.Receipt))
		}
		return c.boardLayers(layers, &b, a)
	}
	t := ticketView{ticket: p.Sold.Layout.Vegas, replay: true, caption: safe.Printable(p.Op.Unit)}
	t.uncoverAll()
	layers := c.ticketLayers(nil, body, &t)
	if y := ticketTop(body) + t.size.height(); p.Receipt != nil && y < body.y+body.h { // under the ticket's line
		layers = append(layers, c.receiptLayer(body, y, p.Receipt))
	}
	return layers
}

// shownAgainKey is a unit of the history shown again, in a body, its big
// win's banner flashing or not.
type shownAgainKey struct {
	body  area
	p     *session.Played
	flash bool
}

func (s *historyScreen) keyMap() keyMap {
	// The list was laid out just before: the units do not change here.
	k, pages := s.keys.list, s.replay == nil && s.listed > s.rows(s.body())
	move := k.Up
	if pages {
		move = k.Scroll
	}
	// Nothing to move through or show: no unit yet, or one shown again.
	listing := s.replay == nil && s.listed > 0
	return s.keyMapOf(keyMapKey{HistoryScreen, states(pages, listing)}, func() keyMap {
		move := only(move, listing)
		own := []key.Binding{only(k.Up, listing), only(k.PageUp, pages), only(k.Home, pages), only(k.Show, listing), s.keys.global.Back}
		return s.withGlobal(HistoryScreen, own, []key.Binding{move, only(k.Show, listing), s.keys.global.Back})
	})
}
