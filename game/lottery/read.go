package lottery

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"tapis/text"
)

// Limits of the layout reader. Whatever its input holds, reading stays
// linear in its size, and one record never costs much more than MaxLine of
// memory.
const (
	// MaxLine is the longest line the reader takes, its newline aside. At a
	// longer line, reading stops at once (Read returns a *LineTooLongError)
	// without reading the rest of it: a file of one huge line, or
	// /dev/zero, is refused after MaxLine bytes.
	MaxLine = 1 << 20
	// MaxLayout bounds one layout spread over several lines: a longer one is
	// reported as an error and its lines are let go as they come.
	MaxLayout = 1 << 20
	// MaxRecords is the most layouts (or playlist units) that a reader which
	// keeps them holds: replay, playlists, the QA panel. Beyond it, they stop
	// and say so.
	MaxRecords = 10_000
)

// LineTooLongError is Read's error for a line longer than MaxLine.
type LineTooLongError struct {
	Line int
}

// Error names the line.
func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line %d is longer than 1 MiB: not a layout file, reading stopped there", e.Line)
}

// NotLayoutsError is Read's error at a line holding, outside any string, a
// byte that no text holds (a control character but tab, line feed and
// carriage return, or a byte that is not UTF-8): random bytes, a binary
// file, /dev/urandom. Reading stops at
// once: such input gets one line, not one error a line for ever.
type NotLayoutsError struct {
	Line int
	Byte byte // the first such byte
}

// Error names the line and the byte, escaped.
func (e *NotLayoutsError) Error() string {
	return fmt.Sprintf("line %d holds the byte %s outside any string: not a layout file, reading stopped there",
		e.Line, text.Printable(string([]byte{e.Byte})))
}

// Entry is one layout read from input: the line it starts on, the layout, the
// "unit" of a `deal` record if it had one, or the error that made it invalid.
type Entry struct {
	Line   int
	Layout Layout
	Unit   string
	Prize  json.RawMessage // the record's "prize" as written, if it had one (a `deal` record, a test vector)
	Err    error
	Raw    json.RawMessage // the JSON value read, when it was one but no valid layout (a playlist reads a lot from it)
}

// bom is the UTF-8 byte-order mark that some editors write first.
var bom = []byte("\xef\xbb\xbf")

// Read reads layouts from r, as one JSON document or as JSON lines (each a
// layout or a `deal` record), and calls f with each in order. An invalid
// layout is passed with its error and reading goes on with the next one; a
// value left open (a line cut short) is reported once, and the lines after
// it that hold a whole object each are still read. A UTF-8 byte-order mark
// at the start is skipped. Read returns an error only when r itself fails, or
// at a line longer than MaxLine (a *LineTooLongError) or one holding bytes
// no layout holds (a *NotLayoutsError).
func Read(r io.Reader, f func(Entry)) error {
	return ReadWhile(r, func(e Entry) bool {
		f(e)
		return true
	})
}

// ReadWhile is Read that stops as soon as f returns false: a caller keeping
// at most MaxRecords entries stops there, without reading the rest.
func ReadWhile(r io.Reader, f func(Entry) bool) error {
	_, err := read(r, f)
	return err
}

// readStats counts the work of a reading, which tests hold to a few times
// the input's size.
type readStats struct {
	scanned int64 // bytes scanned for brackets
	decoded int64 // bytes handed to the JSON decoder
}

// read is ReadWhile; it also returns the work it did.
func read(r io.Reader, f func(Entry) bool) (readStats, error) {
	rd := reader{f: f}
	br := bufio.NewReaderSize(r, 64<<10)
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		br.Discard(len(bom))
	}
	lines := text.NewLineReader(br, MaxLine)
	for !rd.stopped {
		line, err := lines.ReadLine() // good until the next: feed keeps what it needs
		if errors.Is(err, text.ErrLineTooLong) {
			return rd.stats, &LineTooLongError{Line: rd.line + 1}
		}
		if len(line) > 0 {
			rd.line++
			if b, bad := rd.feed(line); bad {
				return rd.stats, &NotLayoutsError{Line: rd.line, Byte: b}
			}
		}
		if errors.Is(err, io.EOF) {
			rd.finish()
			break
		}
		if err != nil {
			return rd.stats, fmt.Errorf("reading layouts, line %d: %w", rd.line+1, err)
		}
	}
	return rd.stats, nil
}

// reader reads JSON values line by line. A value spreads over the lines
// until its brackets close; it is decoded once then. When it fails, only the
// lines inside it that hold a whole object each are decoded again, each on
// its own: every byte is decoded a bounded number of times, so reading stays
// linear whatever the input holds.
type reader struct {
	f       func(Entry) bool
	stopped bool // f asked to stop
	line    int  // lines read
	stats   readStats

	// The value being read.
	start int        // the line it starts on; 0 when none is open
	depth int        // its brackets open
	buf   []byte     // its lines, while they fit in MaxLayout
	held  []heldLine // the lines in buf
	over  bool       // longer than MaxLayout: reported, its lines let go

	fields LayoutFields      // the fast path's decoded fields, kept from one value to the next
	prizes []json.RawMessage // the prizes read, as written, each a copy of its own: records use few
	dec    Decoder
}

