package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
)

// globalKeys work on every screen.
type globalKeys struct {
	Quit, Interrupt, Suspend, Help, Menu, Back, History, Stats, Force key.Binding
}

// menuKeys move through the menu.
type menuKeys struct {
	Up, Down, Choose, Number key.Binding
	Entries                  [6]key.Binding // 1 to 6: Number is them all
}

// yamsKeys play « Yam's ! ».
type yamsKeys struct {
	Stake, Left, Right, Play, Auto, Roll key.Binding
	Speed                                key.Binding    // v: the reveals' pace, slow, normal, fast
	Cups                                 [3]key.Binding // 1, 2, 3: Roll is them all
}

// vegasKeys play « Vegas ».
type vegasKeys struct {
	Buy, Choose, Surface, Next, Scratch, All key.Binding
	Speed                                    key.Binding    // v: the reveals' pace, slow, normal, fast
	Surfaces                                 [4]key.Binding // 1 to 4: Surface is them all
}

// listKeys move through the history, and scroll the rules and the help.
type listKeys struct {
	Up, Down, PageUp, PageDown, Home, End, Show, Switch key.Binding

	// Scroll is ↑↓ and the pages at once, for the bottom line.
	Scroll key.Binding
}

// replayKeys move through the layouts of tapis replay.
type replayKeys struct {
	Next, Prev, First, Last, Page key.Binding
}

// statsKeys move through the games and stakes of the stats screen.
type statsKeys struct {
	Next, Prev key.Binding
}

// qaKeys work in the QA forcing panel. Each pair shares its keys' help:
// the first of the two says it for both.
type qaKeys struct {
	PrevLot, NextLot     key.Binding // ↑↓: the lot, in Lot and Surfaces
	PrevSplit, NextSplit key.Binding // ←→: the split of the lot, in Surfaces
	PrevCup, NextCup     key.Binding // ←→: the cup, in Combinations
	NextCombo, PrevCombo key.Binding // ↑↓: the cup's combination
	Force, Load          key.Binding // enter: set the force, or read the file
	Mode, Close, Stop    key.Binding // tab, esc (Stop while a file is read)
}

// keys is every key map, with help written in the screen's language.
type keys struct {
	global globalKeys
	menu   menuKeys
	yams   yamsKeys
	vegas  vegasKeys
	list   listKeys
	replay replayKeys
	stats  statsKeys
	qa     qaKeys
	field  textinput.KeyMap // the QA panel's fields
}

func newKeys(t text) keys {
	b := func(label, desc string, ks ...string) key.Binding {
		return key.NewBinding(key.WithKeys(ks...), key.WithHelp(label, t.get(desc)))
	}
	// The names of keys the help writes in the screen's language.
	enter, space, esc := t.get("key.enter"), t.get("key.space"), t.get("key.esc")
	entries := [6]key.Binding{b("1", "k.open", "1"), b("2", "k.open", "2"), b("3", "k.open", "3"),
		b("4", "k.open", "4"), b("5", "k.open", "5"), b("6", "k.open", "6")}
	cups := [3]key.Binding{b("1", "k.roll", "1"), b("2", "k.roll", "2"), b("3", "k.roll", "3")}
	surfaces := [4]key.Binding{b("1", "k.surface", "1"), b("2", "k.surface", "2"),
		b("3", "k.surface", "3"), b("4", "k.surface", "4")}
	next := b("tab", "k.surface", "tab")
	return keys{
		global: globalKeys{
			Quit:      b("q", "k.quit", "q"),
			Interrupt: b("ctrl+c", "k.interrupt", "ctrl+c"),
			Suspend:   b("ctrl+z", "k.suspend", "ctrl+z"),
			Help:      b("?", "k.help", "?"),
			Menu:      b(esc, "k.menu", "esc"),
			Back:      b(esc, "k.back", "esc"),
			History:   b("h", "k.history", "h"),
			Stats:     b("s", "k.stats", "s"),
			Force:     b("f", "k.force", "f"),
		},
		menu: menuKeys{
			Up:      b("↑/↓", "k.move", "up", "k"),
			Down:    b("↓", "k.move", "down", "j"),
			Choose:  b(enter, "k.choose", "enter"),
			Number:  group("1-6", t.get("k.open"), entries[:]...),
			Entries: entries,
		},
		yams: yamsKeys{
			Stake: b("←→", "k.stake", "left", "right"),
			Left:  b("←", "k.stake", "left"),
			Right: b("→", "k.stake", "right"),
			Play:  b(enter, "k.play", "enter"),
			Auto:  b("a", "k.auto", "a"),
			Roll:  group("1 2 3", t.get("k.roll"), cups[:]...),
			Cups:  cups,
			Speed: b("v", "k.speed", "v"),
		},
		vegas: vegasKeys{
			Buy:      b(enter, "k.buy", "enter"),
			Choose:   group("1-4/tab", t.get("k.surface"), append(surfaces[:], next)...),
			Surface:  group("1-4", t.get("k.surface"), surfaces[:]...),
			Surfaces: surfaces,
			Next:     next,
			Scratch:  b(space, "k.scratch", "space"),
			All:      b("a", "k.scratchall", "a"),
			Speed:    b("v", "k.speed", "v"),
		},
		list: listKeys{
			Up:       b("↑/↓", "k.scroll", "up", "k"),
			Down:     b("↓", "k.scroll", "down", "j"),
			PageUp:   b("pgup/pgdn", "k.pages", "pgup"),
			PageDown: b("pgdn", "k.pages", "pgdown"),
			Home:     b("home/end", "k.ends", "home"),
			End:      b("end", "k.ends", "end"),
			Show:     b(enter, "k.show", "enter"),
			Switch:   b("tab", "k.switch", "tab"),
			Scroll:   b("↑/↓/pgup/pgdn", "k.scroll", "up", "k", "down", "j", "pgup", "pgdown"),
		},
		stats: statsKeys{
			Next: b("tab/→", "k.nextseq", "tab", "right"),
			Prev: b("←", "k.prevseq", "shift+tab", "left"),
		},
		replay: replayKeys{
			Next:  b("→/↓/n/"+space, "k.next", "right", "down", "n", "space", "enter", "pgdown"),
			Prev:  b("←/↑/p", "k.prev", "left", "up", "p", "pgup"),
			First: b("home", "k.first", "home"),
			Last:  b("end", "k.last", "end"),
			Page:  b("←/→", "k.page", "left", "right"),
		},
		qa: qaKeys{
			PrevLot:   b("↑/↓", "k.qa.lot", "up"),
			NextLot:   b("↓", "k.qa.lot", "down"),
			PrevSplit: b("←/→", "k.qa.split", "left"),
			NextSplit: b("→", "k.qa.split", "right"),
			PrevCup:   b("←/→", "k.qa.cup", "left"),
			NextCup:   b("→", "k.qa.cup", "right"),
			NextCombo: b("↑/↓", "k.qa.combo", "up"),
			PrevCombo: b("↓", "k.qa.combo", "down"),
			Force:     b(enter, "k.qa.force", "enter"),
			Load:      b(enter, "k.qa.load", "enter"),
			Mode:      b("tab", "k.qa.mode", "tab"),
			Close:     b(esc, "k.qa.close", "esc"),
			Stop:      b(esc, "k.qa.stop", "esc"),
		},
		field: fieldKeys(b),
	}
}

