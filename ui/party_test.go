package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// settleRinging is settle, counting the terminal bells the model rings.
func settleRinging(m *Model) int {
	bells := 0
	count := func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		msgs := []tea.Msg{cmd()}
		if b, ok := msgs[0].(tea.BatchMsg); ok {
			msgs = msgs[:0]
			for _, c := range b {
				msgs = append(msgs, c())
			}
		}
		for _, msg := range msgs {
			if r, ok := msg.(tea.RawMsg); ok && r.Msg == "\a" {
				bells++
			}
		}
	}
	for range 1000 {
		ticks := clockOf(m).take(func(msg tea.Msg) bool {
			_, party := msg.(partyTickMsg)
			return party || animation(msg)
		})
		if len(ticks) == 0 {
			return bells
		}
		for _, t := range ticks {
			count(send(m, t))
		}
	}
	return bells
}

// bigRows returns the rows of s in the celebration's big lettering.
func bigRows(m *Model, s string) []string {
	rows, _ := m.art.letters.render(s)
	return rows[:]
}

// hasBig reports whether a frame shows s in big lettering.
func hasBig(m *Model, frame, s string) bool {
	for _, row := range bigRows(m, s) {
		if !strings.Contains(frame, row) {
			return false
		}
	}
	return true
}

// TestJackpotCelebration forces Yam's top lot (5 000 stakes): once the
// cups land, JACKPOT and the prize in big lettering take the board, the
// prize counting up, then flashing, for about two seconds; --bell rings
// three times; the board comes back after it.
func TestJackpotCelebration(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		o := Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen, QA: true, Bell: true}
		m := open(t, o, size.w, size.h, session.Options{Seed: game.SeedFrom(42)})
		press(m, "f", "enter", "a") // the top lot
		settle(m)
		sold := m.Showing("yams")
		prize := sold.Unit.Prize
		if !prize.Equal(decimal.NewFromInt(5000)) {
			t.Fatalf("the top lot pays %s", prize)
		}
		frame := plain(m)
		for _, row := range bigRows(m, "JACKPOT") {
			if !strings.Contains(frame, row) {
				t.Fatalf("%d×%d: no JACKPOT in big letters (%q):\n%s", size.w, size.h, row, frame)
			}
		}
		if hasBig(m, frame, m.euros(prize)) || !hasBig(m, frame, m.euros(prize.Div(decimal.NewFromInt(countFrames)))) {
			t.Errorf("the prize is not counted up from a fifth:\n%s", frame)
		}
		if size.w == 80 {
			golden(t, "yams_en_80x24_5_jackpot", frame)
		} else {
			golden(t, "yams_en_120x40_5_jackpot", frame)
		}
		bells := 0
		for range countFrames {
			bells += celebrateRinging(m)
			if got, want := m.View().Content, drawnAfresh(m); got != want {
				t.Fatalf("%d×%d: a celebration's frame kept differs from the frame drawn afresh:\n%s\nwant:\n%s", size.w, size.h, got, want)
			}
		}
		frame = plain(m)
		if !hasBig(m, frame, m.euros(prize)) {
			t.Fatalf("%d×%d: the prize %s is not in big letters once counted up:\n%s", size.w, size.h, m.euros(prize), frame)
		}
		bells += settleRinging(m)
		if bells != 2 {
			t.Errorf("the jackpot rang %d more times, want 2", bells)
		}
		frame = plain(m)
		if strings.Contains(frame, bigRows(m, "JACKPOT")[0]) || !strings.Contains(frame, "Mat 1") {
			t.Errorf("%d×%d: the board does not come back after the celebration:\n%s", size.w, size.h, frame)
		}
	}
}

// celebrateRinging delivers the celebration's next frame and counts the
// bells it rings.
func celebrateRinging(m *Model) int {
	n := 0
	for _, msg := range clockOf(m).take(func(msg tea.Msg) bool { _, ok := msg.(partyTickMsg); return ok }) {
		if cmd := send(m, msg); cmd != nil {
			if b, ok := cmd().(tea.BatchMsg); ok {
				for _, c := range b {
					if r, ok := c().(tea.RawMsg); ok && r.Msg == "\a" {
						n++
					}
				}
			} else if r, ok := cmd().(tea.RawMsg); ok && r.Msg == "\a" {
				n++
			}
		}
	}
	return n
}

