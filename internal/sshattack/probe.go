package sshattack

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// Probe is what a player saw while a server was attacked.
type Probe struct {
	FirstFrame time.Duration // from dialling to the menu drawn
	Bought     time.Duration // from dialling to a unit bought and shown
}

// Play plays as a player would: logs in with key, opens Yam's on a
// 100×30 terminal, presses Auto and waits for the unit's total; it gives
// up after limit.
func Play(ctx context.Context, t Target, key gossh.Signer, limit time.Duration) (Probe, error) {
	if err := t.check(); err != nil {
		return Probe{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	c, err := t.dial(ctx, key)
	if err != nil {
		return Probe{}, fmt.Errorf("logging in: %w", err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	s, err := c.NewSession()
	if err != nil {
		return Probe{}, fmt.Errorf("opening a session: %w", err)
	}
	if err := s.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		return Probe{}, fmt.Errorf("asking a terminal: %w", err)
	}
	in, err := s.StdinPipe()
	if err != nil {
		return Probe{}, err
	}
	screen := &screen{}
	s.Stdout, s.Stderr = screen, screen
	if err := s.Shell(); err != nil {
		return Probe{}, fmt.Errorf("starting the game: %w", err)
	}
	var p Probe
	if err := screen.wait(ctx, "Choose a game"); err != nil {
		return p, fmt.Errorf("the menu: %w (the screen: %q)", err, screen.tail())
	}
	p.FirstFrame = time.Since(start)
	io.WriteString(in, "1")
	if err := screen.wait(ctx, "enter play"); err != nil {
		return p, fmt.Errorf("opening Yam's: %w (the screen: %q)", err, screen.tail())
	}
	io.WriteString(in, "a")
	// Auto rolls the cups one after another: the unit is over, and shown,
	// at its result; a player leaving before would find it offered again,
	// in place of the menu, at the next probe.
	if err := screen.wait(ctx, "No win this time", "You win"); err != nil {
		return p, fmt.Errorf("the unit bought: %w (the screen: %q)", err, screen.tail())
	}
	p.Bought = time.Since(start)
	io.WriteString(in, "\x03")
	return p, nil
}

// screen is what a session wrote, its escape sequences stripped.
type screen struct {
	mu   sync.Mutex
	raw  bytes.Buffer
	text string
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw.Write(p)
	return len(p), nil
}

// wait waits until the screen shows one of want.
func (s *screen) wait(ctx context.Context, want ...string) error {
	for {
		s.mu.Lock()
		s.text = ansi.Strip(s.raw.String())
		found := slices.ContainsFunc(want, func(w string) bool { return strings.Contains(s.text, w) })
		s.mu.Unlock()
		if found {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%q not shown: %w", want, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// tail is the screen's last words, for an error.
func (s *screen) tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text[max(0, len(s.text)-200):]
}
