package ui

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TimerClock is the real clock for a program that takes messages from
// outside (a server's session, through Program.Send). Each wait is a
// timer of the runtime's that sends its message when it ends. The system
// clock's wait is a command: Bubble Tea hands it to its command goroutine,
// which starts a goroutine that sits on a timer, and a batch of two
// commands (a frame's and a tick's) adds a third goroutine and a message.
// On a server every animation step and every second of every session pays
// those wakes, which cost more than the frame drawn.
type TimerClock struct {
	mu      sync.Mutex
	send    func(tea.Msg) // nil until Start, and again after Stop
	early   []tea.Msg     // what came due before Start
	stopped bool
}

// NewTimerClock returns a clock whose waits are held until Start names
// where their messages go.
func NewTimerClock() *TimerClock { return &TimerClock{} }

// Start sends the messages of the waits that end from now on to send (a
// program's Send), and those that ended already, on a goroutine of their
// own: Start comes before the program runs, and its Send waits for it.
func (c *TimerClock) Start(send func(tea.Msg)) {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return
	}
	c.send = send
	early := c.early
	c.early = nil
	c.mu.Unlock()
	if len(early) > 0 {
		go func() {
			for _, msg := range early {
				send(msg)
			}
		}()
	}
}

// Stop drops the waits: a wait that ends after it sends nothing (one
// ending as Stop runs may still send once: a program that is over takes
// it and returns at once). A wait still running (the reality check's, up
// to 30 minutes) then holds its message and this clock, not the program,
// until its timer ends. The model calls it when it closes.
func (c *TimerClock) Stop() {
	c.mu.Lock()
	c.stopped, c.send, c.early = true, nil, nil
	c.mu.Unlock()
}

// Now is the system's time.
func (*TimerClock) Now() time.Time { return time.Now() }

// After sends msg once d has passed, on the beat as the system clock's
// waits end (onBeat). It returns no command: nothing waits meanwhile.
func (c *TimerClock) After(d time.Duration, msg tea.Msg) tea.Cmd {
	time.AfterFunc(onBeat(time.Now(), d), func() { c.fire(msg) })
	return nil
}

// fire sends a wait's message, or keeps it for Start.
func (c *TimerClock) fire(msg tea.Msg) {
	c.mu.Lock()
	send, stopped := c.send, c.stopped
	if send == nil && !stopped {
		c.early = append(c.early, msg)
	}
	c.mu.Unlock()
	if send != nil {
		send(msg)
	}
}
