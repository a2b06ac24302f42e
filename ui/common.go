package ui

import (
	"math/rand/v2"
	"strconv"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tapis/game"
	"tapis/store"
)

// common is what every screen shares: the text and keys in the player's
// language, the look, the drawings, the clock, the window's size, where
// the player is among the screens, and the till they buy from. Each screen
// embeds a pointer to the one common of its model.
type common struct {
	t      text
	keys   keys
	st     *styles   // the look's, shared by every session
	bar    barSpans  // the header's styles, as spans
	art    *drawings // the look's, shared by every session
	help   help.Model
	memo   memoTable // what depends only on its key: drawings, a screen's layers
	kept   keptDrawings
	paint  painter // the last frame, whose rows the next one copies where they stay
	clock  Clock
	rng    *rand.Rand // animation noise only: outcomes come from the shop
	width  int
	height int
	plain  bool // no colours: what is chosen shows in reverse video
	dark   bool // the terminal's background is dark
	look   int  // counts the looks: what is kept of an older one is not shown
	kiosk  bool // the trade-show demo: a visitor never quits
	qa     bool // the QA status line and forcing panel
	nav    nav
	till   *till
	party  partyState // a big win's banner flashing, on either game
	speed  Speed      // the reveals' pace (--speed, and its key)
	remote bool       // played over SSH: the animations in fewer steps (remotePaces)
	bell   bool       // a big win rings the terminal's bell (--bell)
	// notices are shown in place of the keys' help until the next key.
	notices []note
	// keyMaps are the screens' bindings, built once for each state a
	// screen's bottom line shows (keyMapOf).
	keyMaps map[keyMapKey]keyMap
	// guest is Options.Guest: how a guest keeps an account.
	guest string
}

// tell shows a notice in place of the keys' help until the next key.
func (c *common) tell(n note) { c.notices = []note{n} }

// newCommon returns the common of a model in a language; the animations
// draw from seed.
func newCommon(o Options, seed game.Seed, clock Clock, plain bool) *common {
	t := newText(o.Lang)
	c := &common{
		t: t, keys: newKeys(t), help: help.New(), keyMaps: map[keyMapKey]keyMap{}, clock: clock,
		rng:   rand.New(seed.Stream("ui/animations")),
		kiosk: o.Demo, qa: o.QA, guest: o.Guest, dark: true, speed: o.Speed, bell: o.Bell, remote: o.Remote,
	}
	// A player over SSH cannot suspend the server's program (its ctrl+z
	// resumes at once): the help does not offer it.
	c.keys.global.Suspend.SetEnabled(!o.Remote)
	c.restyle(plain, true)
	return c
}

// restyle builds the look for a terminal without colours or with, on a
// dark background or a light one.
func (c *common) restyle(plain, dark bool) {
	c.plain, c.dark, c.look = plain, dark, c.look+1
	c.st, c.art = sharedLook(plain, dark)
	c.help.Styles = c.st.keys
	c.bar = newBarSpans(c.st)
	c.memo.reset()
	c.kept = keptDrawings{}
	c.paint = painter{}
}

// drawn returns the drawing of the text draw returns for key, drawn and
// measured once.
func drawn[K comparable](c *common, key K, draw func() string) *drawing {
	return memo(c, key, func() *drawing { return measure(draw()) })
}

// lineKey is a line of text centered in w cells.
type lineKey struct {
	w    int
	line string
}

// centerLine returns a line of text centered in w cells, cut to them with
// an ellipsis when it is wider.
func (c *common) centerLine(w int, s string) *drawing {
	return drawn(c, lineKey{w, s}, func() string { return fit(w, 1, ansi.Truncate(s, w, "…")) })
}

// Clock tells the time and schedules the animations. The real ones read
// the system's clock, and tick with Bubble Tea's commands (the local
// game's) or with timers sending to the program (TimerClock, a server's);
// a test's may stand still. A clock with a Stop method is stopped when the
// model closes.
type Clock interface {
	Now() time.Time
	// After delivers msg once d has passed: through the command it
	// returns, or, when it returns nil, by itself.
	After(d time.Duration, msg tea.Msg) tea.Cmd
}

