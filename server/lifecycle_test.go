package server

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2/recover"
	"charm.land/wish/v2/testsession"
	"github.com/charmbracelet/colorprofile"

	"tapis/board"
	"tapis/store"
)

// panicOpen is a kind whose model's construction panics, once its place
// is claimed.
type panicOpen struct{ sessionKind }

func (panicOpen) open() (tea.Model, *refusal) { panic("the model's construction panics") }

// panicWatch is a player whose game opens, then panics as it starts.
type panicWatch struct{ *player }

func (panicWatch) watch(*tea.Program, <-chan struct{}) { panic("the game's watch panics") }

// panicKeys is a board whose model panics at the first key.
type panicKeys struct{ *viewer }

func (k panicKeys) open() (tea.Model, *refusal) {
	m, r := k.viewer.open()
	return panicOnKey{m}, r
}

// panicOnKey is a model that panics at the first key.
type panicOnKey struct{ tea.Model }

func (m panicOnKey) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		panic("the board panics at a key")
	}
	next, cmd := m.Model.Update(msg)
	return panicOnKey{next}, cmd
}

// panicRead is a board whose source panics: in the model's command, which
// runs on a goroutine of Bubble Tea's.
type panicRead struct{ *viewer }

func (k panicRead) open() (tea.Model, *refusal) {
	return board.New(board.Options{Lang: k.lang, Source: panicSource{}, Profile: colorprofile.Env(k.env)}), nil
}

// panicSource is a board's source that panics.
type panicSource struct{}

func (panicSource) Latest() (store.Board, bool, error) { panic("the board's source panics") }

// TestPanicEndsOnlyItsSession: a panic in a session's model, a board's
// (in its update or its command) or in the construction of a player's
// game or a board, ends that session alone: its place is given back, the
// log says so, a player playing meanwhile plays on and the server takes
// more.
func TestPanicEndsOnlyItsSession(t *testing.T) {
	ts := startServer(t, nil)
	game := open(t, ts.dial(t, newKey(t)), 100, 30, nil, "")
	game.waitFor(t, "Choose a game")
	for _, c := range []struct {
		name string
		kind func(l *lifecycle) sessionKind
		keys string
		log  string
	}{
		{"board's construction", func(l *lifecycle) sessionKind { return panicOpen{&viewer{lifecycle: l}} }, "",
			"the model's construction panics"},
		{"player's construction", func(l *lifecycle) sessionKind {
			return panicOpen{&player{lifecycle: l, account: "panicky", guest: true}}
		}, "", "the model's construction panics"},
		{"board's update", func(l *lifecycle) sessionKind { return panicKeys{&viewer{lifecycle: l}} }, "x",
			"the board stopped"},
		{"board's command", func(l *lifecycle) sessionKind { return panicRead{&viewer{lifecycle: l}} }, "",
			"the board stopped"},
		{"player's start", func(l *lifecycle) sessionKind {
			return panicWatch{&player{lifecycle: l, account: "leaky"}}
		}, "", "the game's watch panics"},
	} {
		t.Run(c.name, func(t *testing.T) {
			kindOf := func(l *lifecycle, sess ssh.Session) (sessionKind, *refusal) {
				l.logger = ts.Server.log.With("case", c.name)
				return c.kind(l), nil
			}
			srv := &ssh.Server{
				Handler:         recover.MiddlewareWithLogger(panicLog{ts.Server.log})(func(sess ssh.Session) { ts.serve(sess, kindOf) }),
				ChannelHandlers: map[string]ssh.ChannelHandler{"session": ts.sessionChannel},
			}
			term := termOn(t, testsession.New(t, srv, nil), "xterm-256color", 80, 24, nil, "board")
			if c.keys != "" {
				term.waitFor(t, "live board")
				term.press(t, c.keys)
			}
			term.exit(t)
			waitUntil(t, "the session's place given back", func() bool { return ts.Watching() == 0 && ts.Playing() == 1 })
			waitUntil(t, "the panic in the log", func() bool { return strings.Contains(ts.log.String(), c.log) })
			if strings.Contains(c.log, "stopped") { // Bubble Tea caught it: the session ends as an error
				waitUntil(t, "the session's log line", func() bool { return logLine(ts, c.name, "watched the board") != "" })
				if got := logLine(ts, c.name, "watched the board"); !strings.Contains(got, "end=error") {
					t.Errorf("the session's log line: %s", got)
				}
			}
		})
	}
	// The game that opened, then panicked, let its account go.
	lease, err := ts.store.Hold(context.Background(), "leaky")
	if err != nil {
		t.Fatalf("the account of a game that panicked as it started: %v", err)
	}
	lease.Release()
	board := open(t, ts.dial(t, nil), 80, 24, nil, "board")
	board.waitFor(t, "live board")
	board.press(t, "q")
	board.exit(t)
	game.press(t, "q")
	if status := game.exit(t); status != 0 {
		t.Errorf("the player quitting: exit status %d", status)
	}
	waitUntil(t, "the player's log line", func() bool { return strings.Contains(ts.log.String(), "end=quit") })
}

// logLine returns the line of the log of the case named, with msg.
func logLine(ts *testServer, name, msg string) string {
	for l := range strings.Lines(ts.log.String()) {
		if strings.Contains(l, msg) && strings.Contains(l, `case="`+name+`"`) {
			return l
		}
	}
	return ""
}
