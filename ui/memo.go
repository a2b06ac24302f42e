package ui

import (
	"sync"

	"github.com/shopspring/decimal"
)

// What a session keeps from frame to frame, and the drawings every session
// of the process shares.

// memoSize bounds the memo: past it, a value not used lately makes room
// for the next.
const memoSize = 128

// memo returns what make makes for key, made once: only what depends on
// nothing but its key (and the look, which empties the memo) goes through
// it. Each kind of thing memoized has a key type of its own, a comparable
// struct of what it depends on; a pointer in a key keeps what it points to
// alive, so no other value takes its address while the memo holds it.
// What changes at every step of an animation, or each second, is drawn in
// a kept slot instead (keptDrawings): the memo keeps what shows again.
// Its key's type is the function's own, so that a key found is never
// boxed into an interface (an allocation): only one put is.
func memo[K comparable, T any](c *common, key K, make func() T) T {
	if v, ok := memoGet(&c.memo, key); ok {
		return v.(T)
	}
	v := make()
	c.memo.put(key, v)
	return v
}

// memoTable holds at most memoSize values by key. Once it is full, the
// next value takes the place of one not used since the hand last passed
// it (the clock algorithm): what every frame shows is used on every frame
// and stays, so that a frame never finds the memo emptied (all of it drawn
// again at once, a cold frame).
type memoTable struct {
	index map[any]int32
	slots []memoSlot
	hand  int
}

// memoSlot is a value of the memo, and whether it was used since the hand
// last passed it.
type memoSlot struct {
	key, v any
	used   bool
}

func memoGet[K comparable](t *memoTable, key K) (any, bool) {
	i, ok := t.index[key]
	if !ok {
		return nil, false
	}
	s := &t.slots[i]
	s.used = true
	return s.v, true
}

// put adds a value the memo does not hold. A new value waits a whole turn
// of the hand before it can go: it is used on the next frame if it shows.
func (t *memoTable) put(key, v any) {
	if t.index == nil {
		t.index = make(map[any]int32, memoSize)
	}
	if len(t.slots) < memoSize {
		t.index[key] = int32(len(t.slots))
		t.slots = append(t.slots, memoSlot{key: key, v: v})
		return
	}
	for t.slots[t.hand].used {
		t.slots[t.hand].used = false
		t.hand = (t.hand + 1) % memoSize
	}
	s := &t.slots[t.hand]
	delete(t.index, s.key)
	*s = memoSlot{key: key, v: v}
	t.index[key] = int32(t.hand)
	t.hand = (t.hand + 1) % memoSize
}

// reset empties the memo: the look changed.
func (t *memoTable) reset() {
	clear(t.index)
	clear(t.slots)
	t.slots, t.hand = t.slots[:0], 0
}

// kept is a drawing kept for one place of the screen, with the key it was
// drawn for: it is drawn again only once the key changes.
type kept[K comparable] struct {
	key K
	d   *drawing
}

// get returns the drawing for key: the one kept, or the one draw makes.
func (k *kept[K]) get(key K, draw func() *drawing) *drawing {
	if k.d == nil || k.key != key {
		k.key, k.d = key, draw()
	}
	return k.d
}

// keptDrawings are the drawings that change at every step of what they
// show: each is drawn again when it changes, and kept while it does not
// (the other frames of the time: the clock's, another cup's roll), without
// filling the memo with drawings that never show again.
type keptDrawings struct {
	header   kept[headerKey]
	around   headerAround        // the header but its time, for the next second's
	timeEnd  string              // what ends the header after its time (Model.timeEnd); "" until worked out
	mats     [3]kept[matKey]     // a cup while it rolls
	surfaces [4]kept[surfaceKey] // a surface while it is scratched
	coats    [4]coatedSurface    // its rows
	party    [2]kept[partyKey]   // a big win's bands, at each frame of its celebration
}

// frameState is what a frame reads once while it is drawn: the balance the
// player has seen, which the header, the buttons and the notes all show.
// Between frames (the keys, the mouse) the session is asked each time.
type frameState struct {
	on        bool
	spendable decimal.Decimal
}

// The drawings every session of the process shares: what is drawn the
// same for every player in a look (plain or coloured, on a dark background
// or a light one) and a language. Each is made once, by the first session
// that shows it, and only read after; the keys bound them.
var (
	// looks are the styles, the dice, the cups, the ticket's drawings and
	// the grids' inks of each look, which depend on nothing else: four
	// sets. The styles alone are some 30 KB, kept by every session before.
	looks [2][2]struct {
		once sync.Once
		st   *styles
		art  *drawings
	}
	// tables are the Yam's lot tables in each language and look, lit as
	// units leave them (tableKey): 2 languages × 4 looks × (93 sets of at
	// most three combinations lit + 3 stakes × 11 rows reached or none),
	// about a thousand drawings of 1 to 2 KB at most.
	tables sync.Map
)

// tableKey is a lot table as drawn: the combinations' (lit: the
// combinations lit, as bits) or the winnings' at a stake (by its index
// among Yam's stakes), a row reached or -1; in a language and a look.
type tableKey struct {
	lang              Lang
	plain, dark, wins bool
	lit               uint16
	stakeAt, reached  int
}

// sharedTable returns the lot table of key in the session's language and
// look, drawn by draw the first time any session shows it. The session's
// memo holds it in front, so that a frame never asks the process's map.
func (c *common) sharedTable(key tableKey, draw func() string) *drawing {
	key.lang, key.plain, key.dark = c.t.lang, c.plain, c.dark
	if d, ok := tables.Load(key); ok {
		return d.(*drawing)
	}
	d, _ := tables.LoadOrStore(key, measure(draw()))
	return d.(*drawing)
}

// sharedLook returns the styles and the drawings of a look, made the
// first time. Both are only read once made.
func sharedLook(plain, dark bool) (*styles, *drawings) {
	l := &looks[b2i(plain)][b2i(dark)]
	l.once.Do(func() {
		st := newStyles(plain, dark)
		narrow, wide := newYamsArt(&st, false), newYamsArt(&st, true)
		ticket, in := newTicketArt(), newInks(&st)
		l.st = &st
		l.art = &drawings{yams: [2]*yamsArt{&narrow, &wide}, ticket: &ticket, inks: &in, letters: newLettering()}
	})
	return l.st, l.art
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
