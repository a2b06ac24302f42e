package server

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"tapis/ui"
)

// screen is a session's terminal as the server drew it last: the lines of
// its last frame. It draws a frame by writing only the lines that changed
// since, each whole (a header clock's second is one line), where Bubble
// Tea's renderer would parse the whole frame into cells and compare them
// one by one: at 200 sessions that parse was two thirds of the server's
// time. Frames are handed in by the session's program (set) and written
// by a goroutine of the screen's own (run), so that a client slow to read
// holds up its own frames only, never its program; a frame handed in
// before the last one was written replaces it. Between frames, the
// server's second hand has it move the header's time played on (second).
type screen struct {
	out     io.Writer // the session's guarded output
	profile colorprofile.Profile
	styles  *styleMemo
	counted func()           // called at each frame drawn (the metrics'); nil: none
	seconds *secondHand      // moves the header's time on; nil: the frames do
	clock   func() time.Time // time.Now, a test's own

	mu       sync.Mutex
	view     tea.View      // the latest frame handed in
	rows     []string      // its rows, when handed in as rows (else its Content's lines)
	fresh    bool          // view is not drawn yet
	header   ui.HeaderTime // view's header, around its time
	movedRow string        // the header's row at the second the hand told, to draw; "" for none
	handed   int           // frames handed in
	drawn    int           // of which the last drawn was the drawn-th
	width    int
	height   int
	resized  bool // the whole screen is drawn again
	closed   bool
	wake     chan struct{} // one value: a frame or the close is waiting
	done     chan struct{} // closed once run has written its last

	// run's own, once the first frame is drawn
	started     bool
	drawnHeader ui.HeaderTime // the drawn frame's
	modes       tea.View      // the modes set: alternate screen, mouse, title
	lines       []string      // what each line of the terminal shows
	drawing     []string      // the rows of the frame being drawn, swapped with rows
	was         []cell        // a line's columns before, drawRow's
	now         []cell        // and after
	marks       [][]cellRead  // each line's marks, where reading it may begin again (rowCells)
	mk          marker        // the marks of the line being read
	buf         bytes.Buffer
}

// newScreen returns the screen of a terminal of width×height, of the given
// colour profile, writing to out, and starts its writer; seconds, when
// not nil, moves the header's time on until the screen is closed.
func newScreen(out io.Writer, width, height int, profile colorprofile.Profile, styles *styleMemo, drawn func(), seconds *secondHand) *screen {
	s := &screen{out: out, profile: profile, styles: styles, width: width, height: height, counted: drawn,
		seconds: seconds, clock: time.Now, wake: make(chan struct{}, 1), done: make(chan struct{})}
	seconds.add(s)
	go s.run()
	return s
}

// set hands in a frame: the writer draws it, or the one after it. Its
// content is rows when rows is not nil (copied: the caller's are good
// until its next frame only), else v's Content; header is its header
// around its time, for the second hand.
func (s *screen) set(v tea.View, rows []string, header ui.HeaderTime) {
	s.mu.Lock()
	if !s.closed {
		s.view, s.fresh, s.header = v, true, header
		s.rows = copyRows(s.rows, rows)
		s.handed++
	}
	s.mu.Unlock()
	s.poke()
}

// copyRows copies a frame's rows into dst's array, nil for none (a frame
// handed as its content).
func copyRows(dst, rows []string) []string {
	if rows == nil {
		return nil
	}
	return append(dst[:0], rows...)
}

// second has the writer move the header's time on to now's second, when
// the latest frame's moves (ui.HeaderTime.At).
func (s *screen) second(now time.Time) {
	s.mu.Lock()
	row, ok := s.header.At(now)
	if ok && !s.closed {
		s.movedRow = row
	}
	s.mu.Unlock()
	if ok {
		s.poke()
	}
}

// resize records the terminal's new size: the next frame is drawn whole.
func (s *screen) resize(width, height int) {
	s.mu.Lock()
	if width != s.width || height != s.height {
		s.width, s.height, s.resized = width, height, true
	}
	s.mu.Unlock()
}

// close draws the frame handed in last, if not drawn yet, then gives the
// terminal back (each mode the frames set reset) and returns once that is
// written, or the writer is stopped by its connection's close.
func (s *screen) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.poke()
	<-s.done
}

