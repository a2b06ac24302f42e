package ui

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// TestRemotePacesAsLongInFewerSteps holds remotePaces to what they are
// for: at every speed, a cup rolls as long over SSH as on a local terminal
// (within a step's rounding to the 10 ms beat) in fewer steps, Auto
// scratches a surface as fast, the beats between two reveals are the same,
// and no step is shorter than 70 ms (14 frames a second).
func TestRemotePacesAsLongInFewerSteps(t *testing.T) {
	for sp := range Speed(len(paces)) {
		local, remote := paces[sp], remotePaces[sp]
		roll := func(p pace) time.Duration { return p.rollEvery * time.Duration(p.rollFrames) }
		if d := roll(remote) - roll(local); d < -beatFine*time.Duration(remote.rollFrames) || d > beatFine*time.Duration(remote.rollFrames) {
			t.Errorf("%s: a cup rolls %v over SSH, %v locally", sp, roll(remote), roll(local))
		}
		if remote.rollFrames >= local.rollFrames {
			t.Errorf("%s: %d steps over SSH, %d locally", sp, remote.rollFrames, local.rollFrames)
		}
		rate := func(p pace) float64 { return float64(p.dabs) / p.scratchEvery.Seconds() }
		if rate(remote) != rate(local) {
			t.Errorf("%s: Auto scratches %.0f dabs a second over SSH, %.0f locally", sp, rate(remote), rate(local))
		}
		if remote.land != local.land {
			t.Errorf("%s: a beat of %v over SSH, %v locally", sp, remote.land, local.land)
		}
		for _, step := range []time.Duration{remote.rollEvery, remote.scratchEvery} {
			if step < 70*time.Millisecond {
				t.Errorf("%s: a step of %v over SSH", sp, step)
			}
		}
	}
}

// TestRemoteAutoShowsTheSameUnit plays a Yam's unit with Auto on a model
// of a player over SSH and on a local one, the same seed: the remote one
// takes fewer frames to reveal it, and both end on the same frame.
func TestRemoteAutoShowsTheSameUnit(t *testing.T) {
	steps := func(remote bool) (int, string) {
		o := Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen, Remote: remote}
		m := open(t, o, 100, 30, session.Options{Seed: game.SeedFrom(42)})
		press(m, "a")
		n := 0
		for ; m.Revealing(); n++ {
			if n > 100 {
				t.Fatalf("remote %v: Auto still revealing after %d steps:\n%s", remote, n, plain(m))
			}
			for _, msg := range clockOf(m).take(animation) {
				send(m, msg)
			}
		}
		return n, plain(m)
	}
	local, localFrame := steps(false)
	remote, remoteFrame := steps(true)
	if remote >= local {
		t.Errorf("Auto reveals a unit in %d steps over SSH, %d locally", remote, local)
	}
	if remoteFrame != localFrame {
		t.Errorf("the unit revealed over SSH:\n%s\nlocally:\n%s", remoteFrame, localFrame)
	}
}
