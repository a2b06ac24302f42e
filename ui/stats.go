package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/chart"
	"tapis/game/lottery"
	"tapis/stats"
	"tapis/wallet"
)

// statsScreen shows the session's figures as charts: the balance over
// time, then for one game and stake at a time the units by lot against the
// lot table's shares (art. 3) and the return so far against the table's
// payout rate. The figures are the till's, counted as units are shown, so
// that they never tell a prize the screen has not.
type statsScreen struct {
	*common
	seq int // the game and stake shown, among those played
	// seqs are the figures' sequences as last read, at read: they change
	// only as a unit is shown.
	seqs []stats.Figures
	read seqsKey
}

// seqsKey is what the figures' sequences are read at: the figures, and
// how many units they took and refused.
type seqsKey struct {
	figures     *stats.Session
	units, lost int64
}

// sequences returns the figures' sequences, read again only once a unit
// was added to them.
func (s *statsScreen) sequences() []stats.Figures {
	f := s.till.figures
	if k := (seqsKey{f, f.Total().Units, int64(s.till.figuresLost)}); k != s.read || s.seqs == nil {
		s.seqs, s.read = f.Sequences(), k
	}
	return s.seqs
}

func newStatsScreen(c *common) *statsScreen { return &statsScreen{common: c} }

func (s *statsScreen) update(msg tea.Msg) tea.Cmd {
	n := len(s.sequences())
	if n == 0 {
		return nil
	}
	k := s.keys.stats
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Next):
			s.seq = (s.seq + 1) % n
		case key.Matches(msg, k.Prev):
			s.seq = (s.seq + n - 1) % n
		}
	case clickMsg: // the bottom line's buttons
		switch {
		case msg.drag:
		case msg.target.kind == nextTarget:
			s.seq = (s.seq + 1) % n
		case msg.target.kind == prevTarget:
			s.seq = (s.seq + n - 1) % n
		}
	}
	return nil
}

func (s *statsScreen) keyMap() keyMap {
	many := len(s.sequences()) > 1
	return s.keyMapOf(keyMapKey{StatsScreen, states(many)}, func() keyMap {
		k := s.keys.stats
		own := []key.Binding{k.Next, k.Prev, s.keys.global.Back}
		short := []key.Binding{only(k.Next, many), s.keys.global.Back}
		return s.withGlobal(StatsScreen, own, short)
	})
}

// statsWidth is the widest the charts are drawn.
const statsWidth = 96

// statsKey is the figures as drawn: they change only when a unit is
// shown.
type statsKey struct {
	epoch, units, lost, at, w, h int
}

func (s *statsScreen) layers(body area) []layer {
	f := s.till.figures
	seqs := s.sequences()
	if len(seqs) == 0 {
		return []layer{place(body, drawn(s.common, emptyKey{body, "stats.empty"}, func() string {
			return fit(body.w, body.h, s.st.dim.Render(s.t.get("stats.empty")))
		}))}
	}
	w := min(body.w-4, statsWidth)
	at := min(s.seq, len(seqs)-1)
	key := statsKey{s.till.epoch, int(f.Total().Units), s.till.figuresLost, at, w, body.h}
	drawn := drawn(s.common, key, func() string { return s.draw(seqs, at, w, body.h) })
	return []layer{place(area{body.x + (body.w-w)/2, body.y, w, body.h}, drawn)}
}

// draw draws the figures w cells wide and h high: the totals, the balance
// chart, then the lots and the return of the sequence at.
func (s *statsScreen) draw(seqs []stats.Figures, at, w, h int) string {
	tot := s.till.figures.Total()
	head := s.t.count("stats.head", int(tot.Units), tot.Units, s.t.money(tot.Staked), s.t.money(tot.Won))
	second := "" // the line under the head, blank unless the return needs it
	if r, err := tot.Return(3); err == nil {
		ret := s.t.f("stats.return", s.percent(r))
		if lipgloss.Width(head+" · "+ret) <= w {
			head += " · " + ret
		} else { // large amounts at 80 columns: the return on a line of its own, never cut
			second = s.st.boxTitle.Render(ret)
		}
	}
	fig := seqs[at]
	barsH := min(len(fig.Lots), max(3, (h-6)/2))
	lineH := max(3, h-barsH-6) // title, blank, line, blank, sequence, bars, gauge
	lots := s.lotBars(fig, barsH)
	labelW := 0 // the gauge's label as wide as the lots', so that the bars line up
	for _, l := range lots {
		labelW = max(labelW, lipgloss.Width(l.Label))
	}
	title := s.t.count("stats.seq", int(fig.Units), s.t.get(gameKeys[fig.Key.Game]), s.t.money(fig.Key.Stake), fig.Units, at+1, len(seqs))
	if fig.Forced > 0 {
		title += " · " + s.t.count("stats.forced", int(fig.Forced), fig.Forced)
	}
	if n := s.till.figuresLost; n > 0 {
		title += " · " + s.t.f("stats.lost", n)
	}
	return strings.Join([]string{
		s.st.boxTitle.Render(ansi.Truncate(head, w, "…")), second,
		s.balanceChart(w, lineH), "",
		s.st.boxTitle.Render(ansi.Truncate(title, w, "…")),
		chart.Bars(lots, chart.BarsOptions{Width: w, Height: barsH, Max: 1, Log: true, Styles: s.barStyles()}),
		s.returnGauge(fig, w, labelW),
	}, "\n")
}

