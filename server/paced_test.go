package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"tapis/ui"
)

// sizedModel draws its size, and nothing before it has one; every
// message it is given changes its frame (it counts them), but one of
// still (a key that changes nothing, as Auto ignores one while it plays).
type sizedModel struct{ w, h, n int }

// still is a message that changes nothing on the model's screen.
type still struct{}

func (m *sizedModel) Init() tea.Cmd { return nil }

func (m *sizedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case still:
		return m, nil
	}
	m.n++
	return m, nil
}

func (m *sizedModel) View() tea.View {
	if m.w == 0 {
		return tea.View{}
	}
	return tea.View{Content: strings.Repeat("menu\n", m.h-1) + fmt.Sprintf("menu %d", m.n)}
}

// waitsOf records the waits p starts, in place of the runtime's timers:
// what each would send.
func waitsOf(p *paced) *[]tea.Msg {
	var waits []tea.Msg
	p.after = func(_ time.Duration, msg tea.Msg) { waits = append(waits, msg) }
	return &waits
}

// TestPacedFirstFrameAtTheSize: Bubble Tea's first messages, the colour
// profile then the size, come microseconds apart; the first frame is
// drawn at the size, at once, not a frame's turn after a frame of nothing
// drawn for the colour profile (which put every session's menu 40 ms
// late). The next message within the turn waits for it.
func TestPacedFirstFrameAtTheSize(t *testing.T) {
	var out syncBuffer
	scr := newScreen(&out, 20, 3, colorprofile.ANSI, &styleMemo{}, nil, nil)
	p := newPaced(&sizedModel{}, scr)
	waits := waitsOf(p)
	if p.Update(tea.ColorProfileMsg{Profile: colorprofile.ANSI}); len(*waits) != 0 || p.due {
		t.Errorf("the colour profile, before the size: a frame's turn is waited for (due %v)", p.due)
	}
	handed := func() int { scr.mu.Lock(); defer scr.mu.Unlock(); return scr.handed }
	if n := handed(); n != 0 {
		t.Errorf("%d frames handed in before the model has its size, want none", n)
	}
	if p.Update(tea.WindowSizeMsg{Width: 20, Height: 3}); len(*waits) != 0 || p.due {
		t.Errorf("the size: the first frame waits for a turn (due %v), want it drawn at once", p.due)
	}
	if n := handed(); n != 1 {
		t.Errorf("%d frames handed in at the size, want 1", n)
	}
	if p.Update(tea.KeyPressMsg{Code: 'a'}); len(*waits) != 1 || (*waits)[0] != (frameDue{}) || !p.due {
		t.Errorf("a key within the first frame's turn: waits %v (due %v), want its frame at its turn", *waits, p.due)
	}
	p.end(false)
	if !strings.Contains(out.String(), "menu") {
		t.Errorf("the screen wrote %q, want the menu", out.String())
	}
}

// TestPacedNoSizeIsTheScreens: a PTY of no size (OpenSSH's -tt from a
// pipe sends 0×0) is drawn at 80×24, and the model is given that size
// too: given 0×0, it drew nothing but the modes.
func TestPacedNoSizeIsTheScreens(t *testing.T) {
	var out syncBuffer
	scr := newScreen(&out, noSizeWidth, noSizeHeight, colorprofile.ANSI, &styleMemo{}, nil, nil)
	m := &sizedModel{}
	p := newPaced(m, scr)
	p.Update(tea.WindowSizeMsg{})
	if m.w != noSizeWidth || m.h != noSizeHeight {
		t.Errorf("the model was given %dx%d, want %dx%d", m.w, m.h, noSizeWidth, noSizeHeight)
	}
	p.end(false)
	if !strings.Contains(out.String(), "menu") {
		t.Errorf("the screen wrote %q, want the menu", out.String())
	}
}

// lazyMsg stands for a lazy change, as ui.Lazy tells them.
type lazyMsg struct{}

