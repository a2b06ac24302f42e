package chart

import (
	"math"
	"strconv"

	"charm.land/lipgloss/v2"
)

// LineStyles is the palette of a line chart.
type LineStyles struct {
	Axis  lipgloss.Style // the y axis, its labels and the x labels
	Line  lipgloss.Style // the series
	Below lipgloss.Style // the series where it lies below Ref, when Ref is set (give it Line for one colour)
	Ref   lipgloss.Style // the reference rule
}

// LineOptions says how to draw a line chart.
type LineOptions struct {
	Width, Height int // in cells: every line is Width wide, and there are Height lines

	// Label formats the y axis's labels, for example as an amount of money
	// ("2,50 €"). Nil formats them as plain numbers.
	Label func(float64) string

	// Ref, when set, is a reference value (a starting balance, say), drawn
	// as a dotted rule and always within the y range.
	Ref *float64

	// XLeft and XRight label the left and right ends of the x axis. When
	// either is set and Height is at least 2, the last line holds them.
	XLeft, XRight string

	Styles LineStyles
}

// Line draws a series as a line in braille dots, each cell two dots wide and
// four high, left to right at even steps, scaled from its lowest to its
// highest value (and Ref). A series longer than the plot is wide is drawn
// column by column from the lowest to the highest value falling in each
// dot column, so a spike one value wide is never lost; a shorter one is
// joined by straight segments. One value, or values all equal, draw a flat
// line across the middle of the plot with one label; no value draws the
// axis alone (and Ref's rule when set). NaN and infinite values are left
// out. The y axis carries labels at round values, on the left.
//
// The result has exactly Height lines of exactly Width cells; it is empty
// when Width or Height is not positive.
func Line(values []float64, o LineOptions) string {
	if o.Width <= 0 || o.Height <= 0 {
		return ""
	}
	vs := finiteValues(values)
	rows := o.Height
	xrow := (o.XLeft != "" || o.XRight != "") && rows >= 2
	if xrow {
		rows--
	}
	label := o.Label
	if label == nil {
		label = func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	}

	sc := newScale(vs, o.Ref, rows)
	labels := sc.labels(label)
	labelW := 0
	for _, l := range labels {
		labelW = max(labelW, widthOf(clip(l, o.Width)))
	}
	axisW := 1
	switch {
	case o.Width < 3:
		labelW, axisW = 0, min(axisW, o.Width-1)
	case labelW > o.Width/2:
		labelW = o.Width / 2
	}
	plotW := o.Width - labelW - axisW

	grid := raster(vs, sc, rows, plotW)

	axis, series, below, ref := newPen(o.Styles.Axis), newPen(o.Styles.Line), newPen(o.Styles.Below), newPen(o.Styles.Ref)
	refRow := -1
	var refDot float64
	if o.Ref != nil && finite(*o.Ref) {
		refDot = sc.dot(*o.Ref)
		refRow = int(math.Round(refDot)) / 4
	}

	out := make([]string, 0, o.Height)
	var l line
	for r := range rows {
		if labelW > 0 {
			l.put(&axis, padLeft(clip(labels[r], labelW), labelW))
		}
		if axisW > 0 {
			if labels[r] != "" {
				l.putCell(&axis, glyphTick)
			} else {
				l.putCell(&axis, glyphAxis)
			}
		}
		for c := range plotW {
			bits := grid[r*plotW+c]
			switch {
			case bits != 0:
				p := &series
				if refRow >= 0 && float64(4*r)+1.5 > refDot {
					p = &below
				}
				l.putCell(p, rune(0x2800+int(bits)))
			case r == refRow:
				l.putCell(&ref, glyphRef)
			default:
				l.putCell(nil, ' ')
			}
		}
		out = append(out, l.done(o.Width))
	}
	if xrow {
		l.put(nil, padRight("", labelW+axisW))
		right := clip(o.XRight, plotW)
		left := clip(o.XLeft, plotW-widthOf(right)-1)
		if right == "" {
			left = clip(o.XLeft, plotW)
		}
		l.put(&axis, left)
		l.put(&axis, padLeft(right, plotW-widthOf(left)))
		out = append(out, l.done(o.Width))
	}
	return join(out)
}

func finiteValues(values []float64) []float64 {
	for i, v := range values {
		if !finite(v) {
			vs := append([]float64(nil), values[:i]...)
			for _, v := range values[i+1:] {
				if finite(v) {
					vs = append(vs, v)
				}
			}
			return vs
		}
	}
	return values
}

// scale maps values to dot rows, 0 at the top.
type scale struct {
	lo, hi float64
	ok     bool // there is something to scale
	rows   int  // cell rows
}

func newScale(vs []float64, ref *float64, rows int) scale {
	sc := scale{lo: math.Inf(1), hi: math.Inf(-1), rows: rows}
	for _, v := range vs {
		sc.lo, sc.hi = min(sc.lo, v), max(sc.hi, v)
	}
	if ref != nil && finite(*ref) {
		sc.lo, sc.hi = min(sc.lo, *ref), max(sc.hi, *ref)
	}
	sc.ok = sc.lo <= sc.hi
	return sc
}