// heldLine is one line of the value being read.
type heldLine struct {
	n        int  // its number
	from, to int  // where it is in buf
	whole    bool // it holds one whole object by itself
}

// feed takes the next line: it opens a value or goes on with the open one,
// which ends when its brackets close. It reports the first byte of a line
// that no layout holds outside a string, and takes nothing of that line.
func (r *reader) feed(line []byte) (byte, bool) {
	if r.start == 0 {
		if len(bytes.TrimSpace(line)) == 0 {
			return 0, false
		}
		r.start = r.line
	}
	s := scanLine(line)
	r.stats.scanned += int64(len(line))
	if s.bad {
		return s.badByte, true
	}
	if r.start == r.line && s.whole { // a value on this one line: read at once, without holding it
		r.decode(r.line, line, noneUnread)
		r.start = 0
		return 0, false
	}
	switch {
	case r.over:
		if s.whole {
			r.decode(r.line, line, nil)
		}
	case len(r.buf) > 0 && len(r.buf)+len(line) > MaxLayout:
		r.overflow()
		if s.whole {
			r.decode(r.line, line, nil)
		}
	default:
		from := len(r.buf)
		r.buf = append(r.buf, line...)
		r.held = append(r.held, heldLine{n: r.line, from: from, to: len(r.buf), whole: s.whole})
	}
	r.depth += s.delta
	if r.depth <= 0 {
		r.close()
	}
	return 0, false
}

// close ends the value being read: its brackets closed, or the input ended.
func (r *reader) close() {
	if !r.over && !r.decode(r.start, r.buf, r.unread) {
		r.recover()
	}
	r.start, r.depth, r.over = 0, 0, false
	r.buf, r.held = r.buf[:0], r.held[:0]
}

// finish ends the input: a value still open is read as it is.
func (r *reader) finish() {
	if r.start != 0 {
		r.close()
	}
}

// overflow gives up on a value longer than MaxLayout: it is reported, the
// lines held are let go, and whole objects on its lines are read on their
// own until its brackets close.
func (r *reader) overflow() {
	_, err := r.value(r.buf)
	if err == nil || errors.Is(err, errEnd) {
		err = errors.New("layout is longer than 1 MiB")
	}
	r.emit(Entry{Line: r.start, Err: err})
	r.recover()
	r.over = true
	r.buf, r.held = r.buf[:0], r.held[:0]
}

// recover reads, each on its own, the lines after the first of a value that
// failed which hold a whole object: a line cut short must not swallow the
// layouts after it.
func (r *reader) recover() {
	for _, h := range r.held[min(1, len(r.held)):] {
		if h.whole {
			r.decode(h.n, r.buf[h.from:h.to], nil)
		}
	}
}

// noneUnread says that no line of a value is left unread: it is one line.
func noneUnread() string { return "" }

// unread says which lines of the value being read its recovery will not
// read: after its first, those that are not blank and hold no whole object
// of their own. Nothing vanishes unsaid.
func (r *reader) unread() string {
	first, last := 0, 0
	for _, h := range r.held[min(1, len(r.held)):] {
		if !h.whole && len(bytes.TrimSpace(r.buf[h.from:h.to])) > 0 {
			first, last = cmp.Or(first, h.n), h.n
		}
	}
	switch {
	case first == 0:
		return ""
	case first == last:
		return fmt.Sprintf(" (line %d, inside it, is not read)", first)
	}
	return fmt.Sprintf(" (lines %d to %d, inside it, are not read)", first, last)
}

// decode reads data as one layout starting on line n, passes it on with its
// error if any (and, when unread is not nil, what of it is not read), and
// reports whether data was one JSON value. A value read whole (unread not
// nil) is first decoded once into typed fields; only when that fails, or
// holds no valid layout, is it read again field by field, which names the
// field at fault. The lines recovered after a value that failed are read
// field by field at once: every byte is decoded four times at most.
func (r *reader) decode(n int, data []byte, unread func() string) bool {
	if r.stopped {
		return true
	}
	if unread != nil {
		t := bytes.TrimSpace(data)
		r.stats.decoded += int64(len(t))
		if l, ok := parseFast(t, &r.fields, &r.dec); ok {
			e := Entry{Line: n, Layout: l, Unit: r.fields.Unit}
			if len(r.fields.Prize) > 0 {
				e.Prize = r.prize(r.fields.Prize)
			}
			r.emit(e)
			return true
		}
	}
	raw, err := r.value(data)
	if err != nil {
		if unread != nil {
			if u := unread(); u != "" {
				err = fmt.Errorf("%w%s", err, u)
			}
		}
		r.emit(Entry{Line: n, Err: err})
		return false
	}
	r.stats.decoded += int64(len(raw))
	r.emit(parse(n, raw))
	return true
}

