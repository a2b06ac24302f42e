package ui

import "charm.land/bubbles/v2/key"

// globalKeys work on every screen.
type globalKeys struct {
	Quit, Interrupt, Suspend, Help, Menu, Back, History, Stats, Force key.Binding
}

// menuKeys move through the menu.
type menuKeys struct {
	Up, Down, Choose, Number key.Binding
}

// yamsKeys play « Yam's ! ».
type yamsKeys struct {
	Stake, Left, Right, Play, Auto, Roll key.Binding
}

// vegasKeys play « Vegas ».
type vegasKeys struct {
	Buy, Choose, Surface, Next, Scratch, All key.Binding
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

// keys is every key map, with help written in the screen's language.
type keys struct {
	global globalKeys
	menu   menuKeys
	yams   yamsKeys
	vegas  vegasKeys
	list   listKeys
	replay replayKeys
}

func newKeys(t text) keys {
	b := func(label, desc string, ks ...string) key.Binding {
		return key.NewBinding(key.WithKeys(ks...), key.WithHelp(label, t.get(desc)))
	}
	// The names of keys the help writes in the screen's language.
	enter, space, esc := t.get("key.enter"), t.get("key.space"), t.get("key.esc")
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
			Up:     b("↑/↓", "k.move", "up", "k"),
			Down:   b("↓", "k.move", "down", "j"),
			Choose: b(enter, "k.choose", "enter"),
			Number: b("1-6", "k.open", "1", "2", "3", "4", "5", "6"),
		},
		yams: yamsKeys{
			Stake: b("←→", "k.stake", "left", "right"),
			Left:  b("←", "k.stake", "left"),
			Right: b("→", "k.stake", "right"),
			Play:  b(enter, "k.play", "enter"),
			Auto:  b("a", "k.auto", "a"),
			Roll:  b("1 2 3", "k.roll", "1", "2", "3"),
		},
		vegas: vegasKeys{
			Buy:     b(enter, "k.buy", "enter"),
			Choose:  b("1-4/tab", "k.surface", "1", "2", "3", "4", "tab"),
			Surface: b("1-4", "k.surface", "1", "2", "3", "4"),
			Next:    b("tab", "k.surface", "tab"),
			Scratch: b(space, "k.scratch", "space"),
			All:     b("a", "k.scratchall", "a"),
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
		replay: replayKeys{
			Next:  b("→/↓/n/"+space, "k.next", "right", "down", "n", "space", "enter", "pgdown"),
			Prev:  b("←/↑/p", "k.prev", "left", "up", "p", "pgup"),
			First: b("home", "k.first", "home"),
			Last:  b("end", "k.last", "end"),
			Page:  b("←/→", "k.page", "left", "right"),
		},
	}
}

// keyMap is a screen's bindings, read by the help bubble.
type keyMap struct {
	short []key.Binding
	full  [][]key.Binding
}

// ShortHelp returns the bindings of the bottom line.
func (k keyMap) ShortHelp() []key.Binding { return k.short }

// FullHelp returns the bindings of the help screen, by column.
func (k keyMap) FullHelp() [][]key.Binding { return k.full }
