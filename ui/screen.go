package ui

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"tapis/game/lottery"
)

// screen is one screen of the game. It owns its state, handles its own
// messages (keys, clicks, its ticks), lays itself out as named layers that
// serve both the picture and the mouse, and names its keys for the help.
// The layers it returns may be the memo's, or the screen's own array that
// its next call fills again: the caller copies them out at once and never
// appends to them.
type screen interface {
	update(msg tea.Msg) tea.Cmd
	layers(body area) []layer
	keyMap() keyMap
}

// What some screens do beyond a screen's three methods, that the root
// asks of whichever screen is on show.
type (
	// opener starts again each time it is opened.
	opener interface{ opened() }
	// escaper closes something of its own on esc, and reports whether it
	// did: the root then stays.
	escaper interface{ escape() bool }
	// headed writes the header's right side itself.
	headed interface{ header() string }
)

// gameScreen is a game's screen as the root, the till and the demo see
// it: what it holds, and how to buy and reveal there.
type gameScreen interface {
	screen
	game() lottery.Game
	stake() decimal.Decimal // the stake a purchase pays now
	setStake(decimal.Decimal)
	unit() *lottery.Sold // the unit on screen, shown or not; nil before the first
	revealing() bool     // a unit is bought and not all shown
	buying() bool        // a purchase is under way
	play(auto bool) tea.Cmd
	salesResumed()      // the refusal a pause gave goes (slot.salesResumed)
	revealAll() tea.Cmd // reveals all that is left, animated
	// revealStep reveals a little more at a pace people can follow (the
	// demo), and says how long to leave it on screen.
	revealStep() (tea.Cmd, time.Duration)
	take(sold *lottery.Sold, n note) // puts a unit on screen, covered
	reset()                          // a fresh wallet: nothing on screen
	// shownNow returns the unit on screen the first time it is seen fully
	// revealed, then nil.
	shownNow() *lottery.Sold
}

// nav is where the player is: the screen, and the screens History, Rules,
// Help and Stats were opened from (esc returns there).
type nav struct {
	screen Screen
	backs  []Screen
	opened func(Screen) // called when a screen is opened or gone to
}

// open shows History, Rules, Help or Stats over the current screen. A
// screen already open under it is gone back to: esc never walks a loop.
func (n *nav) open(s Screen) {
	if i := slices.Index(n.backs, s); i >= 0 {
		n.backs = n.backs[:i]
	} else if n.screen != s {
		n.backs = append(n.backs, n.screen)
	}
	n.screen = s
	n.opened(s)
}

// back returns to the screen the current one was opened from.
func (n *nav) back() {
	k := len(n.backs)
	if k == 0 {
		n.screen = MenuScreen
		return
	}
	n.screen, n.backs = n.backs[k-1], n.backs[:k-1]
}

// from returns the screen the current one was opened from.
func (n *nav) from() Screen {
	if k := len(n.backs); k > 0 {
		return n.backs[k-1]
	}
	return MenuScreen
}

// goTo shows a screen of its own (the menu, a game): nothing to return to.
func (n *nav) goTo(s Screen) {
	n.screen, n.backs = s, nil
	n.opened(s)
}

// overlay reports whether a screen is opened over another.
func overlay(s Screen) bool {
	return s == HelpScreen || s == HistoryScreen || s == RulesScreen || s == StatsScreen
}