// TestPacedLazyRidesTheNextFrame: a lazy change (the header's clock)
// within lazyWait of the last frame is not drawn in a frame of its own:
// the next message's frame draws it, and its own wait, over, draws
// nothing more; a wait armed before that frame, over, makes another lazy
// change wait lazyWait after it (never a frame right after a frame). On a
// screen at rest it is drawn at once.
func TestPacedLazyRidesTheNextFrame(t *testing.T) {
	var out syncBuffer
	scr := newScreen(&out, 20, 3, colorprofile.ANSI, &styleMemo{}, nil, nil)
	p := newPaced(&sizedModel{}, scr)
	p.isLazy = func(msg tea.Msg) bool { _, ok := msg.(lazyMsg); return ok }
	waits := waitsOf(p)
	lazyWaits := func() int {
		n := 0
		for _, w := range *waits {
			if w == (lazyDue{}) {
				n++
			}
		}
		return n
	}
	handed := func() int { scr.mu.Lock(); defer scr.mu.Unlock(); return scr.handed }
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 3})
	p.last = time.Now().Add(-2 * frameEvery) // an animation's step ago
	if p.Update(lazyMsg{}); lazyWaits() != 1 || !p.lazy {
		t.Fatal("a lazy change during an animation: no wait for the next frame")
	}
	if n := handed(); n != 1 {
		t.Fatalf("%d frames after the lazy change, want it left to the next (1)", n)
	}
	p.Update(tea.KeyPressMsg{Code: 'a'}) // the frame's turn has come: drawn at once
	if n := handed(); n != 2 {
		t.Fatalf("%d frames after the next message, want 2", n)
	}
	p.Update(lazyDue{})
	if n := handed(); n != 2 {
		t.Errorf("the lazy wait over, %d frames, want none more: the change is drawn", n)
	}
	p.last = time.Now().Add(-2 * lazyWait) // at rest
	if p.Update(lazyMsg{}); lazyWaits() != 1 || p.lazy {
		t.Error("a lazy change at rest waits, want it drawn at once")
	}
	if n := handed(); n != 3 {
		t.Errorf("%d frames after a lazy change at rest, want 3", n)
	}
	p.last = time.Now().Add(-2 * lazyWait)
	p.Update(tea.KeyPressMsg{Code: 'b'}) // a frame at once: handed 4
	p.last = time.Now().Add(-lazyWait - time.Millisecond)
	p.Update(lazyMsg{}) // at rest again: at once, handed 5
	p.last = time.Now().Add(-2 * frameEvery)
	p.Update(lazyMsg{})                  // waits: its lazyDue is armed from this last frame
	p.Update(tea.KeyPressMsg{Code: 'c'}) // drawn at once, with the lazy change: handed 6
	p.Update(lazyMsg{})                  // another, within the frame's turn
	if p.Update(lazyDue{}); lazyWaits() != 3 || !p.lazy {
		t.Error("the first lazy wait, over, drew the second change right after a frame: want it to wait again")
	}
	if n := handed(); n != 6 {
		t.Errorf("%d frames, want 6: a lazy wait armed before the last frame drew another", n)
	}
	p.last = time.Now().Add(-lazyWait)
	p.Update(lazyDue{}) // its own wait over, nothing came meanwhile: drawn
	if n := handed(); n != 7 {
		t.Errorf("%d frames after a lazy wait with nothing else, want 7", n)
	}
	p.end(false)
}

// buyingModel buys on a key, and is answered by answerMsg: it draws
// what it waits for.
type buyingModel struct {
	sizedModel
	waiting bool
}

type answerMsg struct{}

func (m *buyingModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg:
		m.waiting = true
	case answerMsg:
		m.waiting = false
	}
	m.sizedModel.Update(msg)
	return m, nil
}

func (m *buyingModel) Buying() bool { return m.waiting }

func (m *buyingModel) View() tea.View {
	if m.w == 0 {
		return tea.View{}
	}
	if m.waiting {
		return tea.View{Content: fmt.Sprintf("Buying… %d", m.n)}
	}
	return tea.View{Content: fmt.Sprintf("the unit %d", m.n)}
}