// fieldKeys are the editing keys of a text field, as bubbles/textinput has
// them, with help for those the QA panel shows. ctrl+v, which would read
// the clipboard of the machine the game runs on, is off: the terminal's
// own paste (bracketed) reaches the field as a paste.
func fieldKeys(b func(label, desc string, ks ...string) key.Binding) textinput.KeyMap {
	k := textinput.DefaultKeyMap()
	k.CharacterBackward = b("←/→", "k.field.move", k.CharacterBackward.Keys()...)
	k.CharacterForward = b("→", "k.field.move", k.CharacterForward.Keys()...)
	k.LineStart = b("home/end", "k.field.ends", k.LineStart.Keys()...)
	k.LineEnd = b("end", "k.field.ends", k.LineEnd.Keys()...)
	k.DeleteWordBackward = b("ctrl+w", "k.field.word", k.DeleteWordBackward.Keys()...)
	k.DeleteBeforeCursor = b("ctrl+u", "k.field.clear", k.DeleteBeforeCursor.Keys()...)
	k.DeleteAfterCursor = b("ctrl+k", "k.field.cut", k.DeleteAfterCursor.Keys()...)
	k.Paste.SetEnabled(false)
	return k
}

// group returns one binding for the keys of several, for the help: the
// screen matches each of them on its own, and the help says them at once.
func group(label, desc string, bs ...key.Binding) key.Binding {
	var ks []string
	for _, b := range bs {
		ks = append(ks, b.Keys()...)
	}
	return key.NewBinding(key.WithKeys(ks...), key.WithHelp(label, desc))
}

// bindingsKey names what the help bubble draws of bindings: the keys and
// descriptions of those enabled, for the memo of drawings.
func bindingsKey(groups ...[]key.Binding) string {
	var sb strings.Builder
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() {
				sb.WriteString(b.Help().Key + "\x00" + b.Help().Desc + "\x00")
			}
		}
		sb.WriteByte('\x01')
	}
	return sb.String()
}

// keyMap is a screen's bindings, read by the help bubble. Those of
// keyMapOf are shared from frame to frame: nothing changes them.
type keyMap struct {
	short []key.Binding
	full  [][]key.Binding
	// bindingsKey of short and of full, once keyMapOf built them.
	name, fullName string
}

// keyMapKey names a screen's bindings in one state: the screen, and which
// of what its bottom line says is true now, as bits (states).
type keyMapKey struct {
	s  Screen
	on uint32
}

// states packs what a screen's bindings depend on into a keyMapKey's bits.
func states(bs ...bool) uint32 {
	var on uint32
	for i, b := range bs {
		if b {
			on |= 1 << i
		}
	}
	return on
}

// keyMapOf returns a screen's bindings in a state, built once for the
// session: the bottom line asks for them on every frame. A screen has a
// few states (the keys' language, the kiosk and QA modes are the
// session's), so that keyMaps stays small.
func (c *common) keyMapOf(k keyMapKey, build func() keyMap) keyMap {
	if km, ok := c.keyMaps[k]; ok {
		return km
	}
	km := build()
	km.name, km.fullName = bindingsKey(km.short), bindingsKey(km.full...)
	c.keyMaps[k] = km
	return km
}

// ShortHelp returns the bindings of the bottom line.
func (k keyMap) ShortHelp() []key.Binding { return k.short }

// FullHelp returns the bindings of the help screen, by column.
func (k keyMap) FullHelp() [][]key.Binding { return k.full }