func (sc scale) flat() bool { return sc.lo == sc.hi }

// dot returns the dot row of a value, from 0 (top) to 4·rows-1 (bottom); a
// flat scale puts everything on one dot near the middle.
func (sc scale) dot(v float64) float64 {
	if sc.flat() {
		return float64((sc.rows-1)/2*4 + 1)
	}
	// In halves, so that a range wider than the largest float64 stays finite.
	return (sc.hi/2 - v/2) / (sc.hi/2 - sc.lo/2) * float64(4*sc.rows-1)
}

// labels returns the y label of each cell row ("" for none): round values
// about every four rows, each on the row it falls in; the value itself for
// a flat scale.
func (sc scale) labels(format func(float64) string) []string {
	labels := make([]string, sc.rows)
	if !sc.ok {
		return labels
	}
	if sc.flat() {
		labels[int(sc.dot(sc.lo))/4] = format(sc.lo)
		return labels
	}
	want := max(2, sc.rows/4)
	step := niceStep((sc.hi/2 - sc.lo/2) / float64(want) * 2)
	if !finite(step) { // a range near the largest float64: its ends only
		labels[sc.rows-1], labels[0] = format(sc.lo), format(sc.hi)
		return labels
	}
	k0, k1 := math.Ceil(sc.lo/step-1e-9), math.Floor(sc.hi/step+1e-9)
	// At least two labels when the rows allow, so that the range reads:
	// finer round steps until two fall in it.
	for k1-k0 < 1 && sc.rows >= 3 && finite(step) && step > 0 {
		finer := finerStep(step)
		j0, j1 := math.Ceil(sc.lo/finer-1e-9), math.Floor(sc.hi/finer+1e-9)
		if j1-j0 >= float64(sc.rows) { // more labels than rows: keep the coarser
			break
		}
		step, k0, k1 = finer, j0, j1
	}
	prev := ""
	for k := k0; k <= k1 && k-k0 <= float64(sc.rows); k++ {
		v := k * step
		r := int(math.Round(sc.dot(v))) / 4
		r = min(max(r, 0), sc.rows-1)
		if text := format(v); labels[r] == "" && text != prev {
			labels[r], prev = text, text
		}
	}
	if k0 > k1 { // no round value in range: label the top
		labels[0] = format(sc.hi)
	}
	return labels
}

// finerStep returns the round step just below step (a round step itself):
// 20 → 10 → 5 → 2.5 → 2 → 1.
func finerStep(step float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(step)+1e-9))
	m := step / p
	switch {
	case m > 5+1e-9:
		return 5 * p
	case m > 2.5+1e-9:
		return 2.5 * p
	case m > 2+1e-9:
		return 2 * p
	case m > 1+1e-9:
		return p
	}
	return p / 2
}

// niceStep returns the round step (1, 2, 2.5 or 5 times a power of ten) at
// least raw.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range [...]float64{1, 2, 2.5, 5} {
		if raw <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// braille bits of the dots of a cell, by dot column and dot row.
var brailleBit = [2][4]uint8{{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}}

// raster draws the series into rows×cols cells of braille bits. Dot column
// c spans x from c-½ to c+½; each segment between two values marks, in each
// dot column it crosses, the dots between its lowest and highest point over
// that span.
func raster(vs []float64, sc scale, rows, cols int) []uint8 {
	grid := make([]uint8, rows*cols)
	if len(vs) == 0 || cols <= 0 {
		return grid
	}
	if len(vs) == 1 {
		vs = []float64{vs[0], vs[0]}
	}
	dotCols, dotRows := 2*cols, 4*rows
	top := make([]float64, dotCols)
	bottom := make([]float64, dotCols)
	for i := range top {
		top[i], bottom[i] = math.Inf(1), math.Inf(-1)
	}
	mark := func(c int, y float64) {
		top[c], bottom[c] = min(top[c], y), max(bottom[c], y)
	}
	step := float64(dotCols-1) / float64(len(vs)-1)
	x0, y0 := 0.0, sc.dot(vs[0])
	for i := 1; i < len(vs); i++ {
		x1, y1 := float64(i)*step, sc.dot(vs[i])
		c0, c1 := int(math.Round(x0)), min(int(math.Round(x1)), dotCols-1)
		if x1 == x0 {
			mark(c0, y0)
			mark(c0, y1)
		}
		for c := c0; c <= c1 && x1 > x0; c++ {
			a, b := max(x0, float64(c)-0.5), min(x1, float64(c)+0.5)
			mark(c, y0+(y1-y0)*(a-x0)/(x1-x0))
			mark(c, y0+(y1-y0)*(b-x0)/(x1-x0))
		}
		x0, y0 = x1, y1
	}
	for c := range dotCols {
		if top[c] > bottom[c] {
			continue
		}
		d0 := min(max(int(math.Round(top[c])), 0), dotRows-1)
		d1 := min(max(int(math.Round(bottom[c])), 0), dotRows-1)
		for d := d0; d <= d1; d++ {
			grid[(d/4)*cols+c/2] |= brailleBit[c%2][d%4]
		}
	}
	return grid
}
