package chart

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// lineColours is a palette for tests: every part of a chart in its own colour,
// with layout properties that the charts must ignore.
func lineColours() LineStyles {
	return LineStyles{
		Axis:  lipgloss.NewStyle().Foreground(lipgloss.Color("#808080")).Padding(0, 3).Border(lipgloss.NormalBorder()),
		Line:  lipgloss.NewStyle().Foreground(lipgloss.Color("#00ff00")).Bold(true).Width(50),
		Below: lipgloss.NewStyle().Foreground(lipgloss.Color("#ff0000")).Underline(true),
		Ref:   lipgloss.NewStyle().Foreground(lipgloss.Color("#0000ff")).Margin(2),
	}
}

func euros(v float64) string { return fmt.Sprintf("€%.2f", v) }

// checkSize fails unless out has exactly height lines of exactly width cells.
func checkSize(t *testing.T, out string, width, height int) {
	t.Helper()
	if width <= 0 || height <= 0 {
		if out != "" {
			t.Fatalf("%dx%d: want nothing, got %q", width, height, out)
		}
		return
	}
	lines := strings.Split(out, "\n")
	if len(lines) != height {
		t.Fatalf("%dx%d: %d lines:\n%s", width, height, len(lines), out)
	}
	for i, l := range lines {
		if w, aw := lipgloss.Width(l), ansi.StringWidth(l); w != width || aw != width {
			t.Fatalf("%dx%d: line %d is %d cells (ansi %d): %q", width, height, i, w, aw, l)
		}
	}
}

func series() map[string][]float64 {
	r := rand.New(rand.NewPCG(1, 2))
	long := make([]float64, 20000)
	v := 100.0
	for i := range long {
		v += r.NormFloat64()
		long[i] = v
	}
	return map[string][]float64{
		"none":     nil,
		"one":      {100},
		"two":      {100, 97.5},
		"constant": {5, 5, 5, 5, 5},
		"negative": {-3, -1, -7, 2},
		"long":     long,
		"nan":      {1, math.NaN(), math.Inf(1), 3, math.Inf(-1)},
		"huge":     {1e300, -1e300},
		"extreme":  {math.MaxFloat64, -math.MaxFloat64, 0},
		"tiny":     {100, 100.0000001},
	}
}

func TestLineSize(t *testing.T) {
	ref := 100.0
	sizes := [][2]int{{0, 5}, {5, 0}, {-1, -1}, {1, 1}, {2, 1}, {3, 1}, {3, 2}, {4, 3}, {10, 2}, {20, 5}, {40, 12}, {120, 40}, {7, 30}}
	for name, vs := range series() {
		for _, sz := range sizes {
			for _, o := range []LineOptions{
				{Label: euros},
				{Label: euros, Ref: &ref, XLeft: "0", XRight: "20 000 units", Styles: lineColours()},
				{XRight: "a very long label that cannot fit in a narrow chart at all"},
				{Label: func(float64) string { return "a label far too wide\nwith a newline" }},
			} {
				o.Width, o.Height = sz[0], sz[1]
				t.Run(fmt.Sprintf("%s/%dx%d", name, sz[0], sz[1]), func(t *testing.T) {
					checkSize(t, Line(vs, o), o.Width, o.Height)
				})
			}
		}
	}
}

// plot returns the braille cells of a plain line chart as rows of runes,
// the axis and labels cut off.
func plot(t *testing.T, out string) [][]rune {
	t.Helper()
	var rows [][]rune
	for l := range strings.SplitSeq(out, "\n") {
		_, after, ok := strings.Cut(l, string(glyphAxis))
		if !ok {
			_, after, ok = strings.Cut(l, string(glyphTick))
		}
		if !ok {
			t.Fatalf("no axis in %q", l)
		}
		rows = append(rows, []rune(after))
	}
	return rows
}

func isDots(r rune) bool { return r > 0x2800 && r <= 0x28ff }

func TestLineKeepsSpikes(t *testing.T) {
	for _, at := range []int{0, 1, 4999, 7777, 9998, 9999} {
		for _, sign := range []float64{1, -1} {
			vs := make([]float64, 10000)
			for i := range vs {
				vs[i] = float64(i % 2) // a flat band one unit high
			}
			vs[at] = sign * 100
			out := Line(vs, LineOptions{Width: 41, Height: 10})
			rows := plot(t, out)
			edge := rows[0] // the spike's row: the top, or the bottom for a dip
			if sign < 0 {
				edge = rows[len(rows)-1]
			}
			var cols []int
			for c, r := range edge {
				if isDots(r) {
					cols = append(cols, c)
				}
			}
			want := at * (2*len(edge) - 1) / (len(vs) - 1) / 2
			if len(cols) == 0 || cols[0] > want || cols[len(cols)-1] < want {
				t.Errorf("spike %+v at %d: edge row has dots in cells %v, want cell %d:\n%s", sign*100, at, cols, want, out)
			}
		}
	}
}