// forceVegas plays a Vegas ticket of the QA panel's lot k (0 the top one),
// scratched by Auto to its end, at 80×24.
func forceVegas(t *testing.T, k int) *Model {
	m := newQA(t, VegasScreen)
	press(m, "f")
	for range k {
		press(m, "down")
	}
	press(m, "enter", "a")
	settle(m)
	return m
}

// TestVegasBigWinCelebration: a 50 € ticket (over ten stakes, no
// jackpot) shows its prize in big letters over the top surfaces, the
// bottom ones still in sight; a 10 € one (over the stake, under ten) and
// a losing one get no celebration.
func TestVegasBigWinCelebration(t *testing.T) {
	m := forceVegas(t, 4)
	if p := m.Showing("vegas").Unit.Prize; !p.Equal(decimal.NewFromInt(50)) {
		t.Fatalf("lot 4 pays %s", p)
	}
	for range countFrames {
		celebrate(m)
	}
	frame := plain(m)
	if !hasBig(m, frame, "€50") || hasBig(m, frame, "JACKPOT") || !strings.Contains(frame, "BIG WIN") ||
		!strings.Contains(frame, "3 · Poker") || strings.Contains(frame, "1 · Roulette") {
		t.Errorf("a 50 € ticket's celebration:\n%s", frame)
	}
	golden(t, "vegas_en_80x24_4_bigwin", frame)
	for _, k := range []int{6, 9} {
		m := forceVegas(t, k)
		if celebrate(m) || strings.Contains(plain(m), "BIG WIN") {
			t.Errorf("a ticket of %s is celebrated:\n%s", m.Showing("vegas").Unit.Prize, plain(m))
		}
	}
}

// TestVegasAutoSurfaceBySurface: Auto scratches one surface at a time, from
// the chosen one, each uncovered before the next starts; the lot won so far
// shows under the ticket as the surfaces come off.
func TestVegasAutoSurfaceBySurface(t *testing.T) {
	m := forceVegas(t, 5) // 25 €, split over the surfaces
	press(m, "enter", "3", "a")
	s := m.screens[VegasScreen].(*vegasScreen)
	var order []int
	sawSoFar := false
	for n := 0; m.Revealing(); n++ {
		if n > 1000 {
			t.Fatal("Auto never ends")
		}
		started := 0
		for f := range s.coats {
			if c := &s.coats[f]; !c.done() && c.left < len(c.covered) {
				started++
			}
			if s.coats[f].done() && !slices.Contains(order, f) {
				order = append(order, f)
			}
		}
		if started > 1 {
			t.Fatalf("step %d: %d surfaces scratched at once", n, started)
		}
		sawSoFar = sawSoFar || strings.Contains(plain(m), "Won so far")
		for _, msg := range clockOf(m).take(animation) {
			send(m, msg)
		}
	}
	for f := range s.coats {
		if !slices.Contains(order, f) {
			order = append(order, f)
		}
	}
	if want := []int{2, 3, 0, 1}; !slices.Equal(order, want) {
		t.Errorf("surfaces uncovered in the order %v, want %v", order, want)
	}
	if !sawSoFar && !m.Showing("vegas").Unit.Prize.IsZero() {
		t.Error("the lot won so far never shows while the surfaces come off")
	}
}

// TestTotalCountsUp: under the mats, the total counts up as each cup
// lands: the points of the cups shown so far, before the prize is said.
func TestTotalCountsUp(t *testing.T) {
	m := newModel(t, English, YamsScreen, 80, 24)
	press(m, "enter")
	cups := m.Showing("yams").Layout.Yams.Cups
	sum := 0
	for i, cup := range []int{2, 0, 1} {
		press(m, strconv.Itoa(cup+1))
		settle(m)
		sum += cups[cup].Combination().Points()
		want := fmt.Sprintf("Total: %d points", sum)
		if !strings.Contains(plain(m), want) {
			t.Fatalf("after %d cups: no %q:\n%s", i+1, want, plain(m))
		}
		if still := i < 2; still != m.Revealing() {
			t.Fatalf("after %d cups: revealing %v", i+1, m.Revealing())
		}
	}
}
