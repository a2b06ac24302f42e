package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"tapis/text"
)

// MaxLine is the longest line Read takes, and the longest receipt or head
// written over several lines: a receipt with its layout is well under it.
const MaxLine = 64 << 10

// MaxTokens is how many receipts and heads Read takes from one file.
const MaxTokens = 1 << 20

// The longest text fields a receipt holds: an account's name is 64
// characters at most, a unit's name and a label shorter, a layout a few
// hundred bytes. A receipt that passes them is none tapis wrote, and would
// not fit a line once written again.
const (
	maxName   = 256
	maxKey    = 1 << 10
	maxLayout = 32 << 10
)

// Tokens are receipts and heads read from a file, with the line each
// starts on (from 1).
type Tokens struct {
	Receipts     []Receipt
	Heads        []HeadToken
	ReceiptLines []int
	HeadLines    []int
}

// MaxRead is how many bytes of receipts and heads Read keeps from one
// file, whatever their count: what it holds in memory is bounded by it.
const MaxRead = 256 << 20

// Read reads receipts and heads as tapis receipt prints them, one a line,
// and as a seller's log writes heads (a line holding {"head":…}); one a
// JSON pretty-printer spread over several lines (jq .) is read too. Blank
// lines, lines holding neither and other JSON are skipped, so that a log
// or a saved page can be given as it is; one that starts a receipt or a
// head and does not read is an error naming its line. Reading is bounded:
// MaxLine bytes a line and a token, MaxTokens tokens, MaxRead bytes of them.
func Read(r io.Reader) (Tokens, error) { return read(r, MaxTokens) }

// read is Read, at most limit tokens.
func read(r io.Reader, limit int) (Tokens, error) {
	var out Tokens
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), MaxLine)
	var sp spread
	n, kept := 0, 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if sp.open() {
			switch sp.add(line) {
			case spreadMore:
				continue
			case spreadLong:
				return out, fmt.Errorf("line %d: a %s that does not end within %d bytes", sp.first, sp.kind, MaxLine)
			case spreadDone:
				if kept += len(sp.buf); kept > MaxRead {
					return out, fmt.Errorf("line %d: more than %d MiB of receipts and heads in one file", sp.first, MaxRead>>20)
				}
				if err := out.decode(sp.kind, sp.buf, sp.first); err != nil {
					return out, err
				}
				sp.reset()
				if out.count() > limit {
					return out, fmt.Errorf("line %d: more than %d receipts and heads in one file", n, limit)
				}
				continue
			}
			sp.reset() // not a token: the line is read as any other
		}
		k, i := tokenAt(line)
		if k == noToken {
			if bytes.Equal(bytes.TrimSpace(line), []byte("{")) { // perhaps a token spread over the lines after
				sp.begin(n, line, noToken)
			}
			continue
		}
		if end := closes(line[i:]); end < 0 {
			sp.begin(n, line[i:], k)
			continue
		}
		if kept += len(line) - i; kept > MaxRead {
			return out, fmt.Errorf("line %d: more than %d MiB of receipts and heads in one file", n, MaxRead>>20)
		}
		if err := out.decode(k, line[i:], n); err != nil {
			return out, err
		}
		if out.count() > limit {
			return out, fmt.Errorf("line %d: more than %d receipts and heads in one file", n, limit)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return out, fmt.Errorf("line %d: longer than %d bytes", n+1, MaxLine)
		}
		return out, err
	}
	if sp.open() && sp.kind != noToken {
		return out, fmt.Errorf("line %d: a %s that does not end", sp.first, sp.kind)
	}
	return out, nil
}

// count is how many tokens were read.
func (t *Tokens) count() int { return len(t.Receipts) + len(t.Heads) }

// decode reads a token of kind k from the first JSON value of b, which
// starts on line n.
func (t *Tokens) decode(k tokenKind, b []byte, n int) error {
	if k == receiptToken {
		var rc Receipt
		err := decodeOne(b, &rc)
		if err == nil {
			err = rc.tidy()
		}
		if err != nil {
			return fmt.Errorf("line %d: a receipt that does not read: %s", n, clip(err.Error()))
		}
		t.Receipts, t.ReceiptLines = append(t.Receipts, rc), append(t.ReceiptLines, n)
		return nil
	}
	var h HeadToken
	if err := decodeOne(b, &h); err != nil {
		return fmt.Errorf("line %d: a head that does not read: %s", n, clip(err.Error()))
	}
	t.Heads, t.HeadLines = append(t.Heads, h), append(t.HeadLines, n)
	return nil
}

// decodeOne decodes the first JSON value of b into v.
func decodeOne(b []byte, v any) error {
	return json.NewDecoder(bytes.NewReader(b)).Decode(v)
}

