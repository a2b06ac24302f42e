package server

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// cell is one column of a line as a terminal shows it: the text drawn
// there (a grapheme; "" for the second column of a wide one) and the SGR
// sequences in effect (those written since the last reset, as written:
// the frames' styles are few, each written whole after a reset).
type cell struct {
	sgr  string
	text string
}

// blank is a column with nothing drawn.
var blank = cell{text: " "}

// cellsOf appends to cells the columns a styled line shows, at most
// width of them, and returns them. It reads SGR sequences and skips every
// other escape sequence, as a frame has no other.
func cellsOf(cells []cell, line string, width int) []cell {
	cells, _ = cellsRead(cells, line, width, cellRead{}, len(line), nil)
	return cells
}

// cellRead is how far cellsRead has read a line: the byte it goes on
// from, the column, and the SGR sequences in effect.
type cellRead struct {
	i, col int
	sgr    string
}

// cellsRead is cellsOf from r on, up to the first grapheme or sequence
// that starts at stop or after it: reading a line in two calls, the first
// stopped anywhere, appends the columns one call would. With a marker, it
// also marks where the line may be read again from (marker.at).
func cellsRead(cells []cell, line string, width int, r cellRead, stop int, mk *marker) ([]cell, cellRead) {
	i, col, sgr := r.i, r.col, r.sgr
	for i < len(line) && i < stop && col < width {
		b := line[i]
		switch {
		case b == ansi.ESC:
			if mk != nil && i >= mk.next {
				mk.at(line, cellRead{i, col, sgr})
			}
			n := escapeLen(line[i:])
			seq := line[i : i+n]
			i += n
			if strings.HasSuffix(seq, "m") && strings.HasPrefix(seq, "\x1b[") {
				if seq == ansi.ResetStyle || seq == "\x1b[0m" {
					sgr = ""
				} else if sgr == "" {
					sgr = seq
				} else {
					sgr += seq
				}
			}
		case b < 0x20 || b == 0x7f: // a control: draws nothing
			i++
		case b < 0x80:
			cells = append(cells, cell{sgr, line[i : i+1]})
			col++
			i++
		default:
			if r, n := utf8.DecodeRuneInString(line[i:]); narrow(r) && (i+n == len(line) || line[i+n] < utf8.RuneSelf || narrowNext(line[i+n:])) {
				cells = append(cells, cell{sgr, line[i : i+n]})
				col++
				i += n
				continue
			}
			g, w := ansi.FirstGraphemeCluster(line[i:], ansi.WcWidth)
			i += len(g)
			if w <= 0 {
				if len(cells) > 0 { // a mark joins the column before it
					cells[len(cells)-1].text += g
				}
				continue
			}
			if col+w > width { // a wide one cut at the edge: the line ends
				return cells, cellRead{len(line), width, sgr}
			}
			cells = append(cells, cell{sgr, g})
			for range w - 1 {
				cells = append(cells, cell{sgr, ""})
			}
			col += w
		}
	}
	return cells, cellRead{i, col, sgr}
}

// wordy reports whether a column's text is a letter or a digit.
func wordy(text string) bool {
	r, _ := utf8.DecodeRuneInString(text)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// narrow reports whether r is one column wide and a grapheme of its own
// whatever comes before it: the letters, punctuation, currency signs,
// arrows, box drawings, blocks and shapes the frames are made of, read
// without the grapheme segmenter (TestNarrow holds them to it).
func narrow(r rune) bool {
	switch {
	case r >= 0xa1 && r <= 0x2ff && r != 0xad: // Latin-1 and Latin Extended, but the soft hyphen
		return true
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e: // punctuation: – • …
		return true
	case r >= 0x20a0 && r <= 0x20c0: // currency: €
		return true
	case r >= 0x2190 && r <= 0x21ff: // arrows
		return true
	case r >= 0x2500 && r <= 0x25fc: // box drawing, blocks, shapes: ─ ▐ ●
		return true
	}
	return false
}

// narrowNext reports whether s starts with a rune narrow reads: one that
// does not join the grapheme before it.
func narrowNext(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return narrow(r)
}

// escapeLen is the length of the escape sequence s starts with: a CSI's
// up to its final byte, an OSC's or a string's up to its terminator, two
// bytes for any other.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^', 'X':
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == ansi.ESC && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}

