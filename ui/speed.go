package ui

import (
	"fmt"
	"time"
)

// Speed is the pace of the reveals: how long a cup rolls, how fast Auto
// scratches a surface, and the beat between one cup (or surface) landing
// and the next starting. Only what is shown takes longer or shorter: the
// unit was dealt whole when it was bought.
type Speed uint8

// The speeds, the zero value the normal one. Every step of an animation
// stays at 40 ms or more: a server draws at most 25 frames a second.
const (
	SpeedNormal Speed = iota
	SpeedSlow
	SpeedFast
)

// speedNames are the speeds as --speed and the screens write them.
var speedNames = [...]string{SpeedNormal: "normal", SpeedSlow: "slow", SpeedFast: "fast"}

// String is the speed's name: slow, normal or fast.
func (s Speed) String() string {
	if int(s) < len(speedNames) {
		return speedNames[s]
	}
	return "normal"
}

// ParseSpeed reads --speed's value: slow, normal or fast.
func ParseSpeed(s string) (Speed, error) {
	for sp, name := range speedNames {
		if s == name {
			return Speed(sp), nil
		}
	}
	return SpeedNormal, fmt.Errorf("%q is not a speed (slow, normal or fast)", s)
}

// next is the speed the speed key moves to: slow, normal, fast, slow…
func (s Speed) next() Speed {
	switch s {
	case SpeedSlow:
		return SpeedNormal
	case SpeedNormal:
		return SpeedFast
	}
	return SpeedSlow
}

// pace is what a speed makes of the animations.
type pace struct {
	rollEvery    time.Duration // a rolling cup's step
	rollFrames   int           // the steps a cup rolls
	land         time.Duration // Auto's beat between a cup (or a surface) landing and the next starting
	scratchEvery time.Duration // Auto's step on a surface
	dabs         int           // Auto's dabs of the scratch on a surface, each step
}

// paces are the speeds' paces on the terminal tapis runs in; normal's
// roll is the one the game always had.
var paces = [...]pace{
	SpeedNormal: {rollEvery: rollEvery, rollFrames: rollFrames, land: 240 * time.Millisecond, scratchEvery: scratchEvery, dabs: 4},
	SpeedSlow:   {rollEvery: 90 * time.Millisecond, rollFrames: 12, land: 480 * time.Millisecond, scratchEvery: scratchEvery, dabs: 2},
	SpeedFast:   {rollEvery: 40 * time.Millisecond, rollFrames: 5, land: 80 * time.Millisecond, scratchEvery: scratchEvery, dabs: 9},
}

// remotePaces are the same speeds for a player over SSH (Options.Remote):
// each reveal about as long as at paces, its cups landing and its surfaces
// uncovered as fast, in steps of 70 to 120 ms (8 to 14 frames a second,
// 8 at the normal and slow speeds, where a local terminal is given 11 to
// 25). On a server every frame costs a wake, a drawing and a packet, which
// 200 players at once feel; a tumble of eight faces a second still reads
// as a tumble. Each step is a multiple of beatFine, as onBeat would make
// it: a normal roll is 480 ms (as locally), a slow one 1 080 ms, a fast
// one 210 ms (200).
var remotePaces = [...]pace{
	SpeedNormal: {rollEvery: 120 * time.Millisecond, rollFrames: 4, land: 240 * time.Millisecond, scratchEvery: 2 * scratchEvery, dabs: 8},
	SpeedSlow:   {rollEvery: 120 * time.Millisecond, rollFrames: 9, land: 480 * time.Millisecond, scratchEvery: 2 * scratchEvery, dabs: 4},
	SpeedFast:   {rollEvery: 70 * time.Millisecond, rollFrames: 3, land: 80 * time.Millisecond, scratchEvery: 2 * scratchEvery, dabs: 18},
}

// pace returns the animations' pace at the session's speed.
func (c *common) pace() pace {
	if c.remote {
		return remotePaces[c.speed%Speed(len(remotePaces))]
	}
	return paces[c.speed%Speed(len(paces))]
}

// speedKeys are the text keys of the speeds' names.
var speedKeys = [...]string{SpeedNormal: "speed.normal", SpeedSlow: "speed.slow", SpeedFast: "speed.fast"}

// changeSpeed moves the reveals to the next speed and says which it is now.
func (c *common) changeSpeed() {
	c.speed = c.speed.next()
	c.tell(note{kind: noteSpeed})
}
