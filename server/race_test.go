//go:build race

package server

// raceEnabled is true under the race detector.
const raceEnabled = true