// systemClock is the real clock. Its waits end when done is closed (the
// model closed): Bubble Tea runs each command to its end, and a wait
// would hold the whole program, its screen buffers and its model, after
// the game is over (the reality check's, 30 minutes, for every session a
// server ever had).
type systemClock struct{ done <-chan struct{} }

func (systemClock) Now() time.Time { return time.Now() }

func (c systemClock) After(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(onBeat(time.Now(), d))
		defer t.Stop()
		select {
		case <-t.C:
			return msg
		case <-c.done:
			return nil
		}
	}
}

// onBeat returns the wait from now that ends on the beat nearest to d from
// now: a whole second of the wall clock for a wait of whole seconds (the
// header's clock: every session's second then ticks at once), a multiple
// of beatFine for one of beatFine×4 or more (an animation's steps), d for
// a shorter one. A server's sessions then wake together rather than each
// at a moment of its own, and on a machine where waking costs far more
// than what is done awake (a virtual one, 0.1 ms a wake on ours), that is
// most of what an idle session costs. A wait never ends more than half a
// beat early, and a clock ticking each second shows each second once.
func onBeat(now time.Time, d time.Duration) time.Duration {
	beat := beatFine
	switch {
	case d >= time.Second && d%time.Second == 0:
		beat = time.Second
	case d < 4*beatFine:
		return d
	}
	return now.Add(d).Round(beat).Sub(now)
}

// beatFine is the beat of an animation's steps.
const beatFine = 10 * time.Millisecond

// targetKind is what a named layer is, for the mouse.
type targetKind uint8

const (
	noTarget      targetKind = iota
	menuTarget               // a menu entry, by index
	stakeTarget              // a Yam's stake chip, by index
	playTarget               // Jouer
	autoTarget               // Auto
	cupTarget                // a Yam's mat, by cup
	buyTarget                // the Vegas buy button
	surfaceTarget            // a Vegas surface
	historyTarget            // a history row, by index from the newest
	goOnTarget               // the reality check's Continue
	leaveTarget              // the reality check's Quit
	backTarget               // the bottom line's Back (a game's: Menu)
	prevTarget               // tapis replay's previous layout
	nextTarget               // tapis replay's next layout
	quitTarget               // tapis replay's Quit
	switchTarget             // the rules' other game
)

// targetNames are the layers' names, the kinds' order.
var targetNames = [...]string{"", "menu", "stake", "play", "auto", "cup", "buy", "surface", "hist", "continue", "leave",
	"back", "prev", "next", "quit", "switch"}

// target is what the mouse can hit: a kind, and which one (an index).
type target struct {
	kind targetKind
	n    int
}

// String is the layer's name: "cup:1", or "play" for the one of its kind.
func (t target) String() string {
	switch t.kind {
	case noTarget:
		return ""
	case playTarget, autoTarget, buyTarget, goOnTarget, leaveTarget, backTarget, prevTarget, nextTarget, quitTarget, switchTarget:
		return targetNames[t.kind]
	}
	return targetNames[t.kind] + ":" + strconv.Itoa(t.n)
}

// clickMsg is a press of the mouse on a named layer, or a drag over it
// with the button held: what it hit, and where from the layer's corner.
type clickMsg struct {
	target target
	x, y   int
	drag   bool
}

// releaseMsg is the mouse button let go: a drag ends.
type releaseMsg struct{}

// noteKind is what a line of a screen is about.
type noteKind uint8

