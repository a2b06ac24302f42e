package ui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// TestScreenshots writes the README's screenshots as ANSI files into the
// folder named by TAPIS_SHOTS (freeze turns them into pictures). It plays
// real units: the first seed whose first unit wins well.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("TAPIS_SHOTS")
	if dir == "" {
		t.Skip("set TAPIS_SHOTS=DIR to write the screenshots")
	}
	write := func(name string, m *Model) {
		if err := os.WriteFile(filepath.Join(dir, name+".ansi"), []byte(m.View().Content+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shot := func(lang Lang, start Screen, keep func(m *Model) bool, play func(m *Model)) *Model {
		for seed := range game.Seed(5000) {
			m, _ := newOn(Options{Lang: lang, Balance: decimal.NewFromInt(100), Seed: seed, Start: start})
			send(m, sizeMsg(100, 30))
			play(m)
			if keep(m) {
				return m
			}
		}
		t.Fatal("no seed fits")
		return nil
	}
	yams := shot(French, YamsScreen, func(m *Model) bool {
		return m.Showing("yams").Unit.Prize.GreaterThanOrEqual(decimal.NewFromInt(10))
	}, func(m *Model) { press(m, "right", "a"); settle(m) })
	write("yams", yams)
	vegas := shot(English, VegasScreen, func(m *Model) bool {
		return m.Showing("vegas").Unit.Prize.GreaterThanOrEqual(decimal.NewFromInt(25))
	}, func(m *Model) {
		press(m, "enter", "a")
		settle(m)
	})
	write("vegas", vegas)
	half := shot(English, VegasScreen, func(m *Model) bool {
		return m.Showing("vegas").Unit.Prize.GreaterThanOrEqual(decimal.NewFromInt(10))
	}, func(m *Model) { press(m, "enter", "2", "space", "space", "space", "space", "3", "space", "space") })
	write("vegas-scratching", half)
}
