package ui

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// frameSizes are the sizes the frames are measured at: the least the game
// takes, and a common window.
var frameSizes = []struct{ w, h int }{{80, 24}, {120, 40}}

// viewSetups put a model on each screen, in the state a player sees most:
// a unit on the board, a ticket half scratched.
var viewSetups = []struct {
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

// sink keeps what a benchmark makes from being optimized away.
var sink []byte

// cpuTime is the process's CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuPerOp reports the process's CPU time for each op of the loop that
// started at from (cpu-ns/op), the garbage collector's included: on a
// machine shared with other work, the time a frame waited for a core is
// no cost of its own. What a loop does with its timer stopped counts too.
func cpuPerOp(b *testing.B, from time.Duration) {
	b.ReportMetric(float64((cpuTime()-from).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkView renders each screen at each of frameSizes. Warm is a frame
// with nothing changed since the last, like most frames; cold draws
// everything again (a screen's first frame). Floor, in the same run, is
// the least a frame costs: the very frame View returned, its bytes written
// to a fresh buffer.
func BenchmarkView(b *testing.B) {
	for _, size := range frameSizes {
		for _, s := range viewSetups {
			for _, kind := range []string{"warm", "cold", "floor"} {
				b.Run(fmt.Sprintf("%dx%d/%s/%s", size.w, size.h, s.name, kind), func(b *testing.B) {
					m := newModel(b, French, MenuScreen, size.w, size.h)
					s.setup(m)
					if kind == "floor" {
						frame := []byte(m.View().Content)
						b.ReportAllocs()
						cpu := cpuTime()
						for b.Loop() {
							var buf bytes.Buffer
							buf.Write(frame)
							sink = buf.Bytes()
						}
						cpuPerOp(b, cpu)
						return
					}
					b.ReportAllocs()
					cpu := cpuTime()
					for b.Loop() {
						if kind == "cold" {
							m.forget()
						}
						_ = m.View()
					}
					cpuPerOp(b, cpu)
				})
			}
		}
	}
}

// BenchmarkViewChange renders frames that follow a change, as most frames
// in play do: the header's clock moving a second (clock: on the menu at
// 120×40; clock-SCREEN-WxH: on the menu, Yam's before a purchase and a
// Vegas ticket half scratched, at three sizes), a Yam's cup rolling (roll:
// a step of Auto's cups, which roll one after another with a beat between
// two, all its messages and one frame; roll-remote: the same for a
// server's player, drawn as rows), a Vegas
// surface scratched (scratch: space). Only what changed is drawn again;
// buying the next unit is not timed.
func BenchmarkViewChange(b *testing.B) {
	big, seed := Options{Lang: French, Balance: decimal.NewFromInt(1_000_000)}, session.Options{Seed: game.SeedFrom(42)}
	clock := func(b *testing.B, m *Model) {
		c := clockOf(m)
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			c.add(time.Second)
			send(m, clockMsg{})
			c.take(func(msg tea.Msg) bool { _, ok := msg.(clockMsg); return ok })
			_, _ = m.Lines() // as a server draws it: a clock's second is a server's
		}
		cpuPerOp(b, cpu)
	}
	b.Run("clock", func(b *testing.B) { clock(b, open(b, big, 120, 40, seed)) })
	screens := []struct {
		name string
		keys []string
	}{{"menu", nil}, {"yams", []string{"1"}}, {"vegas", []string{"2", "enter", "space", "space", "tab", "space"}}}
	for _, s := range screens {
		for _, size := range []struct{ w, h int }{{80, 24}, {100, 30}, {120, 40}} {
			b.Run(fmt.Sprintf("clock-%s-%dx%d", s.name, size.w, size.h), func(b *testing.B) {
				m := open(b, big, size.w, size.h, seed)
				press(m, s.keys...)
				clock(b, m)
			})
		}
	}
	for _, remote := range []bool{false, true} {
		name := "roll"
		if remote {
			name = "roll-remote" // a server's session: remote paces, drawn as rows
		}
		b.Run(name, func(b *testing.B) {
			o := big
			o.Remote = remote
			m := open(b, o, 120, 40, seed)
			press(m, "1")
			c := clockOf(m)
			b.ReportAllocs()
			cpu := cpuTime()
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
				if remote {
					_, _ = m.Lines()
				} else {
					_ = m.View()
				}
			}
			cpuPerOp(b, cpu)
		})
	}
	b.Run("scratch", func(b *testing.B) {
		m := open(b, big, 120, 40, seed)
		press(m, "2", "enter")
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			if !m.Revealing() {
				b.StopTimer()
				press(m, "enter")
				b.StartTimer()
			}
			press(m, "space")
			_ = m.View()
		}
		cpuPerOp(b, cpu)
	})
}

// BenchmarkViewFloor is what a frame is measured against: a coloured
// frame of the same size built as one string, each line written once in a
// colour of its own. "styled" styles each line with lipgloss as it is
// written (the floor); "written" writes escape codes made once, as
// the grids' inks are: the least a coloured frame costs. BenchmarkView's
// floors write each screen's own frame.
func BenchmarkViewFloor(b *testing.B) {
	st := newStyles(false, true)
	styles := []lipgloss.Style{st.header, st.felt, st.dim, st.win}
	in := newInks(&st)
	for _, size := range frameSizes {
		line := string([]rune(strings.Repeat("Mise 1,00 € ♦ Jouer · Brelan ", size.w))[:size.w])
		b.Run(fmt.Sprintf("%dx%d/styled", size.w, size.h), func(b *testing.B) {
			b.ReportAllocs()
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
			b.ReportAllocs()
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
