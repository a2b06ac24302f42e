package ui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"tapis/game/lottery"
	safe "tapis/text"
)

// maxProblems is how many of a file's errors the forcing panel keeps and
// shows; it counts the others.
const maxProblems = 20

// fileLoad is a layout file being read for the forcing panel, off the
// update loop. Closing the panel (or another load) cancels it: the reader
// stops at its next layout, and its answer is dropped.
type fileLoad struct{ cancelled atomic.Bool }

// errCancelled ends the reading of a file whose load was cancelled.
var errCancelled = errors.New("cancelled")

// cancellable reads from a file until its load is cancelled, so that the
// reading stops even where the file gives no layout for a long while.
type cancellable struct {
	r io.Reader
	l *fileLoad
}

func (c cancellable) Read(p []byte) (int, error) {
	if c.l.cancelled.Load() {
		return 0, errCancelled
	}
	return c.r.Read(p)
}

// cancelLoad cancels the file being read, if any.
func (p *qaPanel) cancelLoad() {
	if p.load != nil {
		p.load.cancelled.Store(true)
		p.load = nil
	}
}

// layoutsMsg carries the layouts of a file read for the forcing panel, or
// what was wrong with them: at most maxProblems errors and a count of the
// rest, at most lottery.MaxRecords layouts.
type layoutsMsg struct {
	load     *fileLoad // the load it answers
	game     string
	name     string
	layouts  []lottery.Layout
	problems []string // the first errors, as tapis score writes them
	more     int      // errors beyond them
	dropped  bool     // layouts beyond lottery.MaxRecords were left out
}

// problem keeps an error, or counts it once maxProblems are kept.
func (msg *layoutsMsg) problem(s string) {
	if len(msg.problems) < maxProblems {
		msg.problems = append(msg.problems, s)
		return
	}
	msg.more++
}

// loadLayouts reads a layout file with the reader of `tapis score`: its
// valid layouts of the game are played in order by the next purchases;
// errors are named by line and field as `score` names them.
func loadLayouts(l *fileLoad, t text, g lottery.Game, name string) tea.Cmd {
	return func() tea.Msg {
		msg := layoutsMsg{load: l, game: g.Name, name: name}
		f, err := os.Open(name)
		if err != nil {
			msg.problem(safe.Printable(err.Error()))
			return msg
		}
		defer f.Close()
		err = lottery.ReadWhile(cancellable{f, l}, func(e lottery.Entry) bool {
			switch {
			case l.cancelled.Load():
				return false
			case e.Err != nil:
				msg.problem(fmt.Sprintf("line %d: %v", e.Line, e.Err))
			case e.Layout.Game() != g.Name:
				msg.problem(t.f("qa.othergame", e.Line, e.Layout.Game()))
			case len(msg.layouts) == lottery.MaxRecords:
				msg.dropped = true
				return false
			default:
				msg.layouts = append(msg.layouts, e.Layout)
			}
			return true
		})
		if err != nil && !errors.Is(err, errCancelled) {
			msg.problem(safe.Printable(err.Error()))
		}
		return msg
	}
}

// onLayouts sets the layouts read as the next purchases, or shows in the
// panel why they cannot be. The answer of a load cancelled is dropped.
func (p *qaPanel) onLayouts(msg layoutsMsg) {
	if p.load != msg.load {
		return
	}
	p.load = nil
	name := safe.Printable(msg.name)
	switch {
	case len(msg.problems) > 0: // nothing is played from a file with errors
		p.errs, p.more = msg.problems, msg.more
		p.err = p.t.count("qa.notloaded", len(msg.layouts), len(msg.layouts))
	case len(msg.layouts) == 0:
		p.err = p.t.f("qa.nolayout", name)
	default:
		first := msg.layouts[0]
		p.setForce(msg.game, lottery.Force{Layout: &first}, "")
		f := p.till.force
		f.queue, f.file, f.cut = msg.layouts[1:], name, msg.dropped
	}
}
