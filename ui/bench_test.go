package ui

import "testing"

// BenchmarkView renders each screen at 120×40, in the state a player sees
// most: a unit on the board, a ticket half scratched.
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
	for _, s := range setups {
		// warm: a frame like most frames, where the pieces that did not
		// change come from the memo; cold: every piece drawn again.
		for _, cold := range []bool{false, true} {
			name := s.name + "/warm"
			if cold {
				name = s.name + "/cold"
			}
			b.Run(name, func(b *testing.B) {
				m := newModel(b, French, MenuScreen, 120, 40)
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