// tidy writes a receipt's layout as the store recorded it (compact, as
// encoding/json writes it: what its hash was made of, and what String
// writes again), and refuses a receipt that is none tapis wrote: a text
// field too long, an amount that is no number of cents.
func (r *Receipt) tidy() error {
	if len(r.Layout) == 0 || string(r.Layout) == "null" {
		r.Layout = nil
	} else {
		b, err := json.Marshal(r.Layout) // a json.RawMessage: compacted, escaped as Marshal escapes
		if err != nil {
			return err
		}
		r.Layout = b
	}
	for _, f := range []struct {
		name string
		s    string
		max  int
	}{{"account", r.Account, maxName}, {"unit", r.Unit, maxName}, {"label", r.Label, maxName},
		{"key", r.Key, maxKey}, {"layout", string(r.Layout), maxLayout}} {
		if len(f.s) > f.max {
			return fmt.Errorf("its %s is longer than %d bytes", f.name, f.max)
		}
	}
	for _, a := range []struct {
		name string
		d    decimal.Decimal
	}{{"stake", r.Stake}, {"prize", r.Prize}, {"before", r.Before}, {"after", r.After}} {
		if _, ok := cents(a.d); !ok {
			return fmt.Errorf("its %s is not a whole number of cents", a.name)
		}
	}
	return nil
}

// clip shortens an error from the decoder, which may quote what it read
// (a whole line of it, newlines included), to one short printable line.
func clip(s string) string {
	const max = 160
	s = text.Printable(s)
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// tokenKind is what a JSON object holds: a receipt, a head, or neither.
type tokenKind int

const (
	noToken tokenKind = iota
	receiptToken
	headToken
)

// String names the kind in Read's errors.
func (k tokenKind) String() string {
	switch k {
	case receiptToken:
		return "receipt"
	case headToken:
		return "head"
	}
	return "token"
}

// tokenAt finds in a line the first object that starts a receipt
// ({"receipt":…) or a head ({"head":…), spaces allowed around the key,
// and returns its kind and where its brace is.
func tokenAt(line []byte) (tokenKind, int) {
	for i := 0; i < len(line); {
		j := bytes.IndexByte(line[i:], '{')
		if j < 0 {
			break
		}
		p := i + j
		if k := firstKey(line[p+1:]); k != noToken {
			return k, p
		}
		i = p + 1
	}
	return noToken, -1
}

// firstKey returns the kind of token an object's first key, at the start
// of b (spaces before it), makes it.
func firstKey(b []byte) tokenKind {
	b = skipSpace(b)
	k := noToken
	switch {
	case bytes.HasPrefix(b, []byte(`"receipt"`)):
		k, b = receiptToken, b[len(`"receipt"`):]
	case bytes.HasPrefix(b, []byte(`"head"`)):
		k, b = headToken, b[len(`"head"`):]
	default:
		return noToken
	}
	if b = skipSpace(b); len(b) == 0 || b[0] != ':' {
		return noToken
	}
	return k
}

func skipSpace(b []byte) []byte {
	return bytes.TrimLeft(b, " \t\r\n")
}

// closes returns where the JSON object that b starts with ends (after its
// closing brace), or -1 when b ends first.
func closes(b []byte) int {
	var d depth
	for i, c := range b {
		if d.feed(c) {
			return i + 1
		}
	}
	return -1
}

// depth follows how deep a JSON text is nested, byte by byte, strings
// and their escapes aside: enough to find where an object ends without
// decoding it.
type depth struct {
	n        int
	inString bool
	escaped  bool
}

// feed takes the next byte and reports whether it closed the outermost
// object or array.
func (d *depth) feed(c byte) bool {
	switch {
	case d.escaped:
		d.escaped = false
	case d.inString:
		switch c {
		case '\\':
			d.escaped = true
		case '"':
			d.inString = false
		}
	case c == '"':
		d.inString = true
	case c == '{' || c == '[':
		d.n++
	case c == '}' || c == ']':
		d.n--
		return d.n == 0
	}
	return false
}

// spread is a token written over several lines, being read: the line it
// starts on, what was read of it, and how deep it stands. Its kind is
// noToken while only its opening brace was read.
type spread struct {
	first int
	kind  tokenKind
	buf   []byte
	d     depth
}

// What a line does to a spread token.
type spreadStep int

const (
	spreadMore spreadStep = iota // it goes on
	spreadDone                   // it ended on the line
	spreadNone                   // the object is no token: the line is read as any other
	spreadLong                   // longer than MaxLine
)

func (s *spread) open() bool { return s.first > 0 }

func (s *spread) reset() { *s = spread{buf: s.buf[:0]} }

// begin starts a token at line n with its first line's text.
func (s *spread) begin(n int, text []byte, k tokenKind) {
	s.first, s.kind, s.d = n, k, depth{}
	s.buf = append(s.buf[:0], text...)
	for _, c := range text {
		s.d.feed(c)
	}
}

// add takes the token's next line.
func (s *spread) add(line []byte) spreadStep {
	if s.kind == noToken {
		if len(bytes.TrimSpace(line)) == 0 {
			return spreadMore
		}
		if s.kind = firstKey(line); s.kind == noToken {
			return spreadNone
		}
	}
	if len(s.buf)+1+len(line) > MaxLine {
		return spreadLong
	}
	s.buf = append(s.buf, '\n')
	for i, c := range line {
		if s.d.feed(c) {
			s.buf = append(s.buf, line[:i+1]...)
			return spreadDone
		}
	}
	s.buf = append(s.buf, line...)
	return spreadMore
}