func (s *screen) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// run writes the frames handed in, the latest each time, until close.
func (s *screen) run() {
	defer close(s.done)
	defer s.seconds.remove(s)
	for range s.wake {
		s.mu.Lock()
		v, fresh, closed, n := s.view, s.fresh, s.closed, s.handed
		width, height, resized := s.width, s.height, s.resized
		movedRow := s.movedRow
		s.fresh, s.resized, s.movedRow = false, false, ""
		if fresh {
			// The rows handed in are the writer's now; set fills the
			// others next.
			s.drawing, s.rows = s.rows, s.drawing[:0]
			s.drawnHeader = s.header
		}
		s.mu.Unlock()
		switch {
		case fresh || (resized && s.started):
			// A frame made before the second it is drawn in shows the
			// time it was made at.
			if row, ok := s.drawnHeader.At(s.clock()); ok && len(s.drawing) > 0 {
				s.drawing[0] = row
			}
			s.draw(v, s.drawing, width, height, resized)
		case movedRow != "" && s.started && len(s.lines) > 0 && movedRow != s.lines[0]:
			s.drawTime(movedRow, width)
		}
		s.mu.Lock()
		s.drawn = n
		s.mu.Unlock()
		if closed {
			s.restore()
			return
		}
	}
}

// draw writes the lines of v (rows, or when rows is nil its Content's)
// that differ from what the terminal shows, all of them after a resize
// (or first). A row that stayed is the very string drawn last, equal at
// once by its address.
func (s *screen) draw(v tea.View, rows []string, width, height int, whole bool) {
	first := !s.started
	if first || !sameModes(v, s.modes) {
		s.setModes(v, first)
		s.started = true
	}
	if first || whole || len(s.lines) != height {
		s.buf.WriteString(ansi.ResetStyle + ansi.CursorHomePosition + ansi.EraseEntireScreen)
		s.lines = make([]string, height)
		s.marks = make([][]cellRead, height)
		s.mk.every = markEvery
	}
	content := v.Content
	sgr := ""
	for y := 0; y < height; y++ {
		line := ""
		switch {
		case rows != nil:
			if y < len(rows) {
				line = rows[y]
			}
		case content != "":
			line, content, _ = strings.Cut(content, "\n")
		}
		if line != s.lines[y] {
			sgr = s.drawLine(y, line, width, sgr)
		}
	}
	s.end(sgr)
}

// drawTime writes the header's row, its time moved on by the hand: the
// rows drawn last, but this one, stay as they are.
func (s *screen) drawTime(row string, width int) {
	s.end(s.drawLine(0, row, width, ""))
}

// drawLine writes what changed of line y, from the style sgr the terminal
// is in, and returns the style it leaves it in.
func (s *screen) drawLine(y int, line string, width int, sgr string) string {
	var from int
	s.was, s.now, from = rowCells(s.was, s.now, s.lines[y], line, width, s.marks[y], &s.mk)
	s.lines[y], s.marks[y] = line, append(s.marks[y][:0], s.mk.marks...)
	return drawRow(&s.buf, y, s.was, s.now, from, width, sgr, s.change)
}

// end ends a frame: the terminal's style reset from sgr, and the frame
// written.
func (s *screen) end(sgr string) {
	s.buf.WriteString(s.change(sgr, ""))
	s.flush()
	if s.counted != nil {
		s.counted()
	}
}

// change returns the SGR sequence from one style to another, in the
// session's colour profile.
func (s *screen) change(from, to string) string { return s.styles.change(from, to, s.profile) }

// setModes writes the terminal modes v asks for where they differ from
// those set, and hides the cursor at the first frame: the frames' own
// text says where the player is.
func (s *screen) setModes(v tea.View, first bool) {
	if v.AltScreen != s.modes.AltScreen {
		if v.AltScreen {
			s.buf.WriteString(ansi.SetModeAltScreenSaveCursor)
		} else {
			s.buf.WriteString(ansi.ResetModeAltScreenSaveCursor)
		}
	}
	if first {
		s.buf.WriteString(ansi.ResetModeTextCursorEnable)
	}
	if first || v.DisableBracketedPasteMode != s.modes.DisableBracketedPasteMode {
		if v.DisableBracketedPasteMode {
			s.buf.WriteString(ansi.ResetModeBracketedPaste)
		} else {
			s.buf.WriteString(ansi.SetModeBracketedPaste)
		}
	}
	if v.MouseMode != s.modes.MouseMode {
		if !first {
			s.buf.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
		}
		switch v.MouseMode {
		case tea.MouseModeCellMotion:
			s.buf.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
		case tea.MouseModeAllMotion:
			s.buf.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
		}
	}
	if first || v.WindowTitle != s.modes.WindowTitle {
		s.buf.WriteString(ansi.SetWindowTitle(v.WindowTitle))
	}
	s.modes = modesOf(v)
}

