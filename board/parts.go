package board

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tapis/report"
	"tapis/store"
)

// freshWin is how long a big win stands out once bought.
const freshWin = 10 * time.Second

// joinPanel draws how to join, h lines at most: its title, the QR code of
// the join URL (each module two cells by one line at scale 2, when it
// fits; in half blocks otherwise), and the command players type. Nil when
// the board knows no join address.
func (m *Model) joinPanel(h, scale int) []string {
	if m.join.IsZero() {
		return nil
	}
	out := []string{m.st.title.Render(m.t.get("join"))}
	cmd := m.st.join.Render(" " + m.join.Command() + " ")
	if m.qr != nil {
		// Colours draw the code dark on light; without them, the glyphs
		// are the terminal's ink: the light modules on a dark background.
		ink := !m.plain || !m.dark
		var code []string
		if scale > 1 && len(m.qr)+4 <= h {
			code = fullBlocks(m.qr, ink)
		} else if (len(m.qr)+1)/2+4 <= h {
			code = halfBlocks(m.qr, ink)
		}
		if code != nil {
			out = append(out, "")
			for _, l := range code {
				out = append(out, m.st.qr.Render(l))
			}
			out = append(out, m.st.dim.Render(m.t.get("join.scan")))
		}
	}
	return append(out, cmd)
}

// section is a part of the figures: its lines, and its rank, the lowest
// dropped first when the screen is short.
type section struct {
	lines []string
	rank  int
}

// figures draws what the crowd follows, w cells by h lines: the biggest
// wins of the day (the first in large type), the sales a minute and the
// players in large type, the top prizes left in the blocks on sale, and
// at scale 2 the sales of the last hour. What does not fit goes, the
// least telling first.
func (m *Model) figures(w, h, scale int) []string {
	top := m.today()
	var parts []section
	title := m.t.f("wins", store.BigWinFactor)
	if ansi.StringWidth(title) > w {
		title = m.t.get("wins.short")
	}
	parts = append(parts, section{[]string{m.st.title.Render(title)}, 9})
	if len(top) == 0 {
		parts = append(parts, section{[]string{m.st.dim.Render(m.t.get("wins.none"))}, 9})
	} else {
		parts = append(parts, section{m.bigWin(top[0], w, scale), 8})
	}
	parts = append(parts, section{append([]string{""}, m.crowd(w, scale)...), 7})
	parts = append(parts, section{append([]string{""}, m.lotsLeft(w)...), 6})
	if scale > 1 {
		parts = append(parts, section{append([]string{"", m.st.title.Render(m.t.get("sales"))}, m.sales(w, 4)...), 2})
	}
	for total(parts) > h {
		low := 0
		for i, p := range parts {
			if p.rank < parts[low].rank {
				low = i
			}
		}
		if parts[low].rank >= 8 { // the wins stay: cut the rest to fit
			break
		}
		parts = slices.Delete(parts, low, low+1)
	}
	// The day's next biggest wins take the lines left, under the first.
	if more := top[min(1, len(top)):]; len(more) > 0 {
		if n := min(len(more), h-total(parts)-1, 4*scale); n > 0 {
			parts = slices.Insert(parts, 2, section{append([]string{""}, m.winLines(more[:n], w)...), 3})
		}
	}
	var out []string
	for _, p := range parts {
		out = append(out, p.lines...)
	}
	return fitLines(out, w, h)
}

func total(parts []section) int {
	n := 0
	for _, p := range parts {
		n += len(p.lines)
	}
	return n
}

// today returns the biggest wins since the day began where the board is,
// highest first.
func (m *Model) today() []store.Win {
	at := m.board.At.In(m.loc)
	midnight := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, m.loc)
	var out []store.Win
	for _, w := range m.board.Top {
		if !w.At.Before(midnight) {
			out = append(out, w)
		}
	}
	return out
}

// big draws s in large type at scale, or smaller when it is wider than w,
// or as text.
func (m *Model) big(s string, w, scale int, style lipgloss.Style) []string {
	for k := scale; k >= 1; k-- {
		if rows, ok := m.font.render(s, k); ok && blockWidth(rows) <= w {
			for i, r := range rows {
				rows[i] = style.Render(r)
			}
			return rows
		}
	}
	return []string{style.Render(s)}
}

// bigWin draws the day's biggest win: its amount in large type, standing
// out for a few seconds after its purchase, and below it the game, the
// stake and the time. Never who.
func (m *Model) bigWin(win store.Win, w, scale int) []string {
	style := m.st.big
	if m.board.At.Sub(win.At) < freshWin {
		style = m.st.fresh
	}
	out := m.big(m.t.money(win.Prize), w, scale, style)
	return append(out, m.st.dim.Render(m.t.gameName(win.Unit.Game)+" · "+m.t.money(win.Unit.Stake)+" · "+m.clock(win.At)))
}

// winLines lists wins one a line: the amount, the game and stake, the time.
func (m *Model) winLines(wins []store.Win, w int) []string {
	var out []string
	for _, win := range wins {
		amount := padTo(m.t.money(win.Prize), 11)
		style := m.st.win
		if m.board.At.Sub(win.At) < freshWin {
			style = m.st.fresh
		}
		game := m.t.gameName(win.Unit.Game) + " " + m.t.money(win.Unit.Stake)
		out = append(out, fitLine(style.Render(amount)+" "+padTo(game, 16)+m.st.dim.Render(m.clock(win.At)), w))
	}
	return out
}