// maxPrizes bounds the prizes a reader keeps read.
const maxPrizes = 64

// prize returns a record's "prize" as written, in storage of its own that
// the caller may keep beyond the next decode: one copy for each way a
// prize is written, as deal's records repeat a few.
func (r *reader) prize(raw []byte) json.RawMessage {
	for _, p := range r.prizes {
		if bytes.Equal(p, raw) {
			return p
		}
	}
	p := json.RawMessage(bytes.Clone(raw))
	if len(r.prizes) < maxPrizes {
		r.prizes = append(r.prizes, p)
	}
	return p
}

// errEnd is the JSON decoder's error for a value cut short.
var errEnd = errors.New("invalid JSON: unexpected end of input")

// value decodes data as exactly one JSON value.
func (r *reader) value(data []byte) (json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	r.stats.decoded += int64(len(data))
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return nil, errEnd
	case errors.As(err, &se):
		return nil, fmt.Errorf("invalid JSON: %s", text.Printable(syntaxMessage(se, data)))
	case err != nil:
		return nil, fmt.Errorf("invalid JSON: %s", text.Printable(err.Error()))
	case dec.InputOffset() != int64(len(data)):
		return nil, errors.New("invalid JSON: more than one value on a line")
	}
	return raw, nil
}

// syntaxMessage is the JSON decoder's message for a syntax error in data,
// with the character it names quoted as data holds it: the decoder quotes
// the first byte of a UTF-8 letter as if it were Latin-1 ('â' for “).
func syntaxMessage(se *json.SyntaxError, data []byte) string {
	const prefix = "invalid character '"
	msg := se.Error()
	at := int(se.Offset) - 1
	if !strings.HasPrefix(msg, prefix) || at < 0 || at >= len(data) || data[at] < utf8.RuneSelf {
		return msg
	}
	quoted, rest, ok := strings.Cut(msg[len(prefix):], "' ")
	if !ok || utf8.RuneCountInString(quoted) != 1 {
		return msg
	}
	r, n := utf8.DecodeRune(data[at:])
	c := string(data[at : at+n])
	if r == utf8.RuneError && n == 1 {
		c = fmt.Sprintf(`\x%02x`, data[at])
	}
	return prefix + c + "' " + rest
}

// emit passes an entry on, unless the caller asked to stop.
func (r *reader) emit(e Entry) {
	if !r.stopped && !r.f(e) {
		r.stopped = true
	}
}

// lineScan is what scanLine finds in a line.
type lineScan struct {
	delta   int  // brackets opened less brackets closed, outside strings
	whole   bool // the line holds one whole object and nothing else
	bad     bool // it holds outside strings a byte no JSON text holds there
	badByte byte // the first such byte
}

// scanLine follows the brackets of a line outside strings. A JSON string
// never spans lines, so each line is scanned on its own, once.
func scanLine(line []byte) lineScan {
	var s lineScan
	str := false
	low := 0
	for i := 0; i < len(line); i++ {
		if !scanned[line[i]] {
			continue // a number, a literal, a colon, a comma, white space
		}
		switch c := line[i]; c {
		case '"':
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++ // what it escapes
				}
			}
			str = i >= len(line) // left open
		case '{', '[':
			s.delta++
		case '}', ']':
			s.delta--
			low = min(low, s.delta)
		case ',':
		default: // a control character, or not ASCII: no JSON outside a string
			if c >= utf8.RuneSelf {
				if r, n := utf8.DecodeRune(line[i:]); r != utf8.RuneError || n > 1 {
					i += n - 1 // a letter of a text, mistyped: the JSON decoder names it
					continue
				}
			}
			if !s.bad {
				s.bad, s.badByte = true, c
			}
		}
	}
	// Its first byte that is not white space, nor NUL, and its last byte
	// that is not white space.
	first, last := bytes.TrimLeft(line, " \t\r\n\x00"), bytes.TrimRight(line, " \t\r\n")
	s.whole = len(first) > 0 && first[0] == '{' && last[len(last)-1] == '}' && !str && s.delta == 0 && low == 0
	return s
}

// scanned marks the bytes that scanLine looks at: the structural ones, and
// those that JSON holds only inside strings, if at all (control characters
// but tab, line feed and carriage return; bytes beyond ASCII, which may
// start a UTF-8 letter, as a text holds, or be no text).
var scanned = func() (t [256]bool) {
	t = structural
	for c := range 256 {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c >= 0x7f {
			t[c] = true
		}
	}
	return t
}()
