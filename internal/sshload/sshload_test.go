package sshload

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunRefuses checks that a load that is unbounded, or not on
// loopback, is refused before any connection.
func TestRunRefuses(t *testing.T) {
	ok := Config{Addrs: []string{"127.0.0.1:1"}, Sessions: 1, Press: "a", Every: time.Second, For: time.Second}
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Addrs = nil }, "no server address"},
		{func(c *Config) { c.Sessions = 0 }, "0 sessions"},
		{func(c *Config) { c.Sessions = maxSessions + 1 }, "10001 sessions"},
		{func(c *Config) { c.Every = 0 }, "want both positive"},
		{func(c *Config) { c.For = 25 * time.Hour }, "at most 24h"},
		{func(c *Config) { c.Press = "" }, "no key"},
		{func(c *Config) { c.Addrs = []string{"example.com:22"} }, "not a loopback address"},
		{func(c *Config) { c.Addrs = []string{"10.0.0.1:22"} }, "not a loopback address"},
		{func(c *Config) { c.Addrs = []string{"127.0.0.1"} }, "missing port"},
	} {
		c := ok
		tc.change(&c)
		_, err := Run(context.Background(), c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", c, err, tc.want)
		}
	}
}

// TestRunIdleNeedsNoKey checks that a load of sessions that only sit is
// not refused for want of a key to press, but still for an unbounded
// time.
func TestRunIdleNeedsNoKey(t *testing.T) {
	c := Config{Addrs: []string{"127.0.0.1:1"}, Sessions: 1, Idle: true, For: time.Second}
	if err := c.check(); err != nil {
		t.Errorf("idle load refused: %v", err)
	}
	c.For = 0
	if err := c.check(); err == nil || !strings.Contains(err.Error(), "sit for 0s") {
		t.Errorf("idle load for 0s: %v", err)
	}
	c = Config{Addrs: []string{"127.0.0.1:1"}, Sessions: 1, Press: "a", Every: time.Second, For: time.Second, AnswerMin: -1}
	if err := c.check(); err == nil || !strings.Contains(err.Error(), "want 0 or more") {
		t.Errorf("AnswerMin -1: %v", err)
	}
}

// TestSpread checks the percentiles, nearest rank, over all the
// durations, and over an empty set.
func TestSpread(t *testing.T) {
	s := newSamples(maxSamples)
	if got := s.spread(); got != (Spread{}) || got.String() != "none" {
		t.Errorf("empty: %+v %q", got, got.String())
	}
	for i := 200; i >= 1; i-- { // in reverse: spread sorts
		s.add(time.Duration(i) * time.Millisecond)
	}
	want := Spread{N: 200, P50: 100 * time.Millisecond, P99: 198 * time.Millisecond, Max: 200 * time.Millisecond}
	if got := s.spread(); got != want {
		t.Errorf("1..200 ms: %+v, want %+v", got, want)
	}
	if got := want.String(); got != "p50 100ms p99 198ms max 200ms" {
		t.Errorf("String: %q", got)
	}
	one := newSamples(4)
	one.add(7 * time.Millisecond)
	if got := one.spread(); got.P50 != 7*time.Millisecond || got.P99 != 7*time.Millisecond || got.N != 1 {
		t.Errorf("one duration: %+v", got)
	}
}

// TestSamplesBounded checks that past its limit a sample keeps its size,
// counts every duration, and keeps a sample of all of them.
func TestSamplesBounded(t *testing.T) {
	s := newSamples(100)
	for i := range 10_000 {
		s.add(time.Duration(i))
	}
	if len(s.kept) != 100 || s.n != 10_000 {
		t.Fatalf("kept %d of %d, want 100 of 10000", len(s.kept), s.n)
	}
	late := 0
	for _, d := range s.kept {
		if d >= 5000 {
			late++
		}
	}
	if late < 20 || late > 80 { // a uniform sample: about half from the later half
		t.Errorf("%d of 100 kept from the later half of the durations", late)
	}
}

// TestDrawsText checks what counts as a first frame: text, not the
// queries and modes a program may write first.
func TestDrawsText(t *testing.T) {
	for in, want := range map[string]bool{
		"\x1b[?2026$p\x1b[?2027$p":                  false, // Bubble Tea v2's first write
		"\x1b[?1049h\x1b[?25l\x1b]2;tapis\a\x1b[H ": false,
		"\x1b[?1049h\x1b[H\x1b[2J ♦ floor":          true,
		"\x1b[1;91H1s":                              true,
		"":                                          false,
	} {
		if got := drawsText([]byte(in)); got != want {
			t.Errorf("drawsText(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestCounterTimes checks the counter's timing: the first frame once,
// on the first write that draws text; a press answered by the first
// write of at least AnswerMin bytes after it, an earlier press still
// waiting keeping its time.
func TestCounterTimes(t *testing.T) {
	var n atomic.Int64
	c := &counter{n: &n, first: make(chan struct{}), dialed: time.Now(), frames: newSamples(8), answers: newSamples(8), answerMin: 10}
	c.Write([]byte("\x1b[?2026$p"))
	select {
	case <-c.first:
		t.Fatal("a query taken for the first frame")
	default:
	}
	c.Write([]byte("menu"))
	<-c.first
	c.Write([]byte("menu again"))
	if c.frames.n != 1 {
		t.Errorf("%d first frames, want 1", c.frames.n)
	}
	c.press()
	at := c.pressed
	c.press() // still waiting: keeps the first press's time
	if c.pressed != at {
		t.Error("a second press moved the time of the one waiting")
	}
	c.Write([]byte("1s")) // the clock: too short to answer
	if c.answers.n != 0 {
		t.Error("a two-byte clock write taken for the answer")
	}
	c.Write([]byte("the dice roll"))
	c.Write([]byte("and roll again"))
	if c.answers.n != 1 || !c.pressed.IsZero() {
		t.Errorf("%d answers (pressed %v), want 1", c.answers.n, c.pressed)
	}
	if n.Load() != int64(len("\x1b[?2026$pmenumenu again1sthe dice rolland roll again")) {
		t.Errorf("%d bytes counted", n.Load())
	}
}
