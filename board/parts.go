package board

import (
	"encoding/hex"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tapis/chart"
	"tapis/store"
)

// freshWin is how long a big win stands out once bought.
const freshWin = 10 * time.Second

// panel draws a game and stake, w cells wide: its title and block, the
// units sold and left, extras lines (the block's commitment or the blocks
// on sale, then the lots' title), and bars lines of lots left. With fewer
// bars than lots, the lowest prizes go first; the losing lot stays last
// while three bars fit.
func (m *Model) panel(sq store.Sequence, w, bars, extras int) []string {
	title := m.st.title.Render(m.t.gameName(sq.Seq.Game) + " · " + m.t.money(sq.Seq.Stake))
	var tag string
	switch len(sq.Blocks) {
	case 0:
		return []string{title, m.st.dim.Render(m.t.get("none.open"))}
	case 1:
		tag = m.t.f("block", m.t.number(sq.Blocks[0].Number))
	default:
		tag = m.t.f("blocks", len(sq.Blocks))
	}
	var sold, units int64
	for _, b := range sq.Blocks {
		sold, units = sold+b.Sold, units+b.Units
	}
	out := []string{spread(title, m.st.dim.Render(tag), w), m.t.f("sold", m.t.number(sold), m.t.number(units-sold))}
	if extras >= 1 {
		var line string
		if len(sq.Blocks) == 1 {
			c := sq.Blocks[0].Commitment
			line = m.t.f("commitment", hex.EncodeToString(c[:]))
		} else {
			var each []string
			for _, b := range sq.Blocks {
				each = append(each, m.t.f("block.sold", m.t.number(b.Number), m.t.number(b.Sold)))
			}
			line = strings.Join(each, " · ")
		}
		out = append(out, m.st.dim.Render(ansi.Truncate(line, w, "…")))
	}
	if extras >= 2 {
		out = append(out, spread(m.st.value.Render(m.t.get("lots")), m.st.dim.Render(m.t.get("legend")), w))
	}
	if bars <= 0 || units == 0 {
		return out
	}
	tiers := make([]int, 0, len(sq.Left))
	for tier := range sq.Left {
		if tier != sq.Losing {
			tiers = append(tiers, tier)
		}
	}
	switch {
	case bars > len(tiers):
		tiers = append(tiers, sq.Losing)
	case bars >= 3:
		tiers = append(tiers[:bars-1], sq.Losing)
	default:
		tiers = tiers[:bars]
	}
	whole := true
	for _, tier := range tiers {
		whole = whole && ansi.StringWidth(m.t.number(sq.Left[tier])+"/"+m.t.number(sq.Initial[tier])) <= w/3
	}
	share := float64(units-sold) / float64(units)
	rows := make([]chart.Bar, 0, len(tiers))
	for _, tier := range tiers {
		label := m.t.money(sq.Prizes[tier])
		if tier == sq.Losing {
			label = m.t.get("losing")
		}
		text := m.t.number(sq.Left[tier])
		if whole {
			text += "/" + m.t.number(sq.Initial[tier])
		}
		value := 0.0
		if sq.Initial[tier] > 0 {
			value = float64(sq.Left[tier]) / float64(sq.Initial[tier])
		}
		rows = append(rows, chart.Bar{Label: label, Value: value, Expected: share, Text: text})
	}
	drawn := chart.Bars(rows, chart.BarsOptions{Width: w, Height: len(rows), Max: 1, Track: "░", Styles: m.st.bars})
	return append(out, strings.Split(drawn, "\n")...)
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

// sales draws the sales per minute, h lines of w cells: on one line, its
// label, the sparkline and its window; on more, the sparkline above a line
// saying what it shows and its peak. A step of the history (10 s) shows
// as a column, at its rate a minute; the step under way is left out.
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
	window := func(cols int) string {
		if len(values) < cols {
			return m.t.f("since", b.Since.In(m.loc).Format("15:04"))
		}
		return m.t.f("window", int(time.Duration(cols)*store.SalesStep/time.Minute))
	}
	if h <= 1 {
		label := m.st.dim.Render(m.t.get("sales.short") + " ")
		cols := max(w-lipgloss.Width(label)-1-lipgloss.Width(window(w)), 1)
		right := m.st.dim.Render(" " + window(cols))
		return []string{label + m.st.spark.Render(sparkline(values, cols, 1)[0]) + right}
	}
	var out []string
	for _, l := range sparkline(values, w, h-1) {
		out = append(out, m.st.spark.Render(l))
	}
	caption := m.t.get("sales.short") + " · " + window(w)
	return append(out, spread(m.st.dim.Render(caption), m.st.dim.Render(m.t.f("peak", m.t.number(int64(peak)))), w))
}

// wins lists the latest big wins, newest first, in rows lines of cols
// columns filled one after the other, w cells in all: when, the unit,
// what it paid (standing out for a few seconds after its purchase), the
// game's name when there is room. Never who.
func (m *Model) wins(w, rows, cols int) []string {
	if rows <= 0 {
		return nil
	}
	if len(m.board.Wins) == 0 {
		return []string{m.st.dim.Render(m.t.get("wins.none"))}
	}
	cw := (w - (cols-1)*2) / cols
	cells := make([][]string, cols)
	for i, win := range m.board.Wins {
		c := i / rows
		if c >= cols {
			break
		}
		amount := m.t.money(win.Prize)
		style := m.st.win
		if m.board.At.Sub(win.At) < freshWin {
			style = m.st.fresh
		}
		left := m.st.dim.Render(m.clock(win.At)) + " " + win.Unit.String()
		if cw >= 60 {
			game := m.t.gameName(win.Unit.Game) + " " + m.t.money(win.Unit.Stake)
			left = m.st.dim.Render(m.clock(win.At)) + "  " + padTo(game, 16) + padTo(win.Unit.String(), 22)
		}
		cells[c] = append(cells[c], spread(left, style.Render(amount), cw))
	}
	var blocks []string
	for _, col := range cells {
		if len(col) > 0 {
			blocks = append(blocks, strings.Join(fitLines(col, cw, len(col)), "\n"))
		}
	}
	return strings.Split(joinColumns(blocks, 2), "\n")
}

// padTo pads s with blanks to w cells.
func padTo(s string, w int) string {
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 1))
}
