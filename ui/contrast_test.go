package ui

import (
	"tapis/game"

	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"tapis/session"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
)

// minContrast is the least contrast ratio any visible character may have
// against what is behind it: WCAG's floor for large text (a trade-show
// screen is read from metres away).
const minContrast = 3.0

// terminal is a terminal's own colours: the ink of a cell that sets no
// foreground and the paper behind a cell that sets no background. The game
// learns the background by asking the terminal for it; the foreground is
// the terminal's own choice, assumed here to be a usual one.
type terminal struct {
	name   string
	fg, bg color.Color
}

// terminals are the backgrounds every frame is checked on: on each side,
// the extreme (black, white) and a softer theme's (a dark grey as in many
// editor themes, an off-white). A terminal answers the background query
// with its bg, and the game picks its light or dark palette from it.
var terminals = []terminal{
	{"black", lipgloss.Color("#d0d0d0"), lipgloss.Color("#000000")},
	{"dark grey", lipgloss.Color("#d0d0d0"), lipgloss.Color("#262626")},
	{"white", lipgloss.Color("#000000"), lipgloss.Color("#ffffff")},
	{"off-white", lipgloss.Color("#1c1c1c"), lipgloss.Color("#eeeeee")},
}

// TestContrast draws every screen on dark and light terminals, in true
// colour and in the 256 colours of a terminal such as tmux by default (as
// Bubble Tea would write them), and checks that every non-blank cell
// stands out from what is behind it.
func TestContrast(t *testing.T) {
	for _, term := range terminals {
		for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256} {
			t.Run(term.name+" "+profile.String(), func(t *testing.T) { checkContrast(t, term, profile) })
		}
	}
}

// checkContrast checks every frame of the tour on term, written in profile,
// and logs the lowest contrast met (on anything, and on the terminal's own
// background).
func checkContrast(t *testing.T, term terminal, profile colorprofile.Profile) {
	lowest, where := math.Inf(1), ""
	bare, bareWhere := math.Inf(1), "" // the same among cells on the terminal's background
	for _, f := range tour(t, term.bg) {
		var b strings.Builder
		if _, err := (&colorprofile.Writer{Forward: &b, Profile: profile}).WriteString(f.content); err != nil {
			t.Fatal(err)
		}
		cells, err := cellsOf(b.String(), term)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if len(cells) == 0 {
			t.Fatalf("%s: nothing on screen", f.name)
		}
		var bad []string
		seen := map[[2]string]bool{}
		for _, c := range cells {
			r := contrast(c.fg, c.bg)
			pair := [2]string{hexOf(c.fg), hexOf(c.bg)}
			if r < lowest {
				lowest, where = r, fmt.Sprintf("%q in %s, %s on %s", c.text, f.name, pair[0], pair[1])
			}
			if r < bare && pair[1] == hexOf(term.bg) {
				bare, bareWhere = r, fmt.Sprintf("%q in %s, %s", c.text, f.name, pair[0])
			}
			if r < minContrast && !seen[pair] {
				seen[pair] = true
				bad = append(bad, fmt.Sprintf("%q at %d,%d: %s on %s is %.2f:1", c.text, c.x, c.y, pair[0], pair[1], r))
			}
		}
		if len(bad) > 0 {
			t.Errorf("%s: %d pairs of colours below %.0f:1:\n  %s\n%s", f.name, len(bad), minContrast,
				strings.Join(bad, "\n  "), ansi.Strip(f.content))
		}
	}
	t.Logf("lowest contrast on %s (bg %s): %.2f:1, %s; on the terminal's background: %.2f:1, %s",
		term.name, hexOf(term.bg), lowest, where, bare, bareWhere)
}

// frame is one picture of a screen.
type frame struct{ name, content string }

