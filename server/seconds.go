package server

import (
	"sync"
	"time"
)

// secondHand moves the header's time played on in every session's screen
// at each second of the wall clock (ui.HeaderTime), for the whole server:
// one timer a second, where each session's model had a timer, a message,
// an Update and a frame of its own. A screen whose frame has nothing to
// move is not woken.
type secondHand struct {
	mu      sync.Mutex
	screens map[*screen]struct{}
	each    []*screen // move's own, reused
	tick    *ticker   // nil until started
}

func newSecondHand() *secondHand { return &secondHand{screens: map[*screen]struct{}{}} }

// start starts the hand, once.
func (h *secondHand) start() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tick == nil {
		h.tick = every(time.Second, h.move)
	}
}

// end stops the hand; nil does nothing.
func (h *secondHand) end() {
	if h == nil {
		return
	}
	h.mu.Lock()
	t := h.tick
	h.mu.Unlock()
	t.end()
}

// add has s's time moved on, until remove.
func (h *secondHand) add(s *screen) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.screens[s] = struct{}{}
	h.mu.Unlock()
}

// remove has s's time moved on no more.
func (h *secondHand) remove(s *screen) {
	if h == nil {
		return
	}
	h.mu.Lock()
	delete(h.screens, s)
	h.mu.Unlock()
}

// move tells each screen the second: the screens are read under the
// lock, and told outside it (a screen's lock is its own). Only the hand's
// ticker calls it.
func (h *secondHand) move() {
	now := time.Now()
	h.mu.Lock()
	each := h.each[:0]
	for s := range h.screens {
		each = append(each, s)
	}
	h.mu.Unlock()
	for _, s := range each {
		s.second(now)
	}
	clear(each)
	h.each = each
}