const (
	noNote             noteKind = iota
	noteRecovered               // a unit of an earlier run, paid and never shown: reveal it
	noteStoreDown               // a purchase the store did not take (it did not answer, or failed): nothing bought
	noteElsewhere               // a purchase refused: the account bought elsewhere meanwhile
	noteFailed                  // a purchase the store refused for a reason of its own: nothing bought
	noteJournalFull             // a purchase the journal could not take: text is why, as the file system says it
	noteShownLost               // the journal could not record a unit as shown: text is why
	noteShownLater              // a store could not record a unit as shown now
	noteTorn                    // the journal's last record was torn: n records dropped
	noteBalance                 // --balance was given but the journal keeps its own
	noteAccountBalance          // --balance was given but the store's account keeps its own
	noteQuitAsk                 // q was pressed during a reveal: again to quit
	noteUnshown                 // a history row whose unit is still to reveal
	noteClosing                 // a purchase refused: the server is closing
	noteLossLimit               // a purchase refused by the loss limit: loss says until when
	noteTampered                // a purchase refused: the store was changed under its seller
	noteStopped                 // a purchase refused: the server stopped selling, its store changed under it
	noteSpeed                   // the speed key was pressed: the reveals' pace now
	notePaused                  // a purchase refused: the stand's host paused sales
)

// note is a line a screen shows: a kind, and what it needs to say it.
// Text from outside (an error's cause) is made printable before it gets
// here.
type note struct {
	kind noteKind
	text string
	n    int
	loss *store.LossLimitError // noteLossLimit's
	// ticket is noteLossLimit's on a game of one price (Vegas): "a
	// ticket", not "this stake".
	ticket bool
}

// refused reports whether a note says why a purchase was refused.
func (n note) refused() bool {
	return n.kind == noteStoreDown || n.kind == noteElsewhere || n.kind == noteFailed || n.kind == noteJournalFull || n.kind == noteLossLimit || n.kind == noteClosing ||
		n.kind == noteTampered || n.kind == noteStopped || n.kind == notePaused
}

// say writes a note in the screen's language.
func (c *common) say(n note) string {
	switch n.kind {
	case noteRecovered:
		return c.t.get("recovered")
	case noteStoreDown:
		return c.t.get("refused.store")
	case noteElsewhere:
		return c.t.get("refused.elsewhere")
	case noteFailed:
		return c.t.get("refused.failed")
	case noteJournalFull:
		return c.t.f("refused.journal", n.text)
	case noteShownLost:
		return c.t.f("journal.shown", n.text)
	case noteShownLater:
		return c.t.get("shown.later")
	case noteTorn:
		return c.t.f("journal.torn", n.n)
	case noteBalance:
		return c.t.get("journal.balance")
	case noteAccountBalance:
		return c.t.get("store.balance")
	case noteQuitAsk:
		switch {
		case !c.till.session.Kept(): // the history ends with the process
			return c.t.get("quit.ask.lost")
		case c.guest != "": // kept, but the account ends with the connection
			return c.t.get("quit.ask.guest")
		}
		return c.t.get("quit.ask")
	case noteUnshown:
		return c.t.get("hist.unshown")
	case noteClosing:
		return c.t.get("closing.refused")
	case noteLossLimit:
		return c.lossLimitLine(n.loss, n.ticket)
	case noteTampered:
		return c.t.get("refused.tampered")
	case noteStopped:
		return c.t.get("stopped.refused")
	case noteSpeed:
		return c.t.f("speed.now", c.t.get(speedKeys[c.speed%Speed(len(speedKeys))]))
	case notePaused:
		return c.t.get("paused.refused")
	}
	return ""
}

// The animations' ticks: each carries the generation of its animation, so
// that the ticks of one restarted or ended change nothing.
type (
	cupTickMsg     struct{ group rollGroup } // the cups that started rolling together
	scratchTickMsg struct{ gen int }         // scratching everything (« a »)
	demoTickMsg    struct{ gen int }         // the attract loop's next step
	partyTickMsg   struct{ gen int }         // a big win's banner flashing
	clockMsg       struct {                  // the header's time played, each second (or minute: armClock)
		gen       int
		countdown bool // a closing server's countdown's next number: drawn at once (Lazy)
	}
)
