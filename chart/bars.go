package chart

import (
	"math"
	"strconv"

	"charm.land/lipgloss/v2"
)

// BarStyles is the palette of bars and gauges.
type BarStyles struct {
	Label  lipgloss.Style // the label on the left
	Bar    lipgloss.Style // a bar below its expected value (or with none)
	Above  lipgloss.Style // a bar at or beyond its expected value, or a gauge at or beyond its target (give it Bar for one colour)
	Marker lipgloss.Style // the expected value's marker, ┃
	Track  lipgloss.Style // the empty part of a bar
	Text   lipgloss.Style // the value text on the right
}

// Bar is one row of a bar chart.
type Bar struct {
	Label    string  // on the left
	Value    float64 // the bar's length, against the chart's scale
	Expected float64 // where the marker goes; negative or NaN for none
	Text     string  // on the right, right-aligned: the value as the caller writes it
}

// BarsOptions says how to draw bars.
type BarsOptions struct {
	Width, Height int // every line is Width wide; at most Height lines

	// Max is the value a full bar stands for; zero or less takes the
	// largest value or expected value among the rows. A value beyond it
	// fills its bar and ends in ».
	Max float64

	// Log scales the bars by order of magnitude, from a tenth of the
	// smallest positive value or expected value (a bar of zero stays
	// empty): lots a million times rarer than others stay visible.
	Log bool

	// Track is drawn along the empty part of each bar, in Styles.Track
	// (a space when empty or not one cell wide).
	Track string

	Styles BarStyles
}

// Bars draws one line per row: its label left-aligned, its bar in eighths of
// a cell with a ┃ where its expected value falls, and its text
// right-aligned, all fitting Width. Labels and texts take at most a third of
// the width each and are cut with … beyond; they are dropped, texts first,
// when the bar would have no room. More rows than Height: the first
// Height-1 are drawn and the last line says how many more there are ("… +N").
// The result has at most Height lines, each exactly Width cells; it is empty
// when Width or Height is not positive or there is no row.
func Bars(rows []Bar, o BarsOptions) string {
	if o.Width <= 0 || o.Height <= 0 || len(rows) == 0 {
		return ""
	}
	shown, more := rows, 0
	if len(rows) > o.Height {
		n := max(o.Height-1, 1)
		shown, more = rows[:n], len(rows)-n
		if o.Height == 1 {
			more = 0
		}
	}
	top := o.Max
	if top <= 0 || !finite(top) {
		top = 0
		for _, r := range rows {
			top = max(top, positive(r.Value), positive(r.Expected))
		}
	}
	sc := barScale{max: top}
	if o.Log {
		sc.floor = math.Inf(1)
		for _, r := range rows {
			for _, v := range [...]float64{r.Value, r.Expected} {
				if v := positive(v); v > 0 {
					sc.floor = min(sc.floor, v/10)
				}
			}
		}
		sc.log = sc.floor < top
	}

	labelW, textW := 0, 0
	for _, r := range shown {
		labelW = max(labelW, widthOf(clip(r.Label, o.Width)))
		textW = max(textW, widthOf(clip(r.Text, o.Width)))
	}
	lay := layout(o.Width, labelW, textW)
	p := newBarPens(o.Styles, o.Track)

	out := make([]string, 0, o.Height)
	var l line
	for _, r := range shown {
		lay.draw(&l, &p, r.Label, r.Text, func(l *line) {
			drawBar(l, &p, lay.bar, sc.frac(r.Value), sc.frac(r.Expected), reached(r.Value, r.Expected), r.Value > top)
		})
		out = append(out, l.done(o.Width))
	}
	if more > 0 {
		l.put(&p.text, clip(ellipsis+" +"+strconv.Itoa(more), o.Width))
		out = append(out, l.done(o.Width))
	}
	return join(out)
}

// GaugeOptions says how to draw a gauge.
type GaugeOptions struct {
	Width int    // the gauge's one line is exactly Width cells
	Label string // on the left
	Text  string // on the right, right-aligned: the value and target as the caller writes them

	// Max is the value a full gauge stands for; zero or less takes twice
	// the target (or the value, if the target is not positive). A value
	// beyond it fills the gauge and ends in ».
	Max float64

	// Track is drawn along the empty part of the gauge, in Styles.Track (a
	// space when empty or not one cell wide).
	Track string

	Styles BarStyles
}

