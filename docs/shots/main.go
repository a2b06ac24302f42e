// Command shots writes the README's screenshots as ANSI files (yams.ansi,
// vegas.ansi, vegas-scratching.ansi, yams-jackpot.ansi) into the folder it
// is given, docs by default; docs/shots.sh turns them into pictures. The
// game draws real units: for each picture, the first seed whose first unit
// wins well; the jackpot's is a QA forced unit (the top lot), caught in
// the middle of its celebration. It
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
	"tapis/session"
	"tapis/ui"
)

// seeds is how many seeds are tried for a picture.
const seeds = 5000

// shot is one picture: a screen, keys pressed once the window is sized, the
// least the unit must win, whether its reveal runs to the end, and for a
// forced unit (QA) how many steps of its celebration show (none: the
// celebration of a big win is over on the picture).
type shot struct {
	name   string
	lang   ui.Lang
	start  ui.Screen
	keys   []tea.KeyPressMsg
	least  int64 // euros
	settle bool
	qa     bool
	party  int
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
		{name: "yams", lang: ui.French, start: ui.YamsScreen, keys: keys("right", "a"), least: 10, settle: true},
		{name: "vegas", lang: ui.English, start: ui.VegasScreen, keys: keys("enter", "a"), least: 25, settle: true},
		{name: "vegas-scratching", lang: ui.English, start: ui.VegasScreen,
			keys: keys("enter", "2", "space", "space", "space", "space", "3", "space", "space"), least: 10},
		// f, enter: the QA panel forces the top lot; a: Auto plays it.
		{name: "yams-jackpot", lang: ui.English, start: ui.YamsScreen, keys: keys("f", "enter", "a"), least: 5000,
			settle: true, qa: true, party: 6},
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
	for n := range uint64(seeds) {
		seed := game.SeedFrom(n)
		d, err := s.play(seed)
		if err != nil {
			return err
		}
		if d.m.Totals().Won.LessThan(decimal.NewFromInt(s.least)) {
			d.m.Close()
			continue
		}
		defer d.m.Close()
		if s.settle {
			if err := d.settle(); err != nil {
				return err
			}
			// The celebration's steps: s.party of them, or all of it.
			rounds := s.party
			if rounds == 0 {
				rounds = 20
			}
			d.rounds(rounds)
		}
		path := filepath.Join(dir, s.name+".ansi")
		if err := os.WriteFile(path, []byte(d.m.View().Content+"\n"), 0o644); err != nil {
			return fmt.Errorf("writing the picture: %w", err)
		}
		fmt.Printf("%s (seed %d)\n", path, seed)
		return nil
	}
	return fmt.Errorf("no seed below %d wins %d €", seeds, s.least)
}

// driver runs a model as Bubble Tea would, one message at a time, on a
// clock that stands still: the animations' ticks wait in a queue until
// settle delivers them, at once.
type driver struct {
	m     *ui.Model
	ticks []tea.Msg
}

// tick is an animation's tick, held by the pictures' clock.
type tick struct{ msg tea.Msg }

// evening is the pictures' clock: the header shows its time, and ticks
// wait for the driver.
type evening struct{}

func (evening) Now() time.Time { return time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC) }

func (evening) After(_ time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return tick{msg} }
}

// send gives the model a message and runs the commands it asks for: what
// they answer (a purchase, a journal record) goes back to the model, the
// ticks to the queue. Quitting and the like do not happen here.
func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case tick:
		d.ticks = append(d.ticks, msg.msg)
	case tea.QuitMsg, tea.SuspendMsg:
	default:
		d.send(msg)
	}
}

// play opens a session seeded with seed on s's screen in a window of
// 100×30 and presses s's keys. The prize is known as soon as the unit is
// bought, before it is shown.
func (s shot) play(seed game.Seed) (*driver, error) {
	sess, err := session.Open(session.Options{Seed: seed, Balance: decimal.NewFromInt(100), Limit: ui.HistoryLimit, Now: evening{}.Now, QA: s.qa})
	if err != nil {
		return nil, err
	}
	m := ui.New(sess, ui.Options{Lang: s.lang, Balance: decimal.NewFromInt(100), Start: s.start, Clock: evening{}, QA: s.qa})
	d := &driver{m: m}
	d.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, k := range s.keys {
		d.send(k)
	}
	return d, nil
}

// settle delivers the animations' ticks until the unit is shown. The
// clock's own second ticks are dropped: the pictures' time stands still.
func (d *driver) settle() error {
	for range 100_000 {
		if !d.m.Revealing() {
			return nil
		}
		if len(d.ticks) == 0 {
			return errors.New("the unit is still being revealed, and nothing moves")
		}
		t := d.ticks[0]
		d.ticks = d.ticks[1:]
		d.send(t)
	}
	return errors.New("the unit is still being revealed after 100 000 ticks")
}

// rounds delivers, n times over, every tick waiting: each round moves the
// celebration of a big win on by one step (and the header's clock, which
// stands still, by nothing).
func (d *driver) rounds(n int) {
	for range n {
		ticks := d.ticks
		d.ticks = nil
		for _, t := range ticks {
			d.send(t)
		}
	}
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
