package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// drawnAfresh returns the frame the model shows drawn from nothing: no
// memo, no drawing kept, no last frame to copy rows from. What the model
// keeps is left as it was.
func drawnAfresh(m *Model) string {
	memo, kept, painted := m.memo, m.kept, m.paint
	m.memo, m.kept, m.paint = memoTable{}, keptDrawings{}, painter{}
	frame := m.View().Content
	m.memo, m.kept, m.paint = memo, kept, painted
	return frame
}

// TestFramesKeptAsDrawn plays through every screen and checks that each
// frame, drawn from what the session kept of the last ones (the memo, the
// drawings kept, the rows copied from the last frame, a surface's rows
// kept under its coating), is byte for byte the frame drawn from nothing.
func TestFramesKeptAsDrawn(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		o := Options{Lang: French, Balance: decimal.NewFromInt(20), QA: size.w == 80}
		m := open(t, o, size.w, size.h, session.Options{Seed: game.SeedFrom(7)})
		c := clockOf(m)
		frames := 0
		check := func(what string) {
			t.Helper()
			frames++
			if got, want := m.View().Content, drawnAfresh(m); got != want {
				t.Fatalf("%d×%d, %s: the frame drawn from what was kept differs from the frame drawn afresh:\n%s\nwant:\n%s",
					size.w, size.h, what, got, want)
			}
		}
		step := func(what string, msgs ...tea.Msg) {
			t.Helper()
			for _, msg := range msgs {
				send(m, msg)
			}
			check(what)
		}
		tick := func(what string) { // one step of every animation under way, then the clock
			t.Helper()
			for _, msg := range c.take(animation) {
				send(m, msg)
			}
			check(what)
			c.add(time.Second)
			send(m, clockMsg{})
			c.take(func(msg tea.Msg) bool { _, ok := msg.(clockMsg); return ok })
			check(what + ", a second later")
		}
		check("the menu")
		step("down the menu", keyMsg("down"), keyMsg("down"))
		step("Yam's", keyMsg("up"), keyMsg("up"), keyMsg("enter"))
		step("a stake", keyMsg("left"))
		step("Auto", keyMsg("a"))
		for range rollFrames + 1 {
			tick("Auto's roll")
		}
		step("Play", keyMsg("enter"))
		step("cup 2", keyMsg("2"))
		tick("cup 2 rolling")
		step("cup 1", keyMsg("1"))
		for range rollFrames + 1 {
			tick("cups 1 and 2 rolling")
		}
		step("cup 3", keyMsg("3"))
		for range rollFrames + 1 {
			tick("cup 3 rolling")
		}
		step("the history", keyMsg("h"))
		step("a unit shown again", keyMsg("enter"))
		step("back", keyMsg("esc"), keyMsg("esc"))
		step("the stats", keyMsg("s"))
		step("back", keyMsg("esc"))
		step("the help", keyMsg("?"))
		step("back", keyMsg("?"), keyMsg("esc"))
		step("Vegas", keyMsg("2"), keyMsg("enter"))
		for i := range 12 {
			step("a scratch", keyMsg("space"))
			if i%4 == 3 {
				step("the next surface", keyMsg("tab"))
			}
			tick("scratching")
		}
		x, y := find(t, m, "surface:3")
		step("a press on surface 4", tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
		for dx := range 6 {
			step("a drag over it", tea.MouseMotionMsg{X: x + dx, Y: y, Button: tea.MouseLeft})
		}
		step("the drag let go", tea.MouseReleaseMsg{X: x + 5, Y: y})
		step("Auto scratching", keyMsg("a"))
		for m.Revealing() {
			tick("Auto scratching")
		}
		step("the rules", keyMsg("esc"), keyMsg("4"))
		step("scrolled", keyMsg("pgdown"))
		step("a wider window", sizeMsg(size.w+10, size.h+2))
		step("Yam's", keyMsg("esc"), keyMsg("1"))
		for range 6 { // the wallet runs out: the notes under the stakes
			step("Auto", keyMsg("a"))
			for range rollFrames + 1 {
				tick("Auto's roll")
			}
		}
		if frames < 100 {
			t.Errorf("%d×%d: %d frames checked", size.w, size.h, frames)
		}
	}
}

// TestRealityFramesKeptAsDrawn checks the reality check's modal as
// TestFramesKeptAsDrawn checks the screens: kept from one second to the
// next, and drawn again as it opens again over another screen.
func TestRealityFramesKeptAsDrawn(t *testing.T) {
	m := checked(t, English)
	for round, keys := range [][]string{{"a"}, {"2", "enter", "a"}} {
		press(m, keys...)
		settle(m)
		after(m, 31*time.Minute)
		send(m, clockMsg{})
		if !checking(m) {
			t.Fatalf("round %d: no reality check after 31 minutes:\n%s", round, plain(m))
		}
		for s := range 3 {
			clockOf(m).add(time.Second)
			send(m, clockMsg{})
			if got, want := m.View().Content, drawnAfresh(m); got != want {
				t.Fatalf("round %d, %d s: the modal drawn from what was kept differs from the modal drawn afresh:\n%s\nwant:\n%s", round, s, got, want)
			}
		}
		press(m, "enter")
	}
}

// TestAutoRollsInOneTick checks that Auto's three cups roll on one message
// a step, which moves all three, and that they show the very frames that
// three cups rolled one after the other at once show, each on a tick of
// its own (the animations' random stream is drawn in the same order).
func TestAutoRollsInOneTick(t *testing.T) {
	auto := newModel(t, English, YamsScreen, 100, 30)
	apart := newModel(t, English, YamsScreen, 100, 30)
	press(auto, "enter", "a")
	press(apart, "enter", "1", "2", "3")
	for n := 0; auto.Revealing() || apart.Revealing(); n++ {
		if n > rollFrames {
			t.Fatalf("still rolling after %d steps", n)
		}
		a, b := clockOf(auto).take(animation), clockOf(apart).take(animation)
		if len(a) != 1 || len(b) != 3 || rolling(auto) != 0 {
			t.Fatalf("step %d: %d messages for Auto's cups, %d for three cups rolled apart", n, len(a), len(b))
		}
		if g := a[0].(cupTickMsg).group; g.cups != [3]bool{true, true, true} {
			t.Fatalf("step %d: Auto's message moves cups %v", n, g.cups)
		}
		send(auto, a[0])
		for _, msg := range b {
			send(apart, msg)
		}
		if got, want := auto.View().Content, apart.View().Content; got != want {
			t.Fatalf("step %d: Auto's frame differs from the cups rolled apart:\n%s\nwant:\n%s", n, plain(auto), plain(apart))
		}
	}
	sold := auto.Showing("yams")
	for i := range 3 {
		if got, want := matFoot(t, auto, i), cupLine(auto, sold.Layout.Yams.Cups[i]); got != want {
			t.Errorf("cup %d shows %q, dealt %q", i+1, got, want)
		}
	}
}
