// Package board is the live view of an emission for a room: how to join
// (the ssh command players type and a QR code of its ssh:// URL), the
// biggest wins of the day in large type (never who won them), the sales
// a minute, the players connected, and the top prizes left in the blocks
// on sale (« lots restants »), all of it only what players have seen,
// redrawn every second from a Source (a Feed polling the store). It is
// read-only: q and ctrl+c quit, nothing else acts. tapis board runs it on
// the local terminal, tapis serve for each `ssh -t HOST board`.
package board

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"tapis/store"
	"tapis/ui"
)

// Options configures a board.
type Options struct {
	Lang   ui.Lang
	Source Source
	// Profile is the terminal's colour profile, when known before the
	// program starts (an SSH session's); without colours the board draws
	// in plain text.
	Profile colorprofile.Profile
	// Location is where the times on screen are read (and the day of the
	// biggest wins starts); time.Local when nil.
	Location *time.Location
	// Join is the address players join at, always on screen with its QR
	// code; none is drawn when it is zero.
	Join Join
}

// keyMap is the board's keys: quitting only.
type keyMap struct{ Quit key.Binding }

func newKeyMap() keyMap {
	return keyMap{Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit"))}
}

// Model is the board, a Bubble Tea model.
type Model struct {
	t      text
	src    Source
	keys   keyMap
	loc    *time.Location
	st     styles
	plain  bool
	dark   bool
	width  int
	height int
	board  store.Board
	ok     bool  // a reading came
	err    error // the last poll's, if it failed
	join   Join
	qr     [][]bool // the QR code of join's URL; nil when there is none
	font   bigFont
	// stand is what the stand's host set: sales paused, an announcement.
	stand StandMsg
}

// New returns a board drawing what o.Source reads.
func New(o Options) *Model {
	m := &Model{t: newText(o.Lang), src: o.Source, keys: newKeyMap(), loc: o.Location, dark: true,
		plain: o.Profile != colorprofile.Unknown && o.Profile <= colorprofile.ASCII, join: o.Join, font: newBigFont()}
	if !o.Join.IsZero() {
		// A join address ParseJoin read always makes a code; one that
		// does not is drawn as text alone.
		m.qr, _ = qrMatrix(o.Join.URL())
	}
	if m.loc == nil {
		m.loc = time.Local
	}
	m.st = newStyles(m.plain, m.dark)
	return m
}

// frameMsg is a reading of the source, at each tick.
type frameMsg struct {
	board store.Board
	ok    bool
	err   error
}

// read reads the source: it never waits on the store.
func (m *Model) read() tea.Msg {
	b, ok, err := m.src.Latest()
	return frameMsg{b, ok, err}
}

// Init reads the source at once, and asks the terminal's background.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.read, tea.RequestBackgroundColor)
}

// Update follows the readings, the window's size and its colours; q and
// ctrl+c quit, and no other key does anything.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case frameMsg:
		m.board, m.ok, m.err = msg.board, msg.ok, msg.err
		// One chain of ticks, started by Init's reading: each frame
		// schedules the next, on the wall clock's multiples of Every, as
		// the server's sessions and its periodic work tick
		// (internal/beat).
		return m, tea.Every(Every, func(time.Time) tea.Msg { return m.read() })
	case StandMsg:
		m.stand = msg
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.ColorProfileMsg:
		if plain := msg.Profile <= colorprofile.ASCII; plain != m.plain {
			m.plain = plain
			m.st = newStyles(m.plain, m.dark)
		}
	case tea.BackgroundColorMsg:
		if dark := msg.IsDark(); dark != m.dark {
			m.dark = dark
			m.st = newStyles(m.plain, m.dark)
		}
	case tea.KeyPressMsg:
		if key.Matches(msg, m.keys.Quit) {
			return m, tea.Quit
		}
	}
	return m, nil
}

// View draws the board, full screen.
func (m *Model) View() tea.View {
	v := tea.NewView("")
	v.AltScreen = true
	v.WindowTitle = "tapis"
	if m.width > 0 && m.height > 0 {
		v.SetContent(m.render(m.width, m.height))
	}
	return v
}