// tour plays through every screen of the game on a terminal whose
// background is bg and returns a frame of each state worth a look.
func tour(t *testing.T, bg color.Color) []frame {
	t.Helper()
	var frames []frame
	shot := func(name string, m *Model) { frames = append(frames, frame{name, m.View().Content}) }
	open := func(o Options) *Model {
		o.Lang = English
		if o.Balance.IsZero() {
			o.Balance = decimal.NewFromInt(100)
		}
		m, err := newOn(o, session.Options{Seed: game.SeedFrom(42)})
		if err != nil {
			t.Fatal(err)
		}
		send(m, tea.BackgroundColorMsg{Color: bg})
		send(m, sizeMsg(100, 30))
		return m
	}

	m := open(Options{Start: MenuScreen})
	shot("menu", m)
	press(m, "down")
	shot("menu, second entry", m)

	m = open(Options{Start: YamsScreen})
	shot("yams before a unit", m)
	press(m, "enter")
	shot("yams bought", m)
	press(m, "q")
	shot("yams, quitting asked in the footer", m)
	press(m, "2")
	shot("yams rolling", m)
	settle(m)
	press(m, "1", "3")
	settle(m)
	shot("yams after a unit", m)
	for range 6 {
		press(m, "a")
		settle(m)
	}
	shot("yams after seven units", m)
	press(m, "s")
	shot("stats", m)
	press(m, "esc", "h")
	shot("history", m)
	press(m, "down", "enter")
	shot("history, a unit again", m)
	press(m, "esc", "esc", "?")
	shot("help", m)
	press(m, "esc", "r")
	shot("rules, yams", m)
	press(m, "tab")
	shot("rules, vegas", m)

	m = open(Options{Start: VegasScreen})
	shot("vegas before a ticket", m)
	press(m, "enter")
	shot("vegas covered", m)
	press(m, "space", "3", "space", "space", "space")
	shot("vegas half scratched", m)
	press(m, "a")
	settle(m)
	shot("vegas scratched", m)

	m = open(Options{Start: YamsScreen, QA: true})
	shot("yams with the QA line", m)
	press(m, "f")
	shot("QA panel, yams", m)
	press(m, "enter", "enter", "a")
	settle(m)
	shot("yams, the top lot forced", m)
	press(m, "esc", "2", "f")
	shot("QA panel, vegas", m)
	press(m, "tab")
	shot("QA panel, vegas, second tab", m)
	press(m, "tab")
	shot("QA panel, vegas, third tab", m)
	paste(m, "/tmp/layouts.jsonl")
	press(m, "left", "left")
	shot("QA panel, vegas, a path pasted, the cursor in it", m)
	press(m, "esc", "enter", "a")
	settle(m)
	shot("vegas, QA", m)

	m = open(Options{Start: YamsScreen, Balance: decimal.RequireFromString("0.20")})
	shot("yams, too poor to play", m)

	m = open(Options{Start: MenuScreen})
	send(m, sizeMsg(60, 20))
	shot("too small a window", m)

	var entries []lottery.Entry
	lottery.Read(strings.NewReader(`{"game":"yams","stake":"2","cups":[[1,1,1,1,1],[4,4,4,2,2],[6,6,1,2,3]]}`+"\n"),
		func(e lottery.Entry) { entries = append(entries, e) })
	m = mustReplay(t, entries, English, 0, false)
	send(m, tea.BackgroundColorMsg{Color: bg})
	send(m, sizeMsg(100, 30))
	shot("replay", m)
	return frames
}

// cell is a visible character of a frame and the colours it shows in.
type cell struct {
	x, y   int
	text   string
	fg, bg color.Color
}

