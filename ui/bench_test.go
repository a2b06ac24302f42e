package ui

import (
	"fmt"
	"strings"
	"testing"
)

// frameSizes are the sizes the frames are measured at: the least the game
// takes, and a common window.
var frameSizes = []struct{ w, h int }{{80, 24}, {120, 40}}

// BenchmarkView renders each screen, in the state a player sees most: a
// unit on the board, a ticket half scratched. Warm is a frame like most
// frames, where what did not change comes from the memo; cold draws
// everything again. BenchmarkViewFloor is the floor to compare with, in
// the same run.
func BenchmarkView(b *testing.B) {
	setups := []struct {
		name  string
		setup func(m *Model)
	}{
		{"menu", func(m *Model) {}},
		{"yams", func(m *Model) { press(m, "1", "a"); settle(m) }},
		{"vegas", func(m *Model) { press(m, "2", "enter", "space", "space", "tab", "space") }},
		{"history", func(m *Model) {
			press(m, "1")
			for range 30 {
				press(m, "a")
				settle(m)
			}
			press(m, "h")
		}},
		{"replay", func(m *Model) { press(m, "1", "a"); settle(m); press(m, "h", "enter") }},
		{"rules", func(m *Model) { press(m, "4") }},
		{"help", func(m *Model) { press(m, "1", "?") }},
		{"stats", func(m *Model) {
			press(m, "1")
			for range 30 {
				press(m, "a")
				settle(m)
			}
			press(m, "s")
		}},
	}
	for _, size := range frameSizes {
		for _, s := range setups {
			for _, cold := range []bool{false, true} {
				name := fmt.Sprintf("%dx%d/%s/warm", size.w, size.h, s.name)
				if cold {
					name = strings.TrimSuffix(name, "warm") + "cold"
				}
				b.Run(name, func(b *testing.B) {
					m := newModel(b, French, MenuScreen, size.w, size.h)
					s.setup(m)
					for b.Loop() {
						if cold {
							clear(m.memo)
						}
						_ = m.View()
					}
				})
			}
		}
	}
}

// BenchmarkViewFloor is the least a frame costs: a coloured frame of the
// same size built as one string, each line written once as runs of eight
// cells, each run in a colour of its own (escape codes made once, as the
// grids' inks are).
func BenchmarkViewFloor(b *testing.B) {
	st := newStyles(false, true)
	in := newInks(&st)
	for _, size := range frameSizes {
		b.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(b *testing.B) {
			// A line of text, cut into runs of eight cells.
			text := []rune(strings.Repeat("Mise 1,00 € ♦ Jouer · Brelan ", size.w))[:size.w]
			var runs []string
			for x := 0; x < size.w; x += 8 {
				runs = append(runs, string(text[x:min(x+8, size.w)]))
			}
			for b.Loop() {
				var sb strings.Builder
				for y := range size.h {
					if y > 0 {
						sb.WriteByte('\n')
					}
					for i, r := range runs {
						k := (y + i) % len(in)
						sb.WriteString(in[k][0])
						sb.WriteString(r)
						sb.WriteString(in[k][1])
					}
				}
				_ = sb.String()
			}
		})
	}
}
