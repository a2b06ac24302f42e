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
// (within 5 %) in fewer steps, each a multiple of the beat (onBeat would
// round it: the roll would be longer than it says), Auto scratches a
// surface as fast, the beats between two reveals are the same, and no step
// is shorter than 70 ms (14 frames a second).
func TestRemotePacesAsLongInFewerSteps(t *testing.T) {
	for sp := range Speed(len(paces)) {
		local, remote := paces[sp], remotePaces[sp]
		roll := func(p pace) time.Duration { return p.rollEvery * time.Duration(p.rollFrames) }
		if d := roll(remote) - roll(local); d < -roll(local)/20 || d > roll(local)/20 {
			t.Errorf("%s: a cup rolls %v over SSH, %v locally", sp, roll(remote), roll(local))
		}
		if remote.rollFrames >= local.rollFrames {
			t.Errorf("%s: %d steps over SSH, %d locally", sp, remote.rollFrames, local.rollFrames)
		}
		if time.Duration(remote.dabs)*local.scratchEvery != time.Duration(local.dabs)*remote.scratchEvery {
			t.Errorf("%s: Auto scratches %d dabs every %v over SSH, %d every %v locally", sp, remote.dabs, remote.scratchEvery, local.dabs, local.scratchEvery)
		}
		if remote.land != local.land {
			t.Errorf("%s: a beat of %v over SSH, %v locally", sp, remote.land, local.land)
		}
		for _, step := range []time.Duration{remote.rollEvery, remote.scratchEvery} {
			if step < 70*time.Millisecond || step%beatFine != 0 {
				t.Errorf("%s: a step of %v over SSH, want 70 ms or more, a multiple of %v", sp, step, beatFine)
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
