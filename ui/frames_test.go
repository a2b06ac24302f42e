package ui

import (
	"strconv"
	"strings"
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
		for n := 0; m.Revealing() && n < 4*rollFrames; n++ {
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
			for n := 0; m.Revealing() && n < 4*rollFrames; n++ {
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

// TestAutoRollsCupsOneAfterAnother checks that Auto rolls the cups one
// after another, each landing before the next starts, a message a step;
// that its frames are the very frames of the cups rolled one by one with
// their keys, each once the last has landed (the animations' random stream
// is drawn in the same order), but for the hint to roll them, which Auto
// leaves out; and that the cups show what was dealt.
func TestAutoRollsCupsOneAfterAnother(t *testing.T) {
	auto := newModel(t, English, YamsScreen, 100, 30)
	apart := newModel(t, English, YamsScreen, 100, 30)
	press(auto, "enter", "a")
	press(apart, "enter")
	for cup := range 3 {
		press(apart, strconv.Itoa(cup+1))
		for n := 0; ; n++ {
			if n > rollFrames {
				t.Fatalf("cup %d still rolling after %d steps", cup+1, n)
			}
			hint := newText(English).f("roll.hint", "1 2 3")
			if strings.Contains(plain(auto), hint) {
				t.Fatalf("cup %d, step %d: Auto tells the player to roll the cups it rolls:\n%s", cup+1, n, plain(auto))
			}
			if !sameButTheHint(plain(auto), plain(apart), hint) {
				t.Fatalf("cup %d, step %d: Auto's frame differs from the cup rolled with its key:\n%s\nwant:\n%s", cup+1, n, plain(auto), plain(apart))
			}
			a, b := clockOf(auto).take(animation), clockOf(apart).take(animation)
			if len(b) == 0 {
				// The cup landed: Auto waits a beat, then rolls the next one.
				if cup < 2 && (len(a) != 1 || a[0].(cupTickMsg).group.cups != [3]bool{}) {
					t.Fatalf("cup %d landed: Auto asks %v, want the beat before the next cup", cup+1, a)
				}
				if cup == 2 && len(a) != 0 {
					t.Fatalf("the last cup landed: Auto asks %v", a)
				}
				for _, msg := range a {
					send(auto, msg)
				}
				break
			}
			want := [3]bool{}
			want[cup] = true
			if len(a) != 1 || a[0].(cupTickMsg).group.cups != want {
				t.Fatalf("cup %d, step %d: Auto asks %v, want a step of cup %d alone", cup+1, n, a, cup+1)
			}
			send(auto, a[0])
			send(apart, b[0])
		}
	}
	if auto.Revealing() {
		t.Fatalf("Auto's cups not all shown:\n%s", plain(auto))
	}
	sold := auto.Showing("yams")
	for i := range 3 {
		if got, want := matFoot(t, auto, i), cupLine(auto, sold.Layout.Yams.Cups[i]); got != want {
			t.Errorf("cup %d shows %q, dealt %q", i+1, got, want)
		}
	}
}

// TestSpeedKey checks that v changes the reveals' pace, says so in place
// of the keys' help, and that a fast cup lands in fewer steps than a slow
// one, the unit alike.
func TestSpeedKey(t *testing.T) {
	steps := func(m *Model) int {
		press(m, "enter", "1")
		n := 0
		for ; rolling(m) > 0; n++ {
			for _, msg := range clockOf(m).take(animation) {
				send(m, msg)
			}
		}
		return n
	}
	m := newModel(t, English, YamsScreen, 100, 30)
	normal := steps(m)
	press(m, "2", "3")
	settle(m)
	press(m, "v")
	if !strings.Contains(plain(m), "Speed: fast") {
		t.Fatalf("v does not say the speed:\n%s", plain(m))
	}
	fast := steps(m)
	press(m, "2", "3")
	settle(m)
	press(m, "v")
	if !strings.Contains(plain(m), "Speed: slow") {
		t.Fatalf("v again does not say slow:\n%s", plain(m))
	}
	slow := steps(m)
	if !(fast < normal && normal < slow) {
		t.Errorf("a cup rolls %d steps fast, %d normal, %d slow", fast, normal, slow)
	}
	if got := m.common.pace(); got.rollEvery < 40*time.Millisecond {
		t.Errorf("a step of %v: the server draws at most 25 frames a second", got.rollEvery)
	}
	for _, p := range paces {
		if p.rollEvery < 40*time.Millisecond {
			t.Errorf("a pace steps every %v, under 40 ms", p.rollEvery)
		}
	}
}

// sameButTheHint reports whether two frames are the same, but for hint on
// the second's line under the mats (each line centred as it is).
func sameButTheHint(a, b, hint string) bool {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(al) != len(bl) {
		return false
	}
	for i := range al {
		without := strings.TrimSpace(strings.Replace(bl[i], hint, "", 1))
		if al[i] != bl[i] && strings.TrimSpace(al[i]) != without {
			return false
		}
	}
	return true
}
