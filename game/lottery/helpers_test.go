package lottery

import (
	"testing"

	"tapis/game"
)

// unitOf sells units of a fresh seeded sequence and returns the n-th.
func unitOf(t *testing.T, g Game, tb *game.Table, seed game.Seed, n int) game.Unit {
	t.Helper()
	s := game.NewSequence(g.Name, g.DefaultStake, tb, seed)
	var u game.Unit
	for range n {
		u = s.Next()
	}
	return u
}
