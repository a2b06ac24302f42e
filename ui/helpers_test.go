package ui

import (
	"tapis/game"

	"flag"
	"image"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"tapis/session"
	"tapis/store"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
)

// update is -update, which rewrites the golden files. teatest's golden
// package defines the same flag, with the same meaning, when it is linked.
var update = func() *bool {
	if flag.Lookup("update") != nil {
		return nil
	}
	return flag.Bool("update", false, "rewrite the golden files")
}()

// updating reports whether -update was given.
func updating() bool {
	if update != nil {
		return *update
	}
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// testClock is a clock the test moves by hand. The animations' ticks it
// is asked for wait in its queue until the test delivers them.
type testClock struct {
	mu    sync.Mutex
	t     time.Time
	queue []tea.Msg
	// demoWait is the wait the attract loop last asked before its next
	// step.
	demoWait time.Duration
	// clockWait and clockAsked are the last wait asked for the header's
	// time (clockMsg), and its message.
	clockWait  time.Duration
	clockAsked clockMsg
}

func newTestClock() *testClock { return &testClock{t: fixedTime} }

// fixedTime is when every test's session starts.
var fixedTime = time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// scheduled is a tick asked of the test clock.
type scheduled struct{ msg tea.Msg }

func (c *testClock) After(d time.Duration, msg tea.Msg) tea.Cmd {
	c.mu.Lock()
	switch msg := msg.(type) {
	case demoTickMsg:
		c.demoWait = d
	case clockMsg:
		c.clockWait, c.clockAsked = d, msg
	}
	c.mu.Unlock()
	return func() tea.Msg { return scheduled{msg} }
}

// take removes the queued ticks that keep reports true, in order.
func (c *testClock) take(keep func(tea.Msg) bool) []tea.Msg {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out, rest []tea.Msg
	for _, msg := range c.queue {
		if keep(msg) {
			out = append(out, msg)
		} else {
			rest = append(rest, msg)
		}
	}
	c.queue = rest
	return out
}

// clockOf returns the test clock a model was made with.
func clockOf(m *Model) *testClock { return m.clock.(*testClock) }

// newModel returns a session seeded with 42, sized w×h.
func newModel(t testing.TB, lang Lang, start Screen, w, h int) *Model {
	t.Helper()
	return open(t, Options{Lang: lang, Balance: decimal.NewFromInt(100), Start: start}, w, h, session.Options{Seed: game.SeedFrom(42)})
}

// open returns a model of the options on a test clock, sized w×h, on a
// session opened as newOn opens it.
func open(t testing.TB, o Options, w, h int, so ...session.Options) *Model {
	t.Helper()
	m, err := newOn(o, so...)
	if err != nil {
		t.Fatal(err)
	}
	send(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// send gives the model a message as the program would, and runs what it
// asks: purchases and journal records at once, ticks into the clock's
// queue. It returns a command giving what else the model asked (quit,
// suspend, a file read), already done.
func send(m *Model, msg tea.Msg) tea.Cmd {
	_, cmd := m.Update(msg)
	return run(m, cmd)
}

// run runs a command as the program would (see send).
func run(m *Model, cmd tea.Cmd) tea.Cmd {
	var rest []tea.Msg
	var do func(cmd tea.Cmd)
	do = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch msg := cmd().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				do(c)
			}
		case scheduled:
			c := clockOf(m)
			c.mu.Lock()
			c.queue = append(c.queue, msg.msg)
			c.mu.Unlock()
		case boughtMsg, shownMsg, blocksMsg:
			_, next := m.Update(msg)
			do(next)
		default:
			rest = append(rest, msg)
		}
	}
	do(cmd)
	switch len(rest) {
	case 0:
		return nil
	case 1:
		return func() tea.Msg { return rest[0] }
	}
	var cmds tea.BatchMsg
	for _, msg := range rest {
		cmds = append(cmds, func() tea.Msg { return msg })
	}
	return func() tea.Msg { return cmds }
}

// keyMsg builds the message of a key as Bubble Tea reads it.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+z":
		return tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}
	case "ctrl+w":
		return tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// press sends keys to the model (see send) and returns what the last one
