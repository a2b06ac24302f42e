package server

import (
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"

	"tapis/ui"
)

// frameEvery is the least time between two frames of a session: 25 a
// second, as smooth as a cup rolling needs to look over SSH, where a local
// terminal would be given 60. A frame asked for sooner waits for its turn
// (one frame then draws every change made meanwhile); an answer to a key
// after a quiet moment is drawn at once.
const frameEvery = 40 * time.Millisecond

// lazyWait is how long after the last frame a lazy change (ui.Lazy: the
// header's clock) waits for another frame to draw it: a remote roll's
// steps come every 70 to 120 ms, and the next draws it too. On a screen
// at rest (no frame for lazyWait) it is drawn at once; in a longer pause of
// an animation (the beat between two cups) lazyWait after the last frame.
const lazyWait = 150 * time.Millisecond

// paced runs a session's model and hands its frames to the session's
// screen, at most one every frameEvery and only after a message (nothing
// changes a frame but a message). Its own View is empty: the program runs
// without Bubble Tea's renderer.
type paced struct {
	tea.Model
	prog *tea.Program // the program running it, once started
	scr  *screen
	last time.Time // when the last frame was handed in
	due  bool      // a frameDue is on its way
	lazy bool      // a lazyDue is on its way: a lazy change's wait, or a purchase's (awaitAnswer)
	// awaiting: the frames since a purchase began wait for its answer,
	// until it comes or lazyDue does.
	awaiting bool
	dirty    bool // the model had a message since the last frame
	sized    bool // the model has its window's size: before, it draws nothing worth a frame
	// isLazy tells the changes that may wait for another frame: ui.Lazy.
	isLazy func(tea.Msg) bool
	// after sends msg to the program once d has passed; nil: a timer of
	// the runtime's sends it (wait).
	after func(d time.Duration, msg tea.Msg)
	// handed is the frame handed to the screen last.
	handed handedFrame
}

// handedFrame is what a screen draws of a frame: its rows (or content),
// the modes it sets, its header's time. A frame the same as the one
// handed last is not handed again: under load one frame in nine changed
// nothing (a key Auto ignores while it plays, a store's answer that shows
// nothing), and each woke the screen to compare its rows for nothing.
type handedFrame struct {
	ok     bool
	v      tea.View // the modes (sameModes) and the content the screen reads (screen.draw)
	rows   []string // the rows handed, copied: a row that stayed is the very string
	header ui.HeaderTime
}

// same reports whether a frame is the one handed last. Rows are told by
// address, as the screen tells them: a row painted again is a new frame's
// even when it reads the same.
func (f *handedFrame) same(v tea.View, rows []string, header ui.HeaderTime) bool {
	if !f.ok || !sameModes(v, f.v) || v.Content != f.v.Content || header != f.header ||
		(rows == nil) != (f.rows == nil) || len(rows) != len(f.rows) {
		return false
	}
	for i, r := range rows {
		if len(r) != len(f.rows[i]) || unsafe.StringData(r) != unsafe.StringData(f.rows[i]) {
			return false
		}
	}
	return true
}

// forget has the next frame handed, whatever it is.
func (f *handedFrame) forget() { f.ok = false }

// keep records the frame handed.
func (f *handedFrame) keep(v tea.View, rows []string, header ui.HeaderTime) {
	f.ok, f.v, f.header, f.rows = true, v, header, copyRows(f.rows, rows)
}

// frameDue is the message that a frame waiting for its turn may be drawn.
type frameDue struct{}

// lazyDue is the message that a lazy change's wait is over.
type lazyDue struct{}

func newPaced(m tea.Model, scr *screen) *paced {
	return &paced{Model: m, scr: scr, isLazy: ui.Lazy}
}

// Init starts the model, and stops Bubble Tea's frame ticker.
func (p *paced) Init() tea.Cmd { return tea.Batch(p.Model.Init(), p.stopTicker) }

// stopTicker stops the ticker Bubble Tea's program runs for its renderer:
// it would wake every session once a second for a renderer it does not
// have (a wake costs more than a frame on a virtual machine), and the
// program's renderer is stopped by releasing the terminal, which it never
// held (no input of its own, no TTY: the screen writes, feed reads).
func (p *paced) stopTicker() tea.Msg {
	if p.prog != nil {
		p.prog.ReleaseTerminal() //nolint:errcheck // with no TTY there is nothing to restore
	}
	return nil
}

