package ui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	safe "tapis/text"
)

// maxField is the most characters a field of the forcing panel holds (a
// path's limit on most systems): a longer paste is cut there.
const maxField = 4096

// newField returns an empty field of the forcing panel, ready to type in:
// a bubbles/textinput with the game's editing keys (keys.field). The panel
// draws it itself (fieldView), cursor included.
func (c *common) newField() textinput.Model {
	f := textinput.New()
	f.KeyMap = c.keys.field
	f.CharLimit = maxField
	f.SetVirtualCursor(false)
	f.Focus()
	return f
}

// typing reports whether the panel's tab is a field to type in.
func (p *qaPanel) typing() bool { return p.mode == qaPoints || p.mode == qaFile }

// edit hands a key or a paste to the field. A paste is one line: its line
// breaks are dropped (the lines joined, so that a path copied with its end
// of line, or cut over two lines, comes whole), and its other control
// characters become their escapes as text.Printable writes them (ESC is
// \x1b): the field holds, and loads, exactly what it shows, where
// bubbles/textinput would drop them unseen.
func (p *qaPanel) edit(msg tea.Msg) tea.Cmd {
	if paste, ok := msg.(tea.PasteMsg); ok {
		msg = tea.PasteMsg{Content: oneLine(paste.Content)}
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return cmd
}

// oneLine returns pasted text as one line of printable characters: line
// breaks dropped, control characters escaped.
func oneLine(s string) string {
	return safe.Printable(strings.NewReplacer("\r", "", "\n", "").Replace(s))
}

// fieldView draws the field at most width cells wide (the padding around
// its text included): its text with any character a terminal would obey
// escaped, the cursor on the character it stands before (a blank cell at
// the end), and, when the text is longer than the room, the part around the
// cursor, with … where it is cut.
func (p *qaPanel) fieldView(width int) string {
	value := []rune(p.input.Value())
	pos := min(p.input.Position(), len(value))
	before, under, after := safe.Printable(string(value[:pos])), " ", ""
	if pos < len(value) {
		under, after = safe.Printable(string(value[pos])), safe.Printable(string(value[pos+1:]))
	}
	bw, aw := ansi.StringWidth(before), ansi.StringWidth(after)
	if free := width - 2 - ansi.StringWidth(under); bw+aw > free {
		// What comes before the cursor gets at least half the room, and
		// what after it leaves.
		show := min(bw, max(free/2, free-aw))
		if show < bw {
			before = ansi.TruncateLeft(before, bw-show+1, "…")
		}
		after = ansi.Truncate(after, free-ansi.StringWidth(before), "…")
	}
	return p.st.chipOn.Render(" "+before) + p.st.chip.Render(under) + p.st.chipOn.Render(after+" ")
}