// modesOf is what setModes writes of a view: the modes a frame sets, its
// content aside. A field setModes comes to write is added here, and
// sameModes compares it: a frame that changes it alone is then handed and
// drawn (paced.handed).
func modesOf(v tea.View) tea.View {
	return tea.View{AltScreen: v.AltScreen, MouseMode: v.MouseMode, WindowTitle: v.WindowTitle,
		DisableBracketedPasteMode: v.DisableBracketedPasteMode}
}

// sameModes reports whether two views set the same modes (modesOf).
func sameModes(a, b tea.View) bool {
	return a.AltScreen == b.AltScreen && a.MouseMode == b.MouseMode && a.WindowTitle == b.WindowTitle &&
		a.DisableBracketedPasteMode == b.DisableBracketedPasteMode
}

// restore gives the terminal back as it was before the first frame: the
// cursor at the bottom, each mode the frames set reset.
func (s *screen) restore() {
	if !s.started {
		return
	}
	s.buf.WriteString(ansi.ResetStyle + ansi.CursorPosition(1, max(1, len(s.lines))))
	if s.modes.AltScreen {
		s.buf.WriteString(ansi.ResetModeAltScreenSaveCursor)
	}
	s.buf.WriteString(ansi.SetModeTextCursorEnable)
	if !s.modes.DisableBracketedPasteMode {
		s.buf.WriteString(ansi.ResetModeBracketedPaste)
	}
	if s.modes.MouseMode != tea.MouseModeNone {
		s.buf.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	}
	if s.modes.WindowTitle != "" {
		s.buf.WriteString(ansi.SetWindowTitle(""))
	}
	s.flush()
}

// flush writes what buf holds, in one write.
func (s *screen) flush() {
	if s.buf.Len() > 0 {
		s.out.Write(s.buf.Bytes()) //nolint:errcheck // a client gone reads nothing; its connection closes
	}
	s.buf.Reset()
}

// styleMemo holds the SGR sequences that turn the terminal from one of
// the frames' styles to another, in a colour profile, shared by every
// session: the styles are few, the same in every player's frames, and
// working a change out (reading both styles, turning each colour to the
// nearest of the profile's) costs far more than writing it. It forgets
// everything once it holds styleMemoSize changes, the cheapest bound that
// keeps those in use (they come back at once).
type styleMemo struct {
	mu      sync.RWMutex
	changes map[styleChange]string // a map, not a sync.Map: a key boxed in an interface is an allocation a lookup
}

type styleChange struct {
	from, to string
	profile  colorprofile.Profile
}

// styleMemoSize bounds styleMemo: a few hundred bytes each.
const styleMemoSize = 4096

// change returns the SGR sequence that turns the terminal from the style
// the sequences from set to the one to set, in profile's colours.
func (m *styleMemo) change(from, to string, profile colorprofile.Profile) string {
	k := styleChange{from, to, profile}
	m.mu.RLock()
	seq, ok := m.changes[k]
	m.mu.RUnlock()
	if ok {
		return seq
	}
	f, t := styleOf(from, profile), styleOf(to, profile)
	seq = uv.StyleDiff(&f, &t)
	m.mu.Lock()
	if m.changes == nil || len(m.changes) >= styleMemoSize {
		m.changes = make(map[styleChange]string)
	}
	m.changes[k] = seq
	m.mu.Unlock()
	return seq
}

// styleOf reads the style the SGR sequences sgr set, its colours turned to
// profile's.
func styleOf(sgr string, profile colorprofile.Profile) uv.Style {
	var st uv.Style
	p := ansi.GetParser()
	defer ansi.PutParser(p)
	var state byte
	for sgr != "" {
		p.Reset()
		_, _, n, next := ansi.DecodeSequence(sgr, state, p)
		if n <= 0 {
			break
		}
		if p.Command() == 'm' {
			uv.ReadStyle(p.Params(), &st)
		}
		sgr, state = sgr[n:], next
	}
	return uv.ConvertStyle(st, profile)
}
