package server

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"tapis/board"
	"tapis/store"
	"tapis/text"
	"tapis/ui"
)

// announceFor is how long an announcement shows on every screen.
const announceFor = time.Minute

// stand is what the stand's host sets for the whole server with the
// operator commands (operator.go): sales paused, an announcement. Every
// session follows it: each change wakes each session's follower, which
// hands its program the state as it is then, so that a pause and a resume
// in quick succession end on the resume.
type stand struct {
	mu        sync.Mutex
	paused    bool
	text      string    // the announcement, printable; "" none
	until     time.Time // when it is taken down
	followers map[chan struct{}]struct{}
	// changed is when the store's stand, which every server of the store
	// follows, was last set as this server follows it: a change the store
	// holds of a later time is another server's, followed here.
	changed time.Time
}

// standState is the stand as one moment sees it.
type standState struct {
	paused bool
	text   string
	until  time.Time
}

func newStand() *stand { return &stand{followers: map[chan struct{}]struct{}{}} }

// now returns the stand's state.
func (st *stand) now() standState {
	st.mu.Lock()
	defer st.mu.Unlock()
	return standState{paused: st.paused, text: st.text, until: st.until}
}

// isPaused reports whether sales are paused.
func (st *stand) isPaused() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.paused
}

// pause pauses or resumes sales; it reports whether that changed anything.
func (st *stand) pause(paused bool) bool {
	st.mu.Lock()
	changed := st.paused != paused
	st.paused = paused
	st.mu.Unlock()
	if changed {
		st.wake()
	}
	return changed
}

// announce shows text on every screen until until.
func (st *stand) announce(text string, until time.Time) {
	st.mu.Lock()
	st.text, st.until = text, until
	st.mu.Unlock()
	st.wake()
}

// wake tells every follower the stand changed.
func (st *stand) wake() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for c := range st.followers {
		select {
		case c <- struct{}{}:
		default: // woken already: it reads the latest state
		}
	}
}

// follow hands prog the stand's state, as msg makes it of one, at once
// when anything is set and at every change after, until over is closed.
func (st *stand) follow(prog *tea.Program, over <-chan struct{}, msg func(standState) tea.Msg) {
	c := make(chan struct{}, 1)
	st.mu.Lock()
	st.followers[c] = struct{}{}
	if st.paused || st.text != "" {
		c <- struct{}{}
	}
	st.mu.Unlock()
	go func() {
		defer func() {
			st.mu.Lock()
			delete(st.followers, c)
			st.mu.Unlock()
		}()
		for {
			select {
			case <-c:
				prog.Send(msg(st.now())) // returns once the program is over, too
			case <-over:
				return
			}
		}
	}()
}

// playerStand is the stand as a player's game takes it.
func playerStand(s standState) tea.Msg {
	return ui.StandMsg{Paused: s.paused, Announcement: s.text, Until: s.until}
}

// boardStand is the stand as a board takes it.
func boardStand(s standState) tea.Msg {
	return board.StandMsg{Paused: s.paused, Announcement: s.text, Until: s.until}
}

// followed notes that the store's stand as of changed is this server's.
func (st *stand) followed(changed time.Time) {
	st.mu.Lock()
	if changed.After(st.changed) {
		st.changed = changed
	}
	st.mu.Unlock()
}

// takeUp takes up the store's stand when it is newer than what this
// server follows (another server's pause, resume or announcement); it
// reports whether it was.
func (st *stand) takeUp(shared store.Stand) bool {
	st.mu.Lock()
	if !shared.Changed.After(st.changed) {
		st.mu.Unlock()
		return false
	}
	st.changed = shared.Changed
	st.paused = shared.Paused
	if shared.Announce != "" && shared.Until.After(time.Now()) {
		st.text, st.until = text.Printable(shared.Announce), shared.Until
	}
	st.mu.Unlock()
	st.wake()
	return true
}