// TestPacedPurchaseAwaitsItsAnswer: the key that begins a purchase, and a
// key typed after it, draw no frame of their own on a screen at rest; the
// store's answer, a moment later, is drawn at once, and the wait, over,
// draws nothing more. An answer that takes longer than lazyWait has
// Buying… drawn then, and a key after that is drawn as any.
func TestPacedPurchaseAwaitsItsAnswer(t *testing.T) {
	var out syncBuffer
	scr := newScreen(&out, 20, 3, colorprofile.ANSI, &styleMemo{}, nil, nil)
	p := newPaced(&buyingModel{}, scr)
	var waits []tea.Msg
	var waited []time.Duration
	p.after = func(d time.Duration, msg tea.Msg) { waits, waited = append(waits, msg), append(waited, d) }
	handed := func() (int, string) {
		scr.mu.Lock()
		defer scr.mu.Unlock()
		return scr.handed, scr.view.Content
	}
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 3})
	p.last = time.Now().Add(-2 * lazyWait) // at rest
	p.Update(tea.KeyPressMsg{Code: 'a'})
	if n, _ := handed(); n != 1 || len(waits) != 1 || waits[0] != (lazyDue{}) || waited[0] != lazyWait {
		t.Fatalf("the key beginning a purchase: %d frames, waits %v of %v; want no frame, a wait of lazyWait for the answer", n, waits, waited)
	}
	p.Update(tea.KeyPressMsg{Code: '1'}) // typed ahead, microseconds later
	if n, _ := handed(); n != 1 || len(waits) != 1 {
		t.Fatalf("a key typed while the answer is awaited: %d frames, waits %v; want none more", n, waits)
	}
	p.Update(answerMsg{})
	if n, content := handed(); n != 2 || !strings.HasPrefix(content, "the unit") {
		t.Fatalf("the answer: %d frames, the last %q; want it drawn at once", n, content)
	}
	p.Update(lazyDue{})
	if n, _ := handed(); n != 2 {
		t.Errorf("the wait over after the answer was drawn: %d frames, want none more", n)
	}

	p.last = time.Now().Add(-2 * lazyWait)
	p.Update(tea.KeyPressMsg{Code: 'a'})
	if n, _ := handed(); n != 2 || !p.lazy {
		t.Fatalf("a second purchase: %d frames (waiting %v), want its answer awaited", n, p.lazy)
	}
	p.last = time.Now().Add(-2 * lazyWait) // lazyWait passed, no answer
	p.Update(lazyDue{})
	if n, content := handed(); n != 3 || !strings.HasPrefix(content, "Buying…") {
		t.Errorf("no answer within lazyWait: %d frames, the last %q; want Buying… drawn", n, content)
	}
	p.last = time.Now().Add(-frameEvery)
	p.Update(tea.KeyPressMsg{Code: '1'}) // after Buying… is drawn: a frame as any
	if n, _ := handed(); n != 4 {
		t.Errorf("a key after Buying… was drawn: %d frames, want it drawn (4)", n)
	}
	p.last = time.Now().Add(-frameEvery)
	p.Update(answerMsg{})
	if n, content := handed(); n != 5 || !strings.HasPrefix(content, "the unit") {
		t.Errorf("the late answer: %d frames, the last %q; want it drawn", n, content)
	}
	p.end(false)
}

// TestPacedHandsNoFrameThatChangedNothing: a message that changes nothing
// on the screen (a key the screen ignores, as Auto ignores one while it
// plays) hands the screen no frame, and nothing is written; the next
// change is handed and drawn as any. On tapis's own Yam's screen: keys it
// has no use for and a mouse's motion hand nothing, the speed key's
// notice is handed.
func TestPacedHandsNoFrameThatChangedNothing(t *testing.T) {
	var out syncBuffer
	scr := newScreen(&out, 20, 3, colorprofile.ANSI, &styleMemo{}, nil, nil)
	p := newPaced(&sizedModel{}, scr)
	waitsOf(p)
	handed := func(scr *screen) int { scr.mu.Lock(); defer scr.mu.Unlock(); return scr.handed }
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 3})
	scr.sync()
	written := len(out.String())
	p.last = time.Now().Add(-2 * frameEvery)
	p.Update(still{})
	scr.sync()
	if n := handed(scr); n != 1 || len(out.String()) != written {
		t.Errorf("a message that changed nothing: %d frames handed, %d bytes written; want 1 and none", n, len(out.String())-written)
	}
	p.last = time.Now().Add(-2 * frameEvery)
	p.Update(tea.KeyPressMsg{Code: 'a'})
	scr.sync()
	if n := handed(scr); n != 2 || !strings.Contains(out.String(), "menu 1") {
		t.Errorf("a change after it: %d frames handed, the screen shows %q; want 2 and menu 1", n, out.String())
	}
	p.end(false)

	p, scr, yams := pacedYams(t)
	written = len(yams.String())
	for _, msg := range []tea.Msg{tea.KeyPressMsg{Code: 'x', Text: "x"}, tea.KeyPressMsg{Code: 'z', Text: "z"}, tea.MouseMotionMsg{X: 50, Y: 28}} {
		p.last = time.Now().Add(-2 * frameEvery)
		p.Update(msg)
		scr.sync()
		if n := handed(scr); n != 1 || len(yams.String()) != written {
			t.Errorf("%v on Yam's: %d frames handed, %d bytes written; want 1 and none", msg, n, len(yams.String())-written)
		}
	}
	p.last = time.Now().Add(-2 * frameEvery)
	p.Update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	scr.sync()
	if n := handed(scr); n != 2 || len(yams.String()) == written {
		t.Errorf("the speed key on Yam's: %d frames handed, %d bytes written; want its notice handed and drawn", n, len(yams.String())-written)
	}
	p.end(false)
}

