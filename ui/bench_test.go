package ui

import (
	"tapis/game"

	"fmt"
	"strings"
	"tapis/session"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/shopspring/decimal"
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

// BenchmarkViewChange renders frames at 120×40 that follow a change, as
// most frames in play do: the header's clock moving a second, a Yam's cup
// rolling (a tick of Auto's roll), a Vegas surface scratched (space). Only
// what changed is drawn again; buying the next unit is not timed.
func BenchmarkViewChange(b *testing.B) {
	big, seed := Options{Lang: French, Balance: decimal.NewFromInt(1_000_000)}, session.Options{Seed: game.SeedFrom(42)}
	b.Run("clock", func(b *testing.B) {
		m := open(b, big, 120, 40, seed)
		c := clockOf(m)
		for b.Loop() {
			c.add(time.Second)
			send(m, clockMsg{})
			c.take(func(msg tea.Msg) bool { _, ok := msg.(clockMsg); return ok })
			_ = m.View()
		}
	})
	b.Run("roll", func(b *testing.B) {
		m := open(b, big, 120, 40, seed)
		press(m, "1")
		c := clockOf(m)
		for b.Loop() {
			ticks := c.take(animation)
			if len(ticks) == 0 {
				b.StopTimer()
				press(m, "a")
				ticks = c.take(animation)
				b.StartTimer()
			}
			for _, t := range ticks {
				send(m, t)
			}
			_ = m.View()
		}
	})
	b.Run("scratch", func(b *testing.B) {
		m := open(b, big, 120, 40, seed)
		press(m, "2", "enter")
		for b.Loop() {
			if !m.Revealing() {
				b.StopTimer()
				press(m, "enter")
				b.StartTimer()
			}
			press(m, "space")
			_ = m.View()
		}
	})
}

// BenchmarkViewFloor is what a frame is measured against: a coloured
// frame of the same size built as one string, each line written once in a
// colour of its own. "styled" styles each line with lipgloss as it is
// written (the floor); "written" writes escape codes made once, as
// the grids' inks are: the least a coloured frame costs.
func BenchmarkViewFloor(b *testing.B) {
	st := newStyles(false, true)
	styles := []lipgloss.Style{st.header, st.felt, st.dim, st.win}
	in := newInks(&st)
	for _, size := range frameSizes {
		line := string([]rune(strings.Repeat("Mise 1,00 € ♦ Jouer · Brelan ", size.w))[:size.w])
		b.Run(fmt.Sprintf("%dx%d/styled", size.w, size.h), func(b *testing.B) {
			for b.Loop() {
				var sb strings.Builder
				for y := range size.h {
					if y > 0 {
						sb.WriteByte('\n')
					}
					sb.WriteString(styles[y%len(styles)].Render(line))
				}
				_ = sb.String()
			}
		})
		b.Run(fmt.Sprintf("%dx%d/written", size.w, size.h), func(b *testing.B) {
			n := 0
			for _, k := range in {
				n = max(n, len(k[0])+len(k[1]))
			}
			for b.Loop() {
				var sb strings.Builder
				sb.Grow(size.h * (len(line) + n + 1))
				for y := range size.h {
					if y > 0 {
						sb.WriteByte('\n')
					}
					k := y % len(in)
					sb.WriteString(in[k][0])
					sb.WriteString(line)
					sb.WriteString(in[k][1])
				}
				_ = sb.String()
			}
		})
	}
}