// asked beyond the game.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = send(m, keyMsg(k))
	}
	return cmd
}

// animation reports whether a tick moves a unit's reveal.
func animation(msg tea.Msg) bool {
	switch msg.(type) {
	case cupTickMsg, scratchTickMsg:
		return true
	}
	return false
}

// settle runs the animations to their end by delivering the ticks they
// asked for, without waiting. The attract loop and the clock wait.
func settle(m *Model) {
	for range 1000 {
		ticks := clockOf(m).take(animation)
		if len(ticks) == 0 {
			return
		}
		for _, t := range ticks {
			send(m, t)
		}
	}
}

// step delivers the attract loop's next tick, and reports whether there
// was one.
func step(m *Model) bool {
	ticks := clockOf(m).take(func(msg tea.Msg) bool { _, ok := msg.(demoTickMsg); return ok })
	for _, t := range ticks {
		send(m, t)
	}
	return len(ticks) > 0
}

// plain returns what the terminal shows, without colours.
func plain(m *Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// golden compares got with testdata/golden/name.txt; -update rewrites it.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update to write it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from %s (go test ./ui -update rewrites it):\n%s", name, path, got)
	}
}

// find returns a cell inside the layer named id, by asking the same layers
// the view draws: the tests click where a player would.
func find(t *testing.T, m *Model, id string) (int, int) {
	t.Helper()
	b := bounds(t, m, id)
	return b.Min.X + b.Dx()/2, b.Min.Y + b.Dy()/2
}

// bounds returns where the layer named id is drawn, as the mouse finds
// it on the layers the view paints.
func bounds(t *testing.T, m *Model, id string) image.Rectangle {
	t.Helper()
	layers := m.layers()
	for y := range m.height {
		for x := range m.width {
			if l, ok := hit(layers, x, y); ok && l.id.String() == id {
				return image.Rect(l.x, l.y, l.x+l.d.w, l.y+l.d.height())
			}
		}
	}
	t.Fatalf("no layer %q on screen:\n%s", id, plain(m))
	return image.Rectangle{}
}

func click(m *Model, x, y int) tea.Cmd {
	return send(m, tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
}

func sizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// clickOn clicks in the middle of the layer named id.
func clickOn(t *testing.T, m *Model, id string) tea.Cmd {
	t.Helper()
	x, y := find(t, m, id)
	return click(m, x, y)
}

// newOn returns New's model on a test clock, unless o has a clock, and on
// the session so opens (in memory when there is none), which starts from
// o's balance, in QA mode with o, and tells o's clock's time.
func newOn(o Options, so ...session.Options) (*Model, error) {
	if o.Clock == nil {
		o.Clock = newTestClock()
	}
	var s session.Options
	if len(so) > 0 {
		s = so[0]
	}
	if s.Balance.IsZero() {
		s.Balance = o.Balance
	}
	s.QA = s.QA || o.QA
	s.Now, s.Limit = o.Clock.Now, HistoryLimit
	sess, err := session.Open(s)
	if err != nil {
		return nil, err
	}
	return New(sess, o), nil
}

// newOnStore is newOn on a store the caller opened, for an account.
func newOnStore(o Options, st store.Store, account string) (*Model, error) {
	if o.Clock == nil {
		o.Clock = newTestClock()
	}
	sess, err := session.OpenOn(st, account, session.Options{Balance: o.Balance, QA: o.QA, Now: o.Clock.Now, Limit: HistoryLimit})
	if err != nil {
		return nil, err
	}
	return New(sess, o), nil
}

// mustReplay returns NewReplay's model.
func mustReplay(t testing.TB, entries []lottery.Entry, lang Lang, invalid int, leftOut bool) *Model {
	t.Helper()
	m, err := NewReplay(entries, lang, invalid, leftOut)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// forget drops what the session keeps from frame to frame (the memo, the
// drawings kept, the last frame), as a screen's first frame finds it. The
// drawings the process shares stay.
func (m *Model) forget() {
	m.memo.reset()
	m.kept = keptDrawings{}
	m.paint = painter{}
}
