// Command shots writes the README's screenshots as ANSI files (yams.ansi,
// vegas.ansi, vegas-scratching.ansi) into the folder it is given, docs by
// default; docs/shots.sh turns them into pictures. The game draws real
// units: for each picture, the first seed whose first unit wins well. It
// drives the game as Bubble Tea would, through ui's exported API only: the
// window's size and keys go to Update, the animations' commands are run
// until the unit is shown, and View is written.
//
// Usage (from the repository's root):
//
//	go run ./docs/shots [DIR]
package main

//go:generate go run . ..

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ui"
)

// seeds is how many seeds are tried for a picture.
const seeds = 5000

// shot is one picture: a screen, keys pressed once the window is sized, the
// least the unit must win, and whether its reveal runs to the end.
type shot struct {
	name   string
	lang   ui.Lang
	start  ui.Screen
	keys   []tea.KeyPressMsg
	least  int64 // euros
	settle bool
}

func main() {
	dir := "docs"
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./docs/shots [DIR]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		dir = os.Args[1]
	}
	shots := []shot{
		{"yams", ui.French, ui.YamsScreen, keys("right", "a"), 10, true},
		{"vegas", ui.English, ui.VegasScreen, keys("enter", "a"), 25, true},
		{"vegas-scratching", ui.English, ui.VegasScreen,
			keys("enter", "2", "space", "space", "space", "space", "3", "space", "space"), 10, false},
	}
	for _, s := range shots {
		if err := s.write(dir); err != nil {
			fmt.Fprintf(os.Stderr, "shots: %s: %v\n", s.name, err)
			os.Exit(1)
		}
	}
}

// write finds the first seed whose unit wins at least s.least, plays it
// and writes its frame into dir.
func (s shot) write(dir string) error {
	for seed := range game.Seed(seeds) {
		m, cmds, err := s.play(seed)
		if err != nil {
			return err
		}
		if m.Totals().Won.LessThan(decimal.NewFromInt(s.least)) {
			m.Close()
			continue
		}
		defer m.Close()
		if s.settle {
			if err := settle(m, cmds); err != nil {
				return err
			}
		}
		path := filepath.Join(dir, s.name+".ansi")
		if err := os.WriteFile(path, []byte(m.View().Content+"\n"), 0o644); err != nil {
			return fmt.Errorf("writing the picture: %w", err)
		}
		fmt.Printf("%s (seed %d)\n", path, seed)
		return nil
	}
	return fmt.Errorf("no seed below %d wins %d €", seeds, s.least)
}

// play opens a session seeded with seed on s's screen in a window of
// 100×30, presses s's keys, and returns the commands they asked for. The
// prize is known as soon as the unit is bought, before it is shown.
func (s shot) play(seed game.Seed) (*ui.Model, []tea.Cmd, error) {
	m, err := ui.New(ui.Options{Lang: s.lang, Balance: decimal.NewFromInt(100), Seed: seed, Start: s.start, Now: evening})
	if err != nil {
		return nil, nil, err
	}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	var cmds []tea.Cmd
	for _, k := range s.keys {
		if _, cmd := m.Update(k); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	return m, cmds, nil
}

// settle runs cmds, and the commands their messages bring, as Bubble Tea
// would (each in its own goroutine, its message to Update), until the unit
// is shown. Update is only called here, one message at a time.
func settle(m *ui.Model, cmds []tea.Cmd) error {
	msgs := make(chan tea.Msg)
	done := make(chan struct{}) // what comes after the reveal is dropped
	defer close(done)
	run := func(cmd tea.Cmd) {
		if cmd != nil {
			go func() {
				select {
				case msgs <- cmd():
				case <-done:
				}
			}()
		}
	}
	for _, cmd := range cmds {
		run(cmd)
	}
	timeout := time.After(time.Minute)
	for m.Revealing() {
		select {
		case msg := <-msgs:
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, cmd := range batch {
					run(cmd)
				}
				continue
			}
			_, cmd := m.Update(msg)
			run(cmd)
		case <-timeout:
			return errors.New("the unit is still being revealed after a minute")
		}
	}
	return nil
}

// keys returns the key presses named, as Bubble Tea reads them.
func keys(names ...string) []tea.KeyPressMsg {
	var ks []tea.KeyPressMsg
	for _, k := range names {
		switch k {
		case "enter":
			ks = append(ks, tea.KeyPressMsg{Code: tea.KeyEnter})
		case "space":
			ks = append(ks, tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
		case "right":
			ks = append(ks, tea.KeyPressMsg{Code: tea.KeyRight})
		default:
			ks = append(ks, tea.KeyPressMsg{Code: []rune(k)[0], Text: k})
		}
	}
	return ks
}

// evening is the pictures' clock: the header shows its time.
func evening() time.Time { return time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC) }