// drawRow writes to b what turns row y (from 0) from the columns was to
// the columns now, width wide: the cursor moved to the first column that
// changed, then every column up to the last that changed, styles changed
// where they change, the cursor moved past a run of unchanged columns
// where that is shorter than writing them again (a die's borders between
// its dots as they tumble) and holds no letter or digit, nor lies between
// two (the space between two words): a phrase is written whole, as whatever reads the bytes (a probe, a log of the
// session) finds it. Columns before start are the same in both (rowCells
// says). sgr is the style the terminal is in, and
// drawRow returns the one it leaves it in; change is the sequence from one
// style to another.
func drawRow(b *bytes.Buffer, y int, was, now []cell, start, width int, sgr string, change func(from, to string) string) string {
	at := func(cs []cell, x int) cell {
		if x < len(cs) {
			return cs[x]
		}
		return blank
	}
	first, last := -1, -1
	for x := start; x < width; x++ {
		if at(was, x) != at(now, x) {
			if first < 0 {
				first = x
			}
			last = x
		}
	}
	if first < 0 {
		return sgr
	}
	if at(now, first).text == "" && first > 0 { // the second column of a wide one
		first--
	}
	for last+1 < width && at(now, last+1).text == "" { // the whole of a wide one
		last++
	}
	putCursorPosition(b, first+1, y+1)
	for x := first; x <= last; {
		c := at(now, x)
		if c == at(was, x) && c.text != "" {
			// An unchanged run, up to the next change (there is one: last
			// changed): jumped over when that is shorter.
			end := x
			rewrite, from, words := 0, sgr, false
			for ; end <= last && at(now, end) == at(was, end); end++ {
				g := at(now, end)
				words = words || wordy(g.text)
				if g.sgr != from {
					rewrite += len(change(from, g.sgr))
					from = g.sgr
				}
				rewrite += len(g.text)
			}
			for end <= last && at(now, end).text == "" { // never land inside a wide one
				end--
			}
			next := at(now, end).sgr
			rewrite += len(change(from, next))
			words = words || x > 0 && wordy(at(now, x-1).text) && wordy(at(now, end).text)
			if end > x && !words && cursorForwardLen(end-x)+len(change(sgr, next)) < rewrite {
				putCursorForward(b, end-x)
				x = end
				continue
			}
		}
		if c.text != "" {
			if c.sgr != sgr {
				b.WriteString(change(sgr, c.sgr))
				sgr = c.sgr
			}
			b.WriteString(c.text)
		}
		x++
	}
	return sgr
}

// putCursorPosition writes ansi.CursorPosition(col, row) for col and row
// from 1, without making a string of it: a frame moves the cursor once a
// row it changes.
func putCursorPosition(b *bytes.Buffer, col, row int) {
	if row <= 1 && col <= 1 {
		b.WriteString(ansi.CursorHomePosition)
		return
	}
	b.WriteString("\x1b[")
	b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(row), 10))
	b.WriteByte(';')
	b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(col), 10))
	b.WriteByte('H')
}

// putCursorForward writes ansi.CursorForward(n) for n from 1.
func putCursorForward(b *bytes.Buffer, n int) {
	b.WriteString("\x1b[")
	if n > 1 {
		b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(n), 10))
	}
	b.WriteByte('C')
}

// cursorForwardLen is len(ansi.CursorForward(n)) for n from 1.
func cursorForwardLen(n int) int {
	if n <= 1 {
		return 3
	}
	digits := 0
	for ; n > 0; n /= 10 {
		digits++
	}
	return 3 + digits
}