// crowd draws the sales a minute and the players in large type side by
// side, each with its label below; one above the other when they do not
// fit; on one line of text when neither does.
func (m *Model) crowd(w, scale int) []string {
	b := m.board
	block := func(n int, label string) []string {
		return append(m.big(m.t.number(int64(n)), w, scale, m.st.figure), m.st.value.Render(label))
	}
	sales := block(b.PerMinute, m.t.count("crowd.rate", b.PerMinute))
	players := block(b.Players, m.t.count("crowd.players", b.Players))
	both := strings.Split(joinColumns([]string{strings.Join(sales, "\n"), strings.Join(players, "\n")}, 4*scale), "\n")
	switch {
	case blockWidth(both) <= w:
		return both
	case blockWidth(sales) <= w && blockWidth(players) <= w:
		return append(sales, players...)
	}
	return []string{m.t.count("rate", b.PerMinute, m.t.number(int64(b.PerMinute))) + " · " +
		m.t.count("players", b.Players, m.t.number(int64(b.Players)))}
}

// lotsLeft draws the top prizes left in the blocks on sale of each game
// and stake (« lots restants »): its name, then its two or three highest
// lots and the blocks they are in, as players have seen them.
func (m *Model) lotsLeft(w int) []string {
	out := []string{m.st.title.Render(m.t.get("lots"))}
	most := 2
	if w >= 100 {
		most = 3
	}
	for _, sq := range m.board.Sequences {
		name := m.st.value.Render(m.t.gameName(sq.Seq.Game) + " · " + m.t.money(sq.Seq.Stake))
		line := m.st.dim.Render(m.t.get("none.open"))
		if len(sq.Blocks) > 0 {
			line = m.st.dim.Render(m.t.get("lots.none"))
		}
		// The most lots that fit on the line, the top one at least.
		for n := most; n >= 1; n-- {
			if lots, blocks := topLeft(sq, n); len(lots) > 0 {
				line = report.LeftLine(lots, n, m.t.number, m.t.money) + " " + m.where(blocks)
				if ansi.StringWidth(line) <= w-2 {
					break
				}
			}
		}
		if one := name + "  " + line; ansi.StringWidth(one) <= w {
			out = append(out, one)
			continue
		}
		out = append(out, name, "  "+ansi.Truncate(line, w-2, "…"))
	}
	return out
}

// where names the blocks the top lots are in: one, a few, or how many.
func (m *Model) where(blocks []int64) string {
	switch {
	case len(blocks) == 1:
		return m.t.f("in.block", m.t.number(blocks[0]))
	case len(blocks) <= 3:
		names := make([]string, len(blocks))
		for i, b := range blocks {
			names[i] = strconv.FormatInt(b, 10)
		}
		return m.t.f("in.blocks", strings.Join(names, ", "))
	}
	return m.t.f("in.many", len(blocks))
}

// topLeft returns a game and stake's n highest lots left in its blocks on
// sale, summed over them, and the blocks that hold them, by number.
func topLeft(sq store.Sequence, n int) ([]report.LotLeft, []int64) {
	var all []report.LotLeft
	holders := map[string][]int64{}
	for _, b := range sq.Blocks {
		for _, l := range report.LotsLeft(sq.Prizes, sq.Losing, b.Left, nil) {
			key := l.Prize.String()
			holders[key] = append(holders[key], b.Number)
			i := slices.IndexFunc(all, func(x report.LotLeft) bool { return x.Prize.Equal(l.Prize) })
			if i < 0 {
				all = append(all, report.LotLeft{Prize: l.Prize})
				i = len(all) - 1
			}
			all[i].Left += l.Left
		}
	}
	slices.SortFunc(all, func(a, b report.LotLeft) int { return b.Prize.Cmp(a.Prize) })
	all = all[:min(n, len(all))]
	var blocks []int64
	for _, l := range all {
		for _, b := range holders[l.Prize.String()] {
			if !slices.Contains(blocks, b) {
				blocks = append(blocks, b)
			}
		}
	}
	slices.Sort(blocks)
	return all, blocks
}

// sales draws the sales per minute, h lines of w cells: the sparkline
// above a line saying what it shows and its peak. A step of the history
// (10 s) shows as a column, at its rate a minute; the step under way is
// left out.
func (m *Model) sales(w, h int) []string {
	b := m.board
	steps := b.Sales
	if len(steps) > 1 {
		steps = steps[:len(steps)-1]
	}
	perStep := float64(time.Minute / store.SalesStep)
	values := make([]float64, len(steps))
	peak := 0.0
	for i, n := range steps {
		values[i] = float64(n) * perStep
		peak = max(peak, values[i])
	}
	window := m.t.f("window", int(time.Duration(w)*store.SalesStep/time.Minute))
	if len(values) < w {
		window = m.t.f("since", b.Since.In(m.loc).Format("15:04"))
	}
	var out []string
	for _, l := range sparkline(values, w, max(h-1, 1)) {
		out = append(out, m.st.figure.Render(l))
	}
	caption := m.t.get("sales.short") + " · " + window
	return append(out, spread(m.st.dim.Render(caption), m.st.dim.Render(m.t.f("peak", m.t.number(int64(peak)))), w))
}

// spread sets left and right on one line of w cells; right is dropped when
// both do not fit.
func spread(left, right string, w int) string {
	gap := w - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}

// padTo pads s with blanks to w cells.
func padTo(s string, w int) string {
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 1))
}