func TestLineEveryColumnDrawn(t *testing.T) {
	// A jump between two values is drawn as a continuous line: every dot
	// column has a dot.
	vs := []float64{0, 10, 0, 10, 0}
	rows := plot(t, Line(vs, LineOptions{Width: 21, Height: 6}))
	for c := range rows[0] {
		var bits rune
		for _, row := range rows {
			if isDots(row[c]) {
				bits |= row[c] - 0x2800
			}
		}
		if bits&0x47 == 0 || bits&0xb8 == 0 {
			t.Errorf("cell %d: a dot column is empty", c)
		}
	}
}

func TestLineFlatAndEmpty(t *testing.T) {
	for _, vs := range [][]float64{{42}, {42, 42, 42}} {
		out := Line(vs, LineOptions{Width: 30, Height: 7, Label: euros})
		rows := plot(t, out)
		var dotted []int
		for i, row := range rows {
			if strings.ContainsFunc(string(row), isDots) {
				dotted = append(dotted, i)
			}
		}
		if len(dotted) != 1 || strings.Count(out, "€") != 1 || !strings.Contains(out, "€42.00") {
			t.Errorf("%v: want one dotted row %v and one label €42.00:\n%s", vs, dotted, out)
		}
		if n := strings.Count(string(rows[dotted[0]]), string(rune(0x2812))); n != len(rows[dotted[0]]) {
			t.Errorf("%v: the flat line is not across the plot (%d cells):\n%s", vs, n, out)
		}
	}
	out := Line(nil, LineOptions{Width: 30, Height: 7, Label: euros})
	if strings.ContainsFunc(out, isDots) || strings.Contains(out, "€") {
		t.Errorf("no values: want the axis alone:\n%s", out)
	}
	ref := 10.0
	out = Line(nil, LineOptions{Width: 30, Height: 7, Label: euros, Ref: &ref})
	if !strings.Contains(out, "€10.00") || !strings.Contains(out, strings.Repeat(string(glyphRef), 30-ansi.StringWidth("€10.00")-1)) {
		t.Errorf("no values and a ref: want its rule and label:\n%s", out)
	}
}

func TestLineLabels(t *testing.T) {
	vs := []float64{97.5, 103, 99, 101.25}
	out := Line(vs, LineOptions{Width: 40, Height: 16, Label: euros})
	var labels []string
	for l := range strings.SplitSeq(out, "\n") {
		if label, _, ok := strings.Cut(l, string(glyphTick)); ok {
			labels = append(labels, strings.TrimSpace(label))
		}
	}
	if len(labels) < 3 {
		t.Fatalf("want at least 3 labels, got %q:\n%s", labels, out)
	}
	prev := math.Inf(1)
	for _, label := range labels {
		var v float64
		if _, err := fmt.Sscanf(label, "€%f", &v); err != nil || v < 97.5 || v > 103 {
			t.Errorf("label %q is not an amount within the range", label)
		}
		if v >= prev {
			t.Errorf("labels do not decrease downwards: %q", labels)
		}
		prev = v
	}
}

func TestLineBelowRef(t *testing.T) {
	ref := 100.0
	st := lineColours()
	out := Line([]float64{100, 110, 90}, LineOptions{Width: 30, Height: 10, Ref: &ref, Styles: st})
	lines := strings.Split(out, "\n")
	green, red := "38;2;0;255;0", "38;2;255;0;0"
	if !strings.Contains(lines[0], green) || strings.Contains(lines[0], red) {
		t.Errorf("top row: want the series' colour only: %q", lines[0])
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, red) || strings.Contains(last, green) {
		t.Errorf("bottom row: want the colour below the ref only: %q", last)
	}
	if strings.Count(ansi.Strip(out), string(glyphRef)) < 10 {
		t.Errorf("the ref rule is missing:\n%s", ansi.Strip(out))
	}
}

func TestLineColourAddsNoCharacter(t *testing.T) {
	ref := 100.0
	for name, vs := range series() {
		o := LineOptions{Width: 50, Height: 12, Label: euros, Ref: &ref, XLeft: "start", XRight: "now"}
		plain := Line(vs, o)
		o.Styles = lineColours()
		if got := ansi.Strip(Line(vs, o)); got != plain {
			t.Errorf("%s: coloured chart reads differently without its colours:\n%s\nplain:\n%s", name, got, plain)
		}
	}
}

func TestNiceStep(t *testing.T) {
	for raw, want := range map[float64]float64{0.3: 0.5, 1: 1, 1.2: 2, 2.2: 2.5, 3: 5, 7: 10, 120: 200, 0.011: 0.02} {
		if got := niceStep(raw); math.Abs(got-want) > 1e-12 {
			t.Errorf("niceStep(%v) = %v, want %v", raw, got, want)
		}
	}
}

// TestLineTwoLabels: a range where the round step gives one label gets a
// finer one, so that the highest and the lowest balance can be read.
func TestLineTwoLabels(t *testing.T) {
	out := Line([]float64{100, 93.5, 98, 106, 101}, LineOptions{Width: 40, Height: 7,
		Label: func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }})
	n := strings.Count(out, "┤")
	if n < 2 {
		t.Errorf("%d labels on the y axis:\n%s", n, out)
	}
}
