// Package text makes text that came from outside the program (a file, a
// journal, a pipe) safe to handle: Printable escapes what a terminal would
// obey, and ReadLine reads a line without holding more than a limit.
package text

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Printable returns s with every character a terminal would not simply show
// (control characters such as ESC or BEL, other non-printable runes, bytes
// that are not UTF-8) escaped as Go's %q writes them: "\x1b", "\a",
// "\u202e", "\xff". It adds no quotes, and leaves everything else as it is,
// backslashes included, so that a string already escaped comes back
// unchanged.
func Printable(s string) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !printable(r, size) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case printable(r, size):
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&0xf])
		default:
			q := strconv.QuoteRune(r) // '\x1b'
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

const hex = "0123456789abcdef"

// printable reports whether a rune decoded from size bytes is shown as it is.
func printable(r rune, size int) bool {
	if r == utf8.RuneError {
		return size > 1 // U+FFFD written out is a character; a lone bad byte is not
	}
	return strconv.IsPrint(r)
}

// ErrLineTooLong is returned by ReadLine for a line longer than its limit.
var ErrLineTooLong = errors.New("line too long")

// LineReader reads lines as ReadLine does, without copying a line that its
// bufio.Reader holds whole: a line is good until the next one is read.
type LineReader struct {
	br   *bufio.Reader
	max  int
	long []byte // a line longer than br's buffer
}

// NewLineReader returns a LineReader of lines up to max bytes from br.
func NewLineReader(br *bufio.Reader, max int) *LineReader { return &LineReader{br: br, max: max} }

// ReadLine is ReadLine(br, max), its line good until the next call.
func (r *LineReader) ReadLine() ([]byte, error) {
	r.long = r.long[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if n := len(r.long) + len(chunk); n > r.max+1 || (n == r.max+1 && chunk[len(chunk)-1] != '\n') {
			return nil, ErrLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			r.long = append(r.long, chunk...)
			continue
		}
		if len(r.long) == 0 {
			return chunk, err
		}
		r.long = append(r.long, chunk...)
		return r.long, err
	}
}

// ReadLine reads one line from br and returns it with its '\n'; the last line
// of the input may come without one, and io.EOF follows it. A line longer
// than max bytes, its '\n' aside, returns ErrLineTooLong as soon as that is
// known, having read at most max+1 bytes of it plus br's buffer: the rest of
// the line is not read, so that one line never holds much more than max bytes
// of memory, whatever comes in (a file of one huge line, /dev/zero).
func ReadLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 || (len(line)+len(chunk) == max+1 && chunk[len(chunk)-1] != '\n') {
			return nil, ErrLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			line = append(line, chunk...)
			continue
		}
		if line == nil {
			// The whole line was in the buffer: copy it, as the buffer moves on.
			line = make([]byte, len(chunk))
			copy(line, chunk)
		} else {
			line = append(line, chunk...)
		}
		return line, err
	}
}

// JSONSafe returns JSON text with every rune a terminal would not simply
// show written as a \u escape: encoding/json escapes control characters
// below U+0020 but leaves others, such as U+202E (which turns what follows
// right to left) or U+0085, as they are. The JSON means the same.
func JSONSafe(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < utf8.RuneSelf { // ASCII, which a terminal shows once encoding/json escaped it
		i++
	}
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r >= utf8.RuneSelf && !printable(r, size) {
			break
		}
		i += size
	}
	if i == len(b) {
		return b
	}
	out := append(make([]byte, 0, len(b)+12), b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r < utf8.RuneSelf || printable(r, size):
			out = append(out, b[i:i+size]...)
		case r == utf8.RuneError && size == 1: // not UTF-8: as encoding/json writes it
			out = append(out, `\ufffd`...)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	return out
}
