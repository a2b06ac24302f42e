package chart

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func barColours() BarStyles {
	return BarStyles{
		Label:  lipgloss.NewStyle().Foreground(lipgloss.Color("#808080")).PaddingLeft(4),
		Bar:    lipgloss.NewStyle().Foreground(lipgloss.Color("#ffd700")).Border(lipgloss.RoundedBorder()),
		Above:  lipgloss.NewStyle().Foreground(lipgloss.Color("#00ff00")),
		Marker: lipgloss.NewStyle().Foreground(lipgloss.Color("#ff00ff")).Width(9),
		Track:  lipgloss.NewStyle().Background(lipgloss.Color("#202020")).MarginLeft(3),
		Text:   lipgloss.NewStyle().Bold(true).Align(lipgloss.Center),
	}
}

func lots() []Bar {
	return []Bar{
		{Label: "40 000 €", Value: 0, Expected: 2.0 / 1.5e6, Text: "0"},
		{Label: "1 000 €", Value: 0.01, Expected: 25 / 1.5e6, Text: "1 · 1 %"},
		{Label: "50 €", Value: 0.02, Expected: 13000 / 1.5e6, Text: "2 · 2 %"},
		{Label: "5 €", Value: 0.12, Expected: 0.1, Text: "12 · 12 %"},
		{Label: "a label far too long for a third of the line", Value: 0.75, Expected: 0.77, Text: "75 · 75 %"},
		{Label: "nan", Value: math.NaN(), Expected: math.NaN(), Text: "?"},
		{Label: "inf", Value: math.Inf(1), Expected: -1, Text: "∞\n"},
	}
}

// checkLines fails unless out has between 1 and height lines of exactly
// width cells (or is empty when nothing can be drawn).
func checkLines(t *testing.T, out string, width, height int) []string {
	t.Helper()
	if width <= 0 || height <= 0 {
		if out != "" {
			t.Fatalf("%dx%d: want nothing, got %q", width, height, out)
		}
		return nil
	}
	lines := strings.Split(out, "\n")
	if len(lines) > height {
		t.Fatalf("%dx%d: %d lines:\n%s", width, height, len(lines), out)
	}
	for i, l := range lines {
		if w, aw := lipgloss.Width(l), ansi.StringWidth(l); w != width || aw != width {
			t.Fatalf("%dx%d: line %d is %d cells (ansi %d): %q", width, height, i, w, aw, l)
		}
	}
	return lines
}

func TestBarsSize(t *testing.T) {
	for _, w := range []int{-1, 0, 1, 2, 3, 5, 8, 13, 40, 120} {
		for _, h := range []int{-1, 0, 1, 2, 4, 7, 30} {
			for _, log := range []bool{false, true} {
				o := BarsOptions{Width: w, Height: h, Log: log, Styles: barColours(), Track: "·"}
				t.Run(fmt.Sprintf("%dx%d/log=%v", w, h, log), func(t *testing.T) {
					lines := checkLines(t, Bars(lots(), o), w, h)
					if w > 0 && h > 0 && len(lines) != min(h, len(lots())) {
						t.Fatalf("%d lines for %d rows in %d", len(lines), len(lots()), h)
					}
				})
			}
		}
	}
	if out := Bars(nil, BarsOptions{Width: 10, Height: 10}); out != "" {
		t.Errorf("no rows: got %q", out)
	}
}

func TestBarsMore(t *testing.T) {
	out := Bars(lots(), BarsOptions{Width: 60, Height: 4})
	lines := strings.Split(out, "\n")
	if len(lines) != 4 || strings.TrimSpace(lines[3]) != "… +4" {
		t.Errorf("7 rows in 4 lines: want 3 rows and \"… +4\":\n%s", out)
	}
}

func TestGaugeSize(t *testing.T) {
	for _, w := range []int{-3, 0, 1, 2, 4, 9, 30, 120} {
		for _, v := range []float64{0, 0.5, 0.7, 3, math.NaN(), math.Inf(1), -2} {
			out := Gauge(v, 0.7, GaugeOptions{Width: w, Label: "return", Text: "53 % of 70 %", Styles: barColours(), Track: "─"})
			checkLines(t, out, w, 1)
		}
	}
}

// barOf draws a plain bar alone, with no label nor text, on a scale of 1.
func barOf(t *testing.T, v, expected float64, width int) string {
	t.Helper()
	return Bars([]Bar{{Value: v, Expected: expected}}, BarsOptions{Width: width, Height: 1, Max: 1})
}