// Gauge draws a value against a target on one line: the label, a bar from 0
// to Max with a ┃ at the target, drawn in Styles.Above once the value
// reaches the target, and the text. It fits Width as Bars does, and is
// empty when Width is not positive.
func Gauge(value, target float64, o GaugeOptions) string {
	if o.Width <= 0 {
		return ""
	}
	top := o.Max
	if top <= 0 || !finite(top) {
		top = 2 * positive(target)
		if top == 0 {
			top = positive(value)
		}
	}
	sc := barScale{max: top}
	lay := layout(o.Width, widthOf(clip(o.Label, o.Width)), widthOf(clip(o.Text, o.Width)))
	p := newBarPens(o.Styles, o.Track)
	var l line
	lay.draw(&l, &p, o.Label, o.Text, func(l *line) {
		drawBar(l, &p, lay.bar, sc.frac(value), sc.frac(target), reached(value, target), value > top)
	})
	return l.done(o.Width)
}

// positive returns v when it is a positive number, zero otherwise.
func positive(v float64) float64 {
	if finite(v) && v > 0 {
		return v
	}
	return 0
}

func reached(value, expected float64) bool {
	return finite(expected) && expected >= 0 && value >= expected
}

// barScale maps values to a fraction of a bar, linearly or by order of
// magnitude from floor.
type barScale struct {
	max, floor float64
	log        bool
}

// frac returns where v falls on a bar, from 0 to 1, or -1 for a value that
// has no place (negative, NaN).
func (sc barScale) frac(v float64) float64 {
	if !finite(v) && !math.IsInf(v, 1) || v < 0 {
		return -1
	}
	if v == 0 || sc.max <= 0 {
		return 0
	}
	if sc.log {
		v = max(v, sc.floor)
		return min(math.Log10(v/sc.floor)/math.Log10(sc.max/sc.floor), 1)
	}
	return min(v/sc.max, 1)
}

// barLayout is the split of a line between label, bar and text.
type barLayout struct {
	width, label, bar, text int
}

// layout gives the label at most a third of the width and the text two
// fifths (a count, a share and the expected share, written out in French,
// fit 80 columns whole), and drops the text, then the label, when the bar
// would have no room.
func layout(width, labelW, textW int) barLayout {
	labelW, textW = min(labelW, width/3), min(textW, width*2/5)
	gaps := func() int {
		g := 0
		if labelW > 0 {
			g++
		}
		if textW > 0 {
			g++
		}
		return g
	}
	if width-labelW-textW-gaps() < 1 {
		textW = 0
	}
	if width-labelW-textW-gaps() < 1 {
		labelW = 0
	}
	return barLayout{width: width, label: labelW, text: textW, bar: width - labelW - textW - gaps()}
}

func (b barLayout) draw(l *line, p *barPens, label, text string, bar func(*line)) {
	if b.label > 0 {
		l.put(&p.label, padRight(clip(label, b.label), b.label))
		l.put(nil, " ")
	}
	bar(l)
	if b.text > 0 {
		l.put(nil, " ")
		l.put(&p.text, padLeft(clip(text, b.text), b.text))
	}
}

type barPens struct {
	label, bar, above, marker, track, text pen
	trackGlyph                             rune
}

func newBarPens(s BarStyles, track string) barPens {
	glyph := ' '
	if rs := []rune(track); len(rs) == 1 && widthOf(track) == 1 && clip(track, 1) == track {
		glyph = rs[0]
	}
	return barPens{
		label: newPen(s.Label), bar: newPen(s.Bar), above: newPen(s.Above),
		marker: newPen(s.Marker), track: newPen(s.Track), text: newPen(s.Text),
		trackGlyph: glyph,
	}
}

// drawBar draws a bar of width cells filled to frac (in eighths of a cell),
// with the marker in the cell where mark falls (none when mark < 0).
func drawBar(l *line, p *barPens, width int, frac, mark float64, above, overflow bool) {
	fill := &p.bar
	if above {
		fill = &p.above
	}
	eights := int(math.Round(max(frac, 0) * float64(width) * 8))
	full, part := eights/8, eights%8
	markAt := -1
	if mark >= 0 {
		markAt = min(int(mark*float64(width)), width-1)
	}
	for c := range width {
		switch {
		case c == markAt:
			l.putCell(&p.marker, glyphMarker)
		case overflow && c == width-1:
			l.putCell(fill, glyphOverflow)
		case c < full:
			l.putCell(fill, glyphFull)
		case c == full && part > 0:
			l.putCell(fill, eighths[part-1])
		default:
			l.putCell(&p.track, p.trackGlyph)
		}
	}
}