// Update hands msg to the model, then draws its frame, now or at its turn.
func (p *paced) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if size, ok := msg.(tea.WindowSizeMsg); ok && (size.Width <= 0 || size.Height <= 0) {
		msg = tea.WindowSizeMsg{Width: noSizeWidth, Height: noSizeHeight} // the screen's size too
	}
	switch msg := msg.(type) {
	case frameDue:
		p.due = false
		if p.dirty {
			p.draw()
		}
		return p, nil
	case lazyDue:
		p.lazy, p.awaiting = false, false
		if !p.dirty || p.due {
			return p, nil // drawn since, or a frame is on its way
		}
		// A frame drawn since the wait began took its change; this one is
		// another's, which waits lazyWait after that frame.
		p.lazyFrame()
		return p, nil
	case tea.WindowSizeMsg:
		p.sized = true
		p.scr.resize(msg.Width, msg.Height)
		// A resize is drawn whole at the next frame handed, even one
		// whose rows are the last's (the size gone back within a frame's
		// turn: what the terminal lost meanwhile is drawn again).
		p.handed.forget()
	}
	buying := p.buying()
	m, cmd := p.Model.Update(msg)
	p.Model, p.dirty = m, true
	switch {
	case p.isLazy(msg):
		p.lazyFrame()
	case p.buying() && (!buying || p.awaiting):
		p.awaitAnswer()
	default:
		p.awaiting = false
		p.frame()
	}
	return p, cmd
}

// buyer is a model that says when a purchase is on its way to the store
// (ui.Model.Buying).
type buyer interface{ Buying() bool }

// buying reports whether the model has a purchase on its way.
func (p *paced) buying() bool {
	b, ok := p.Model.(buyer)
	return ok && b.Buying()
}

// awaitAnswer leaves the frame of a message that began a purchase (its
// screen saying Buying…), and of those after it (keys typed ahead, a
// click's release), to the store's answer, drawn at once when it comes: a
// store answers in a few milliseconds, and a Buying… shown for a frame's
// turn before the unit is a flicker a player sees, and a frame the server
// draws for nothing at each unit. An answer later than lazyWait has
// Buying… drawn then. A frame already on its way (due, or a lazy
// change's) draws what there is when it comes.
func (p *paced) awaitAnswer() {
	if !p.sized || p.due {
		return
	}
	p.awaiting = true
	if !p.lazy {
		p.lazy = true
		p.wait(lazyWait, lazyDue{})
	}
}

// frame draws the model's frame if its turn has come, or has it brought
// at its turn (frameDue). Nothing is drawn before the model
// has its size: Bubble Tea's first messages (the colour profile, then the
// size) come a few microseconds apart, and a frame of no size drawn for
// the first would put the first real one, the menu, a frame's turn later.
func (p *paced) frame() {
	if p.due || !p.sized {
		return
	}
	if wait := frameEvery - time.Since(p.last); wait > 0 {
		p.due = true
		p.wait(wait, frameDue{})
		return
	}
	p.draw()
}

// lazyFrame is frame for a lazy change: drawn as frame draws it when the
// screen is at rest (no frame for lazyWait), else left to the next frame,
// or to one lazyWait after the last, whichever comes first.
func (p *paced) lazyFrame() {
	wait := lazyWait - time.Since(p.last)
	if wait <= 0 || !p.sized {
		p.frame()
		return
	}
	if p.due || p.lazy {
		return
	}
	p.lazy = true
	p.wait(wait, lazyDue{})
}

// wait sends msg to the program once d has passed, with a timer of the
// runtime's rather than a command: Bubble Tea would run a command on a
// goroutine of its own that sits on a timer, and batch it with the
// model's (another goroutine and a message), at every frame's turn of
// every session (see ui.TimerClock).
func (p *paced) wait(d time.Duration, msg tea.Msg) {
	if p.after != nil {
		p.after(d, msg)
		return
	}
	prog := p.prog
	if prog == nil {
		return // a paced no program runs (a test's with no after): nowhere to send
	}
	time.AfterFunc(d, func() { prog.Send(msg) })
}

// draw hands the model's frame to the screen; a frame that changed
// nothing is not one, and the next frame's turn is counted from the last
// one handed.
func (p *paced) draw() {
	p.dirty = false
	if p.deliver() {
		p.last = time.Now()
	}
}

// liner is a model that draws its frames as rows (ui.Model.Lines): the
// rows that stayed are the last frame's very strings.
type liner interface {
	Lines() (tea.View, []string)
}

// timed is a model whose frames' header time a screen moves on between
// them (ui.Model.HeaderTime).
type timed interface {
	HeaderTime() ui.HeaderTime
}

// deliver hands the model's frame to the screen, as rows when it draws
// them, with its header's time, unless it is the frame handed last; it
// reports whether it handed it.
func (p *paced) deliver() bool {
	var (
		v    tea.View
		rows []string
		t    ui.HeaderTime
	)
	if l, ok := p.Model.(liner); ok {
		v, rows = l.Lines()
		if tm, ok := p.Model.(timed); ok {
			t = tm.HeaderTime()
		}
	} else {
		v = p.Model.View()
	}
	if p.handed.same(v, rows, t) {
		return false
	}
	p.handed.keep(v, rows, t)
	p.scr.set(v, rows, t)
	return true
}

// View is empty: the frames are the screen's.
func (p *paced) View() tea.View { return tea.View{} }

// end draws the model's last frame, when it quit (its program is over:
// nothing else calls its View now), and gives the terminal back.
func (p *paced) end(quit bool) {
	if quit {
		p.deliver()
	}
	p.scr.close()
}
