package server

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/session"
	"tapis/ui"
)

// handClock is a clock the test sets; the waits asked of it never end.
type handClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *handClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *handClock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

func (*handClock) After(time.Duration, tea.Msg) tea.Cmd { return nil }

// shown is the screen the emulator shows now.
func (d *drawn) shown() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.emu.String()
}

// nothing is a message no model handles.
type nothing struct{}

// sittingModel is a player's model as a server makes it (DrawsSeconds),
// on Yam's at 100×30, its clock the test's, started at start.
func sittingModel(t *testing.T, start time.Time) (*ui.Model, *handClock) {
	t.Helper()
	clock := &handClock{t: start}
	sess, err := session.Open(session.Options{Balance: decimal.NewFromInt(100), Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	m := ui.New(sess, ui.Options{Lang: ui.English, Balance: decimal.NewFromInt(100), Start: ui.YamsScreen,
		Clock: clock, DrawsSeconds: true, Profile: colorprofile.TrueColor})
	t.Cleanup(func() { m.Close() })
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m, clock
}

// TestScreenMovesTheHeaderTime: between the model's frames, the screen
// moves the header's time on at each second the hand tells it, to the
// row the model draws itself at that second, and writes only the time's
// cells; a frame whose time it is not given (a model that moves its own)
// is not woken by the hand.
func TestScreenMovesTheHeaderTime(t *testing.T) {
	start := time.Date(2026, 12, 7, 18, 0, 0, 300e6, time.UTC)
	m, clock := sittingModel(t, start)
	var raw syncBuffer
	emu := newDrawn(100, 30)
	var draws atomic.Int32
	scr := newScreen(writers{emu, &raw}, 100, 30, colorprofile.TrueColor, &styleMemo{}, func() { draws.Add(1) }, nil)
	defer scr.close()
	scr.clock = clock.Now // before the first frame: set orders it
	v, rows := m.Lines()
	scr.set(v, rows, m.HeaderTime())
	scr.sync()
	firstLine := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return strings.TrimRight(l, " ") }
	if got := firstLine(emu.shown()); !strings.HasSuffix(got, "Time 00:00") {
		t.Fatalf("the first frame's header: %q", got)
	}
	for i := 2; i <= 4; i++ {
		now := start.Add(time.Duration(i) * time.Second)
		before, written := draws.Load(), len(raw.String())
		scr.second(now)
		waitUntil(t, "the second drawn", func() bool { return draws.Load() > before })
		got := firstLine(emu.shown())
		if want := fmt.Sprintf("Time 00:%02d", i-1); !strings.HasSuffix(got, want) {
			t.Errorf("at %s: the header %q, want it to end with %q", now.Sub(start), got, want)
		}
		clock.set(now)
		m.Update(nothing{})
		_, own := m.Lines()
		if want := strings.TrimRight(ansi.Strip(own[0]), " "); got != want {
			t.Errorf("at %s: the screen shows %q, the model draws %q", now.Sub(start), got, want)
		}
		if n := len(raw.String()) - written; n > 96 {
			t.Errorf("at %s: a second wrote %d bytes (%q), want the time's cells only", now.Sub(start), n, raw.String()[written:])
		}
	}

	scr.set(v, rows, ui.HeaderTime{})
	scr.sync()
	scr.second(start.Add(10 * time.Second))
	scr.mu.Lock()
	woken := scr.movedRow != ""
	scr.mu.Unlock()
	if woken {
		t.Error("a frame with no time to move was woken by the hand")
	}
}

// writers writes to each of its writers in turn.
type writers []interface{ Write([]byte) (int, error) }

func (ws writers) Write(p []byte) (int, error) {
	for _, w := range ws {
		w.Write(p) //nolint:errcheck // the test's own buffers
	}
	return len(p), nil
}

// TestSittingSessionsTimeMoves: over SSH, the time played of a session
// sitting on a game moves on each second, every second shown in turn,
// drawn by the server's second hand from the header time the game hands
// its screen (the game wakes at its minute: ui's tests); the screen leaves
// the hand when the session ends.
func TestSittingSessionsTimeMoves(t *testing.T) {
	ts := startServer(t, nil)
	term := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	term.waitFor(t, "Balance")
	term.press(t, "1")
	term.waitFor(t, "Time 00:03")
	ts.hand.mu.Lock()
	for scr := range ts.hand.screens {
		scr.mu.Lock()
		if scr.header == (ui.HeaderTime{}) {
			t.Error("the session's screen holds no header time to move: the game moves its own")
		}
		scr.mu.Unlock()
	}
	held := len(ts.hand.screens)
	ts.hand.mu.Unlock()
	if held != 1 {
		t.Errorf("the second hand moves %d screens, want the session's", held)
	}
	times := regexp.MustCompile(`Time (\d\d):(\d\d)`).FindAllStringSubmatch(term.screen(), -1)
	last := -1
	for _, m := range times {
		secs, _ := strconv.Atoi(m[2]) // two digits, by the pattern; the minutes stay 00
		if secs != last && secs != last+1 && last >= 0 {
			t.Errorf("the time played went from %d to %d s", last, secs)
		}
		last = secs
	}
	if last != 3 {
		t.Errorf("the last time shown: %d s, want 3", last)
	}
	term.press(t, "q")
	if status := term.exit(t); status != 0 {
		t.Errorf("quitting: exit status %d", status)
	}
	waitUntil(t, "the session's screen to leave the second hand", func() bool {
		ts.hand.mu.Lock()
		defer ts.hand.mu.Unlock()
		return len(ts.hand.screens) == 0
	})
}

// TestScreenDrawsAFrameAtItsSecond: a frame made before a second and
// drawn after it (its writer busy, the hand's second taken with it) shows
// the second it is drawn in, not the one it was made in.
func TestScreenDrawsAFrameAtItsSecond(t *testing.T) {
	start := time.Date(2026, 12, 7, 18, 0, 0, 300e6, time.UTC)
	m, _ := sittingModel(t, start)
	emu := newDrawn(100, 30)
	scr := newScreen(emu, 100, 30, colorprofile.TrueColor, &styleMemo{}, nil, nil)
	defer scr.close()
	scr.clock = func() time.Time { return start.Add(3500 * time.Millisecond) } // before the first frame: set orders it
	v, rows := m.Lines()
	if !strings.Contains(ansi.Strip(rows[0]), "Time 00:00") {
		t.Fatalf("the frame made at the start: %q", ansi.Strip(rows[0]))
	}
	scr.set(v, rows, m.HeaderTime())
	scr.sync()
	first, _, _ := strings.Cut(emu.shown(), "\n")
	if want := "Time 00:02"; !strings.HasSuffix(strings.TrimRight(first, " "), want) {
		t.Errorf("the frame drawn 3.5 s after it was made (18:00:03.8): %q, want %q", strings.TrimRight(first, " "), want)
	}
}
