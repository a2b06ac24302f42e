//go:build !race

package ui

// raceEnabled is true under the race detector, which slows the tests
// that only drive one model on one goroutine tenfold: they run smaller
// there, and whole in go test without it.
const raceEnabled = false