// cellsOf reads a frame's escape codes as a terminal would and returns its
// non-blank characters with the colours they show in on term: the cell's
// own colours, else the terminal's; reverse video swaps them and faint
// text is taken as halfway to the background.
func cellsOf(frame string, term terminal) ([]cell, error) {
	var (
		out            []cell
		fg, bg         color.Color // nil: the terminal's
		reverse, faint bool
		x, y           int
		state          byte
	)
	p := ansi.NewParser()
	for rest := frame; rest != ""; {
		seq, width, n, next := ansi.DecodeSequence(rest, state, p)
		state, rest = next, rest[n:]
		switch {
		case width > 0:
			if strings.TrimSpace(seq) != "" {
				f, b := orDefault(fg, term.fg), orDefault(bg, term.bg)
				if reverse {
					f, b = b, f
				}
				if faint {
					f = blend(f, b)
				}
				out = append(out, cell{x, y, seq, f, b})
			}
			x += width
		case seq == "\n":
			x, y = 0, y+1
		case seq == "\r":
			x = 0
		case ansi.HasCsiPrefix(seq) && ansi.Cmd(p.Command()).Final() == 'm':
			params := p.Params()
			if len(params) == 0 {
				fg, bg, reverse, faint = nil, nil, false, false
			}
			for i := 0; i < len(params); {
				switch k := params[i].Param(0); {
				case k == 0:
					fg, bg, reverse, faint = nil, nil, false, false
				case k == 2:
					faint = true
				case k == 22:
					faint = false
				case k == 7:
					reverse = true
				case k == 27:
					reverse = false
				case k == 39:
					fg = nil
				case k == 49:
					bg = nil
				case k >= 30 && k <= 37, k >= 90 && k <= 97:
					fg = basic(k - 30)
				case k >= 40 && k <= 47, k >= 100 && k <= 107:
					bg = basic(k - 40)
				case k == 38 || k == 48 || k == 58:
					var c color.Color
					used := ansi.ReadStyleColor(params[i:], &c)
					if used == 0 {
						return nil, fmt.Errorf("row %d: a colour the parser does not read in %q", y, seq)
					}
					switch k {
					case 38:
						fg = c
					case 48:
						bg = c
					}
					i += used
					continue
				}
				i++
			}
		default:
			return nil, fmt.Errorf("row %d: unexpected sequence %q", y, seq)
		}
	}
	return out, nil
}

// basic is one of the 16 ANSI colours, 90-97 given as 60-67, in xterm's
// default palette (the game sets none of them: it writes RGB).
func basic(k int) color.Color {
	if k >= 60 {
		k -= 52
	}
	return ansi.BasicColor(k)
}

// orDefault is a cell's colour, or the terminal's when it has none.
func orDefault(c, def color.Color) color.Color {
	if c == nil {
		return def
	}
	return c
}

// blend is the halfway colour between a and b.
func blend(a, b color.Color) color.Color {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	return color.RGBA{uint8((ar + br) >> 9), uint8((ag + bg) >> 9), uint8((ab + bb) >> 9), 0xff}
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v>>8) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG 2's contrast ratio of two colours, from 1 to 21.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func hexOf(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// TestCellsOf checks the parser on the sequences the frames and tmux use.
func TestCellsOf(t *testing.T) {
	term := terminals[0]
	got, err := cellsOf("a\x1b[1;38;2;1;2;3;48;2;4;5;6mb\x1b[m\n\x1b[7mc\x1b[27;38:2::250:0:0m d\x1b[2;48;5;21me", term)
	if err != nil {
		t.Fatal(err)
	}
	var desc []string
	for _, c := range got {
		desc = append(desc, fmt.Sprintf("%s@%d,%d %s/%s", c.text, c.x, c.y, hexOf(c.fg), hexOf(c.bg)))
	}
	want := []string{"a@0,0 #d0d0d0/#000000", "b@1,0 #010203/#040506", "c@0,1 #000000/#d0d0d0",
		"d@2,1 #fa0000/#000000", "e@3,1 #7d007f/#0000ff"}
	if !slices.Equal(desc, want) {
		t.Errorf("cells %q, want %q", desc, want)
	}
	if r := contrast(lipgloss.Color("#000000"), lipgloss.Color("#ffffff")); math.Abs(r-21) > 1e-9 {
		t.Errorf("black on white is %v:1, want 21:1", r)
	}
}