func TestBarsGlyphs(t *testing.T) {
	for _, c := range []struct {
		v, exp float64
		want   string
	}{
		{0.5, 0.25, "██┃██     "},
		{0.25, 0.5, "██▌  ┃    "},
		{0.55, -1, "█████▌    "},
		{1, 1, "█████████┃"},
		{0, 0, "┃         "},
		{2, 0.9, "█████████┃"},
		{2, 0.5, "█████┃███»"},
		{0.05, math.NaN(), "▌         "},
	} {
		if got := barOf(t, c.v, c.exp, 10); got != c.want {
			t.Errorf("value %v expected %v: got %q, want %q", c.v, c.exp, got, c.want)
		}
	}
}

// TestBarsWithoutColour: with no colour the bar, the expected marker, the
// track and the overflow are told apart by their characters alone, and a
// coloured chart stripped of its colours reads the same as a plain one.
func TestBarsWithoutColour(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		v, exp := r.Float64()*1.2, r.Float64()
		plain := Bars([]Bar{{Label: "lot", Value: v, Expected: exp, Text: "x"}}, BarsOptions{Width: 40, Height: 1, Max: 1, Track: "·"})
		coloured := Bars([]Bar{{Label: "lot", Value: v, Expected: exp, Text: "x"}}, BarsOptions{Width: 40, Height: 1, Max: 1, Track: "·", Styles: barColours()})
		if got := ansi.Strip(coloured); got != plain {
			t.Fatalf("value %v expected %v: colours change the characters: %q vs %q", v, exp, got, plain)
		}
		if strings.Count(plain, string(glyphMarker)) != 1 {
			t.Fatalf("value %v expected %v: want one marker: %q", v, exp, plain)
		}
		bar := []rune(plain)[4 : 4+34]
		at := strings.IndexRune(string(bar), glyphMarker)
		if want := min(int(exp*34), 33); len([]rune(string(bar)[:at])) != want {
			t.Fatalf("value %v expected %v: marker in cell %d, want %d: %q", v, exp, len([]rune(string(bar)[:at])), want, plain)
		}
		// The bar's glyphs, the marker, the track and the overflow are
		// all different characters.
		glyphs := map[string]string{string(glyphMarker): "marker", "·": "track", string(glyphOverflow): "overflow"}
		for _, e := range eighths {
			if other, ok := glyphs[string(e)]; ok {
				t.Fatalf("bar glyph %q is also the %s", e, other)
			}
		}
	}
	for _, w := range []int{20, 47, 80} {
		plain := Gauge(0.4, 0.7, GaugeOptions{Width: w, Label: "r", Text: "40 %"})
		coloured := Gauge(0.4, 0.7, GaugeOptions{Width: w, Label: "r", Text: "40 %", Styles: barColours()})
		if ansi.Strip(coloured) != plain || strings.Count(plain, string(glyphMarker)) != 1 {
			t.Errorf("gauge at %d: %q vs %q", w, plain, ansi.Strip(coloured))
		}
	}
}

func TestGaugeAbove(t *testing.T) {
	gold, green := "38;2;255;215;0", "38;2;0;255;0"
	below := Gauge(0.5, 0.7, GaugeOptions{Width: 40, Styles: barColours()})
	if !strings.Contains(below, gold) || strings.Contains(below, green) {
		t.Errorf("below the target: want the Bar colour only: %q", below)
	}
	above := Gauge(0.7, 0.7, GaugeOptions{Width: 40, Styles: barColours()})
	if !strings.Contains(above, green) || strings.Contains(above, gold) {
		t.Errorf("at the target: want the Above colour only: %q", above)
	}
	// By default the gauge runs to twice the target: the marker is halfway.
	if got := Gauge(0.7, 0.7, GaugeOptions{Width: 10}); got != "█████┃    " {
		t.Errorf("the target on a 10-cell gauge: %q", got)
	}
	if got := Gauge(9, 0.7, GaugeOptions{Width: 10}); got != "█████┃███»" {
		t.Errorf("a value beyond the scale: %q", got)
	}
}

func TestBarsLog(t *testing.T) {
	rows := []Bar{{Value: 1e-6, Expected: 1e-6}, {Value: 1e-3, Expected: 1e-2}, {Value: 1, Expected: 1}}
	out := strings.Split(Bars(rows, BarsOptions{Width: 70, Height: 3, Log: true}), "\n")
	// Seven decades, a tenth of the smallest value to the largest: 10 cells
	// each.
	for i, want := range []int{10, 40, 69} { // the last has its marker in its last cell
		if got := strings.Count(out[i], "█"); got != want {
			t.Errorf("row %d: %d cells filled, want %d: %q", i, got, want, out[i])
		}
	}
	if at := strings.Index(out[1], string(glyphMarker)); len([]rune(out[1][:at])) != 50 {
		t.Errorf("1 %% expected: marker at cell %d, want 50: %q", len([]rune(out[1][:at])), out[1])
	}
}