// pacedYams is tapis's Yam's screen, sitting, paced over a screen of
// 100×30 that drew its first frame.
func pacedYams(t *testing.T) (*paced, *screen, *syncBuffer) {
	m, _ := sittingModel(t, time.Date(2026, 12, 7, 18, 0, 0, 300e6, time.UTC))
	out := &syncBuffer{}
	scr := newScreen(out, 100, 30, colorprofile.TrueColor, &styleMemo{}, nil, nil)
	p := newPaced(m, scr)
	waitsOf(p)
	p.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	scr.sync()
	return p, scr, out
}

// rowsModel draws the same rows at every frame, with the header time,
// title and mouse mode its messages set: a frame that changes one of
// them alone.
type rowsModel struct {
	rows   []string
	header ui.HeaderTime
	view   tea.View
}

type setHeader struct{ h ui.HeaderTime }
type setTitle string
type setMouse tea.MouseMode

func (m *rowsModel) Init() tea.Cmd { return nil }

func (m *rowsModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case setHeader:
		m.header = msg.h
	case setTitle:
		m.view.WindowTitle = string(msg)
	case setMouse:
		m.view.MouseMode = tea.MouseMode(msg)
	}
	return m, nil
}

func (m *rowsModel) View() tea.View              { return m.view }
func (m *rowsModel) Lines() (tea.View, []string) { return m.view, m.rows }
func (m *rowsModel) HeaderTime() ui.HeaderTime   { return m.header }

// TestPacedHandsWhatChanged: a frame whose rows stay the very strings is
// handed when anything else the screen draws of it changed (its header's
// time, its title, its mouse mode), and not when nothing did; and a
// resize whose size comes back within a frame's turn (the rows the last
// frame's) is drawn whole: what the terminal lost while smaller is drawn
// again.
func TestPacedHandsWhatChanged(t *testing.T) {
	headerOf := func(start time.Time) ui.HeaderTime {
		m, _ := sittingModel(t, start)
		m.Lines()
		h := m.HeaderTime()
		if h == (ui.HeaderTime{}) {
			t.Fatal("a sitting Yam's screen gives no header time")
		}
		return h
	}
	h1, h2 := headerOf(time.Date(2026, 12, 7, 18, 0, 0, 0, time.UTC)), headerOf(time.Date(2026, 12, 7, 18, 0, 7, 0, time.UTC))
	var out syncBuffer
	scr := newScreen(&out, 20, 3, colorprofile.ANSI, &styleMemo{}, nil, nil)
	m := &rowsModel{rows: []string{"time", "cups", "foot"}, header: h1, view: tea.View{AltScreen: true}}
	p := newPaced(m, scr)
	waitsOf(p)
	handed := func() int { scr.mu.Lock(); defer scr.mu.Unlock(); return scr.handed }
	p.Update(tea.WindowSizeMsg{Width: 20, Height: 3})
	for i, c := range []struct {
		msg  tea.Msg
		want int
	}{
		{still{}, 1},
		{setHeader{h2}, 2},
		{setHeader{h2}, 2},
		{setTitle("tapis"), 3},
		{setMouse(tea.MouseModeCellMotion), 4},
		{setMouse(tea.MouseModeCellMotion), 4},
	} {
		p.last = time.Now().Add(-2 * frameEvery)
		p.Update(c.msg)
		if n := handed(); n != c.want {
			t.Errorf("message %d, %#v: %d frames handed, want %d", i, c.msg, n, c.want)
		}
	}
	p.end(false)

	p, scr, yams := pacedYams(t)
	written := len(yams.String())
	p.last = time.Now() // within the frame's turn: the sizes wait for it
	p.Update(tea.WindowSizeMsg{Width: 90, Height: 30})
	p.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	p.Update(frameDue{})
	scr.sync()
	if n, drawn := handed(), yams.String()[written:]; n != 2 || !strings.Contains(drawn, ansi.EraseEntireScreen) {
		t.Errorf("a resize gone back to the size within a frame's turn: %d frames handed, %d bytes written, erased %v; want the frame handed and drawn whole",
			n, len(drawn), strings.Contains(drawn, ansi.EraseEntireScreen))
	}
	p.end(false)
}