// balanceChart draws the balance after each unit shown, the starting
// balance as a rule.
func (s *statsScreen) balanceChart(w, h int) string {
	f := s.till.figures
	start := f.Balance()[0].InexactFloat64()
	n := f.Total().Units
	right := s.t.count("stats.units", int(n), n)
	return chart.Line(stepped(f.BalanceFloat64(), w), chart.LineOptions{
		Width: w, Height: h, Ref: &start, XLeft: s.t.get("stats.balance"), XRight: right,
		Label: func(v float64) string {
			return s.t.money(decimal.NewFromFloat(v).Round(2))
		},
		Styles: chart.LineStyles{Axis: s.st.dim, Line: s.st.win, Below: s.st.note, Ref: s.st.dim},
	})
}

// stepped draws a balance as it moved: it holds between two units and
// jumps at each. With fewer balances than the chart has dot columns (two a
// cell), each is repeated to fill its share of them, so that the line
// climbs or falls within one column instead of running a diagonal from
// one unit to the next (one unit drew a slope across the whole chart).
func stepped(series []float64, w int) []float64 {
	k := 2 * w / max(1, len(series))
	if k < 2 {
		return series
	}
	out := make([]float64, 0, k*len(series))
	for _, v := range series {
		for range k {
			out = append(out, v)
		}
	}
	return out
}

// lotBars are a sequence's lots, the top lot first: the share of the units
// drawn that fell in each, against the table's share, on a log scale so
// that the rare lots show. When they are more than room rows, the lots no
// unit fell in are left out, the rarest first, and a last row counts them.
func (s *statsScreen) lotBars(f stats.Figures, room int) []chart.Bar {
	keep := make([]bool, len(f.Lots))
	left := room
	if len(f.Lots) > room {
		left-- // the row that counts what is left out
	}
	for i, l := range f.Lots {
		if l.Share.Num > 0 && left > 0 {
			keep[i], left = true, left-1
		}
	}
	for left > 0 { // then the lots the table gives most
		best := -1
		for i, l := range f.Lots {
			if !keep[i] && (best < 0 || l.Expected.Float64() > f.Lots[best].Expected.Float64()) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		keep[best], left = true, left-1
	}
	var rows []chart.Bar
	out := 0
	for i, l := range f.Lots {
		if !keep[i] {
			out++
			continue
		}
		label := s.t.money(l.Prize)
		if l.Prize.IsZero() {
			label = s.t.get("qa.losing")
		}
		rows = append(rows, chart.Bar{
			Label: label, Value: l.Share.Float64(), Expected: l.Expected.Float64(),
			Text: s.t.f("stats.lot", s.number(l.Share.Num), s.percent(l.Share.Decimal(8)), s.percent(l.Expected.Decimal(8))),
		})
	}
	if out > 0 {
		rows = append(rows, chart.Bar{Label: "…", Expected: -1, Text: s.t.count("stats.out", out, out)})
	}
	return rows
}

// returnGauge draws the return so far against the table's payout rate.
func (s *statsScreen) returnGauge(f stats.Figures, w, labelW int) string {
	payout := f.Payout(4)
	r, err := f.Return(4)
	if err != nil {
		r = decimal.Zero
	}
	return chart.Gauge(r.InexactFloat64(), payout.InexactFloat64(), chart.GaugeOptions{
		Width: w, Label: padRight(s.t.get("stats.returnlabel"), labelW),
		Text:   s.t.f("stats.versus", s.percent(r), s.percent(payout)),
		Styles: s.barStyles(),
	})
}

func (s *statsScreen) barStyles() chart.BarStyles {
	return chart.BarStyles{Label: s.st.row, Bar: s.st.dim, Above: s.st.win, Marker: s.st.note, Track: s.st.dim, Text: s.st.row}
}

// percent writes a ratio as a percentage the way the screen's language
// does: "12.5%", "12,5 %": one decimal at most, or two significant digits
// for a share under 1 % (a top lot's 0.00014%), trailing zeros dropped.
func (c *common) percent(r decimal.Decimal) string {
	p := r.Shift(2)
	most := int32(1)
	for small := decimal.NewFromInt(1); p.IsPositive() && p.LessThan(small) && most < 8; most++ {
		small = small.Shift(-1)
	}
	p = p.Round(most)
	places := most
	for places > 0 && p.Equal(p.Round(places-1)) {
		places--
	}
	n := wallet.Number(p, places, string(c.t.lang))
	if c.t.lang == French {
		return n + " %"
	}
	return n + "%"
}

// addFigures counts a unit shown in the session's figures, with the
// balance the player sees once it is shown. A unit the figures refuse (none
// the shop sells is) leaves them as they were, and the stats screen says
// so.
func (t *till) addFigures(sold *lottery.Sold) {
	err := t.figures.Add(stats.Unit{
		Game: sold.Layout.Game(), Stake: sold.Layout.Stake(), Prize: sold.Unit.Prize,
		Balance: t.shownBalance(), Forced: sold.Forced != nil, At: t.now(),
	})
	if err != nil {
		t.figuresLost++
	}
}

// startFigures starts the session's figures again (a new player), from
// the balance the player sees: units paid before and still to show are
// counted as they are shown.
func (t *till) startFigures() {
	t.figures, t.figuresLost = stats.Fresh(), 0
	t.figures.StartAt(t.shownBalance())
}
