package lottery

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
)

// Entry is one layout read from input: the line it starts on, the layout, the
// "unit" of a `deal` record if it had one, or the error that made it invalid.
type Entry struct {
	Line   int
	Layout Layout
	Unit   string
	Err    error
	Raw    json.RawMessage // the JSON value read, when it was one
}

// maxLayout bounds the size of one layout, to refuse runaway input early.
const maxLayout = 1 << 20

// Read reads layouts from r, as one JSON document or as JSON lines (each a
// layout or a `deal` record), and calls f with each in order. An invalid
// layout is passed with its error and reading goes on with the next one. Read
// returns an error only when r itself fails.
func Read(r io.Reader, f func(Entry)) error {
	br := bufio.NewReader(r)
	var p pending
	line := 0
	for {
		text, err := br.ReadBytes('\n')
		if len(text) > 0 {
			line++
			p.feed(line, text, f)
		}
		if errors.Is(err, io.EOF) {
			p.finish(f)
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading layouts: %w", err)
		}
	}
}

// pending holds the lines of a layout spread over several lines, until they
// make a whole JSON value.
type pending struct {
	lines [][]byte
	nums  []int
	size  int
	depth int // brackets open outside strings
	str   bool
	esc   bool
}

// scan follows the brackets of text, so that a value is decoded only once
// its brackets close, and reading stays linear in the input.
func (p *pending) scan(text []byte) {
	for _, c := range text {
		switch {
		case c == '\n': // a JSON string never spans lines
			p.str, p.esc = false, false
		case p.esc:
			p.esc = false
		case p.str && c == '\\':
			p.esc = true
		case c == '"':
			p.str = !p.str
		case p.str:
		case c == '{' || c == '[':
			p.depth++
		case c == '}' || c == ']':
			p.depth--
		}
	}
}

func (p *pending) feed(n int, text []byte, f func(Entry)) {
	if len(p.lines) == 0 && len(bytes.TrimSpace(text)) == 0 {
		return
	}
	p.lines = append(p.lines, text)
	p.nums = append(p.nums, n)
	p.size += len(text)
	p.scan(text)
	if p.depth > 0 && p.size <= maxLayout {
		return // the value goes on in the next lines
	}
	buf := bytes.TrimSpace(bytes.Join(p.lines, nil))
	dec := json.NewDecoder(bytes.NewReader(buf))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	switch {
	case p.size > maxLayout:
		p.fail(errors.New("layout is longer than 1 MiB"), f)
	case err != nil:
		p.fail(fmt.Errorf("invalid JSON: %v", syntaxMessage(err)), f)
	case dec.InputOffset() != int64(len(buf)):
		p.fail(errors.New("invalid JSON: more than one value on a line"), f)
	default:
		first := p.nums[0]
		p.reset()
		f(parse(first, raw))
	}
}

// fail reports the error at the first pending line, then reads the lines
// after it again: a broken line must not swallow the good ones that follow.
func (p *pending) fail(err error, f func(Entry)) {
	f(Entry{Line: p.nums[0], Err: err})
	lines, nums := p.lines[1:], p.nums[1:]
	p.reset()
	for i := range lines {
		p.feed(nums[i], lines[i], f)
	}
}

func (p *pending) reset() { *p = pending{} }

func (p *pending) finish(f func(Entry)) {
	for len(p.lines) > 0 {
		p.fail(errors.New("invalid JSON: unexpected end of input"), f)
	}
}

func syntaxMessage(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Error()
	}
	return err.Error()
}

// Parse reads one layout (or `deal` record) from a JSON document.
func Parse(data []byte) (Layout, error) {
	e := parse(0, data)
	return e.Layout, e.Err
}

func parse(line int, raw json.RawMessage) Entry {
	e := Entry{Line: line, Raw: raw}
	fields, err := game.Object(raw, "")
	if err != nil {
		e.Err = errors.New("want a JSON object for a layout")
		return e
	}
	name, err := gameOf(fields)
	if err != nil {
		e.Err = err
		return e
	}
	if u, ok := fields["unit"]; ok {
		e.Unit, _ = game.String(u, "unit")
	}
	switch name {
	case yams.Name:
		var u *yams.Unit
		u, e.Err = yams.ParseUnit(fields)
		e.Layout = Layout{Yams: u}
	case vegas.Name:
		var t *vegas.Ticket
		t, e.Err = vegas.ParseTicket(fields)
		e.Layout = Layout{Vegas: t}
	}
	if e.Err != nil {
		e.Layout = Layout{}
	}
	return e
}

// gameOf reads the "game" field, or guesses it from the fields present when
// it is missing.
func gameOf(fields map[string]json.RawMessage) (string, error) {
	raw, ok := fields["game"]
	if !ok {
		switch {
		case fields["cups"] != nil:
			return yams.Name, nil
		case fields["roulette"] != nil:
			return vegas.Name, nil
		}
		return "", game.Errorf("game", "missing (want \"yams\" or \"vegas\")")
	}
	s, err := game.String(raw, "game")
	if err != nil {
		return "", err
	}
	g, err := Find(s)
	if err != nil {
		return "", game.Errorf("game", "%q is not yams or vegas", s)
	}
	return g.Name, nil
}

// Record writes a `deal` record on one line: the layout with its unit
// identity (when it has one) and its prize, and "forced": true for a unit
// forced to a lot (ruling G6).
func Record(l Layout, unit string, prize string, forced bool) ([]byte, error) {
	body, err := l.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("writing a layout: %w", err)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	if unit != "" {
		fmt.Fprintf(&b, "%q:%q,", "unit", unit)
	}
	b.Write(body[1 : len(body)-1])
	fmt.Fprintf(&b, ",%q:%q", "prize", prize)
	if forced {
		b.WriteString(`,"forced":true`)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
