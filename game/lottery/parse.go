package lottery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
	"tapis/text"
)

// Parse reads one layout (or `deal` record) from a JSON document: with one
// typed decode, and field by field when that fails, to name the field at
// fault.
func Parse(data []byte) (Layout, error) {
	var f LayoutFields
	if l, ok := parseFast(bytes.TrimSpace(data), &f, nil); ok {
		return l, nil
	}
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
	if key, ok := duplicateKey(raw); ok {
		e.Err = &DuplicateKeyError{Key: key}
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
	e.Prize = fields["prize"]
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
	} else {
		e.Raw = nil // a valid layout is read
	}
	return e
}

// gameOf reads the "game" field, or guesses it from the fields present when
// it is missing.
func gameOf(fields map[string]json.RawMessage) (string, error) {
	raw, ok := fields["game"]
	if !ok {
		switch {
		case fields["cups"] != nil && fields["roulette"] != nil:
			return "", game.Errorf("game", `missing, and the layout holds both "cups" (yams) and "roulette" (vegas): give "game"`)
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

// DuplicateKeyError is Parse's error for a layout giving one of the keys a
// layout reads twice in one object ("cups" twice): which one counts is
// anybody's guess, so neither does.
type DuplicateKeyError struct {
	Key string
}

// Error names the key.
func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("duplicate key %q: a layout gives each key once", text.Printable(e.Key))
}

// duplicateKey finds, in data, a valid JSON value, a key that a layout reads
// (one of layoutKeys', as written) given twice in one object. Keys no
// layout reads are ignored, twice as once.
func duplicateKey(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type open struct {
		object bool
		seen   uint64 // the layout's keys met in it
		key    bool   // the next string is a key
	}
	var stack []open
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top >= 0 && stack[top].object {
					stack[top].key = true // this value done, the next string a key
				}
				stack = append(stack, open{object: t == '{', key: t == '{'})
			default:
				stack = stack[:top]
			}
			continue
		case string:
			if top >= 0 && stack[top].object && stack[top].key {
				stack[top].key = false
				i, ok := layoutKeyIndex[t]
				if !ok {
					continue
				}
				if stack[top].seen&(1<<i) != 0 {
					return t, true
				}
				stack[top].seen |= 1 << i
				continue
			}
		}
		if top >= 0 && stack[top].object {
			stack[top].key = true // a value done: the next string is a key
		}
	}
}

// layoutKeyIndex numbers the keys a layout reads.
var layoutKeyIndex = func() map[string]int {
	m := map[string]int{}
	for i, name := range layoutKeys.names {
		m[name] = i
	}
	return m
}()

// Record writes a `deal` record on one line: the layout with its unit
// identity (when it has one) and its prize, and "forced": true for a unit
// forced to a lot (ruling G6).
func Record(l Layout, unit string, prize string, forced bool) ([]byte, error) {
	body, err := l.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("writing a layout: %w", err)
	}
	b := []byte{'{'}
	if unit != "" {
		if b, err = appendMember(b, "unit", unit); err != nil {
			return nil, err
		}
		b = append(b, ',')
	}
	b = append(b, body[1:len(body)-1]...)
	if b, err = AppendMember(append(b, '}'), "prize", prize); err != nil {
		return nil, err
	}
	if forced {
		return AppendMember(b, "forced", true)
	}
	return b, nil
}

// AppendMember adds "key": value as the last member of the JSON object obj,
// both written by encoding/json, so that the object stays valid JSON
// whatever the strings hold (control characters, bytes that are not UTF-8).
func AppendMember(obj []byte, key string, value any) ([]byte, error) {
	obj = bytes.TrimRight(obj, " \t\r\n")
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return nil, errors.New("adding a member: not a JSON object")
	}
	out := append(obj[:len(obj)-1:len(obj)-1], ',')
	if len(obj) == 2 {
		out = out[:1] // {} has no member to follow
	}
	out, err := appendMember(out, key, value)
	if err != nil {
		return nil, err
	}
	return append(out, '}'), nil
}

// appendMember writes "key":value after b, as encoding/json writes them
// (without escaping <, > and &, which JSON does not need).
func appendMember(b []byte, key string, value any) ([]byte, error) {
	if s, ok := value.(string); ok && plainText(key) && plainText(s) {
		b = append(append(append(b, '"'), key...), `":"`...)
		return append(append(b, s...), '"'), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(key); err != nil {
		return nil, fmt.Errorf("writing %q: %w", key, err)
	}
	b = append(bytes.TrimRight(append(b, buf.Bytes()...), "\n"), ':')
	buf.Reset()
	if err := enc.Encode(value); err != nil {
		return nil, fmt.Errorf("writing %q: %w", key, err)
	}
	return append(b, bytes.TrimRight(buf.Bytes(), "\n")...), nil
}

// plainText reports whether encoding/json writes s as it is, between
// quotes: printable ASCII, without quotes or backslashes, nor the <, >
// and & that it may escape.
func plainText(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
