package server

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// frameEvery is the least time between two frames of a session: 25 a
// second, as smooth as a cup rolling needs to look over SSH, where a local
// terminal would be given 60. A frame asked for sooner waits for its turn
// (one frame then draws every change made meanwhile); an answer to a key
// after a quiet moment is drawn at once.
const frameEvery = 40 * time.Millisecond

// frameSettle is how long a frame that no key or click asked for waits
// for the messages that come with the one that changed it: the three cups
// of an Auto roll tick together, and one frame draws all three.
const frameSettle = 3 * time.Millisecond

// paced runs a session's model and hands its frames to the session's
// screen, at most one every frameEvery and only after a message (nothing
// changes a frame but a message). Its own View is empty: the program runs
// without Bubble Tea's renderer.
type paced struct {
	tea.Model
	scr   *screen
	every time.Duration
	now   func() time.Time
	last  time.Time // when the last frame was handed in
	due   bool      // a frameDue is on its way
}

// frameDue is the message that a frame waiting for its turn may be drawn.
type frameDue struct{}

func newPaced(m tea.Model, scr *screen) *paced {
	return &paced{Model: m, scr: scr, every: frameEvery, now: time.Now}
}

// Update hands msg to the model, then draws its frame, now or at its turn.
func (p *paced) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case frameDue:
		p.due = false
		p.draw()
		return p, nil
	case tea.WindowSizeMsg:
		p.scr.resize(msg.Width, msg.Height)
	}
	m, cmd := p.Model.Update(msg)
	p.Model = m
	if f := p.frame(isInput(msg)); f != nil {
		return p, tea.Batch(cmd, f)
	}
	return p, cmd
}

// frame draws the model's frame if its turn has come, or returns the
// command that brings it at its turn; a frame that answers the player's
// input is drawn at once after a quiet moment.
func (p *paced) frame(input bool) tea.Cmd {
	if p.due {
		return nil
	}
	wait := p.every - p.now().Sub(p.last)
	if !input {
		wait = max(wait, frameSettle)
	}
	if wait > 0 {
		p.due = true
		return tea.Tick(wait, func(time.Time) tea.Msg { return frameDue{} })
	}
	p.draw()
	return nil
}

// isInput reports whether msg is the player's: a key, a click, a paste.
func isInput(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyMsg, tea.MouseMsg, tea.PasteMsg:
		return true
	}
	return false
}

// draw hands the model's frame to the screen.
func (p *paced) draw() {
	p.last = p.now()
	p.scr.set(p.Model.View())
}

// View is empty: the frames are the screen's.
func (p *paced) View() tea.View { return tea.View{} }

// end draws the model's last frame, when it quit (its program is over:
// nothing else calls its View now), and gives the terminal back.
func (p *paced) end(quit bool) {
	if quit {
		p.scr.set(p.Model.View())
	}
	p.scr.close()
}
