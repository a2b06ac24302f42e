package lottery

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
)

// LayoutFields are a layout of either game, or a `deal` record, as one
// typed encoding/json decode reads them: the fast path of Parse. Fields
// tells what they hold when that is a valid layout; otherwise Parse,
// field by field, names what is wrong. Its storage is kept from one decode
// to the next (Reset), and it may be the type of a member of a larger
// record (a journal's purchase).
type LayoutFields struct {
	Game  json.RawMessage `json:"game"`
	Unit  string          `json:"unit"`
	Stake json.RawMessage `json:"stake"`
	Prize json.RawMessage `json:"prize"` // a `deal` record's, or a test vector's: what score --check compares
	yams.UnitFields
	vegas.TicketFields

	stakeRaw []byte    // the last stake read, as JSON
	stake    readStake // and as read
}

// Reset empties the fields for the next decode, keeping their storage.
func (f *LayoutFields) Reset() {
	f.Game, f.Unit, f.Stake, f.Prize = f.Game[:0], "", f.Stake[:0], f.Prize[:0]
	f.UnitFields.Reset()
	f.TicketFields.Reset()
}

// Layout returns the layout the fields hold, and true, when Parse reads the
// same layout from the JSON they were decoded from. It returns false when
// the fields alone cannot tell, as for any layout Parse refuses: its game
// missing or written otherwise than "yams" or "vegas", an amount written as
// a number, a die out of range. The JSON must have plain keys (see Keys).
func (f *LayoutFields) Layout() (Layout, bool) {
	var vegasGame bool
	switch string(f.Game) {
	case `"` + yams.Name + `"`:
	case `"` + vegas.Name + `"`:
		vegasGame = true
	default:
		return Layout{}, false
	}
	if len(f.Stake) > 0 && !bytes.Equal(f.Stake, f.stakeRaw) { // read once for each way it is written
		f.stakeRaw, f.stake = append(f.stakeRaw[:0], f.Stake...), stakeOf(f.Stake)
	}
	switch {
	case vegasGame && len(f.Stake) > 0 && !f.stake.vegas:
		return Layout{}, false
	case vegasGame:
		t, ok := f.TicketFields.Ticket()
		return Layout{Vegas: t}, ok
	case len(f.Stake) == 0:
		u, ok := f.UnitFields.Unit(oneEuro) // as yams.ParseUnit takes it
		return Layout{Yams: u}, ok
	case !f.stake.yams:
		return Layout{}, false
	}
	u, ok := f.UnitFields.Unit(f.stake.amount)
	return Layout{Yams: u}, ok
}

// readStake is a stake as a layout writes it, read, and whether it is one
// of the games'.
type readStake struct {
	amount      decimal.Decimal
	yams, vegas bool // one of Yam's stakes; Vegas's price
}

// stakeOf reads a stake as the field-by-field reader does, when it is a
// JSON string without escapes.
func stakeOf(raw []byte) readStake {
	s, ok := plainString(raw)
	if !ok {
		return readStake{}
	}
	d, err := game.ParsePlainAmount(s)
	if err != nil {
		return readStake{}
	}
	return readStake{amount: d, yams: slices.ContainsFunc(yamsStakes, d.Equal), vegas: d.Equal(vegas.Price())}
}

// plainString returns what a JSON string of printable ASCII without
// escapes holds.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	for _, c := range in {
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return "", false
		}
	}
	return string(in), true
}

// Keys is the set of member names that a typed encoding/json decode into a
// type matches. Such a decode differs from reading the members one by one,
// as Parse does, in two ways only: it matches a name whatever its letter
// case (and a few non-ASCII letters that fold to ASCII ones), and it
// merges into one struct what an object repeating a name holds, where
// reading it as a map keeps the last. Plain tells the JSON where neither
// can happen.
type Keys struct {
	names   []string         // the names, as the type writes them
	exact   []uint64         // each name's first bytes, packed (pack)
	buckets [buckets][]uint8 // the places of the names, by bucket (bucket)
}

// buckets is the number of buckets of Keys' names.
const buckets = 64

// bucket returns the bucket of a name of length n whose first byte is c:
// names equal whatever their case share a bucket.
func bucket(n int, c byte) int { return (n*7 + int(c|0x20)) % buckets }

// maxKeys bounds the names of a type: each object's names are marked in
// the bits of a uint64.
const maxKeys = 64

// maxName bounds the length of a name of the type.
const maxName = 32

// KeysOf returns the member names that a typed decode into v's type
// matches, its nested structs, slices and arrays included.
func KeysOf(v any) *Keys {
	k := &Keys{}
	k.walk(reflect.TypeOf(v))
	if len(k.names) > maxKeys {
		panic(fmt.Sprintf("lottery: %d member names, at most %d", len(k.names), maxKeys))
	}
	for _, name := range k.names {
		k.exact = append(k.exact, pack([]byte(name)))
	}
	return k
}

func (k *Keys) walk(t reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && tag == "" {
			k.walk(f.Type)
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		name := f.Name
		if tag != "" {
			name = tag
		}
		if len(name) > maxName {
			panic(fmt.Sprintf("lottery: member name %q is longer than %d", name, maxName))
		}
		if name != "" && !slices.ContainsFunc(k.names, func(n string) bool { return strings.EqualFold(n, name) }) {
			b := bucket(len(name), name[0])
			k.buckets[b] = append(k.buckets[b], uint8(len(k.names)))
			k.names = append(k.names, name)
		}
		k.walk(f.Type)
	}
}

// pack packs the first 8 bytes of an ASCII name in a uint64.
func pack(name []byte) uint64 {
	var b [8]byte
	copy(b[:], name)
	return binary.LittleEndian.Uint64(b[:])
}

// folded sets in a packed name the bit that sets ASCII letters in lower
// case: names equal whatever their case are then equal (other names may be
// too: fresh tells them apart).
func folded(p uint64) uint64 { return p | 0x2020202020202020 }

// maxDepth bounds the nesting Plain follows: layouts and journal records
// nest far less.
const maxDepth = 16

// Plain reports whether a typed decode of data, valid JSON, reads the
// members that reading them one by one reads: every name is ASCII without
// escapes, none is one of the type's written in another case, and none of
// the type's appears twice in one object. It reads data once, and says
// false of what it finds is not JSON.
func (k *Keys) Plain(data []byte) bool {
	var (
		seen    [maxDepth]uint64 // the type's names met in each open object
		object  [maxDepth]bool   // whether each open value is an object
		depth   int
		wantKey bool // the next string is a member's name
	)
	for i := 0; i < len(data); i++ {
		c := data[i]
		if !structural[c] {
			continue // a number, a literal, a colon, white space
		}
		switch c {
		case '{', '[':
			if depth == maxDepth {
				return false
			}
			seen[depth], object[depth] = 0, c == '{'
			depth++
			wantKey = c == '{'
		case '}', ']':
			if depth == 0 {
				return false // not JSON
			}
			depth--
			wantKey = false
		case ',':
			wantKey = depth > 0 && object[depth-1]
		case '"':
			if !wantKey {
				for i++; i < len(data) && data[i] != '"'; i++ {
					if data[i] == '\\' {
						i++ // what it escapes
					}
				}
				continue
			}
			from := i + 1
			for i++; i < len(data) && data[i] != '"'; i++ {
				if c := data[i]; c == '\\' || c >= 0x80 {
					return false // an escape, or a letter that may fold to ASCII
				}
			}
			if i >= len(data) || !k.fresh(data, from, i, &seen[depth-1]) {
				return false
			}
			wantKey = false
		}
	}
	return true
}

// structural marks the bytes that Plain looks at outside strings.
var structural = [256]bool{'{': true, '}': true, '[': true, ']': true, ',': true, '"': true}

// fresh reports whether data[from:to], an ASCII member name without
// escapes, is not one of the type's in another case, nor one met already
// in its object (seen).
func (k *Keys) fresh(data []byte, from, to int, seen *uint64) bool {
	n := to - from
	if n > maxName {
		return true // longer than any name of the type
	}
	var exact uint64
	if from+8 <= len(data) {
		exact = binary.LittleEndian.Uint64(data[from:])
		if n < 8 {
			exact &= 1<<(8*n) - 1
		}
	} else {
		exact = pack(data[from:to])
	}
	name := data[from:to]
	if n == 0 {
		return true // no name of the type
	}
	for _, i := range k.buckets[bucket(n, name[0])] {
		if len(k.names[i]) != n {
			continue
		}
		if folded(k.exact[i]) != folded(exact) || n > 8 && !foldEqual(k.names[i], name) {
			continue
		}
		if k.exact[i] != exact || n > 8 && k.names[i] != string(name) {
			return false // the type's name in another case, or the like
		}
		if *seen&(1<<i) != 0 {
			return false
		}
		*seen |= 1 << i
		return true
	}
	return true
}

// foldEqual reports whether two ASCII names of the same length are equal
// whatever their letters' case.
func foldEqual(a string, b []byte) bool {
	for i := range len(b) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// layoutKeys are the member names of a layout, for the fast path.
var layoutKeys = KeysOf(LayoutFields{})

// yamsStakes are the stakes of Yam's (yams.ValidStake), and oneEuro the
// stake of a Yam's layout that gives none: read only, as decimals are.
var (
	yamsStakes = yams.Stakes()
	oneEuro    = decimal.NewFromInt(1)
)

// parseFast reads data, one JSON value, with one typed decode into f, when
// that reads what the field-by-field reader would; ok is false otherwise.
// dec decodes it, or json.Unmarshal when dec is nil.
func parseFast(data []byte, f *LayoutFields, dec *Decoder) (l Layout, ok bool) {
	f.Reset()
	var err error
	if dec != nil {
		err = dec.Decode(data, f)
	} else {
		err = json.Unmarshal(data, f)
	}
	if err != nil || !layoutKeys.Plain(data) {
		return Layout{}, false
	}
	return f.Layout()
}

// AppendScore appends what Score().MarshalJSON writes to b, without keeping
// the score: a writer of many scores keeps one buffer.
func (l Layout) AppendScore(b []byte) []byte {
	if l.Vegas != nil {
		return l.Vegas.Score().AppendJSON(b)
	}
	return l.Yams.Score().AppendJSON(b)
}

// Prize returns what the layout pays, Score().Prize(), without keeping its
// score.
func (l Layout) Prize() decimal.Decimal {
	if l.Vegas != nil {
		return l.Vegas.Prize().Decimal()
	}
	return l.Yams.Prize().Decimal()
}

// Equal reports whether two layouts show the same unit: MarshalJSON
// writes the same of both.
func (l Layout) Equal(o Layout) bool {
	switch {
	case l.Vegas != nil && o.Vegas != nil:
		return l.Vegas.Equal(o.Vegas)
	case l.Yams != nil && o.Yams != nil:
		return l.Yams.Equal(o.Yams)
	}
	return l.Vegas == nil && l.Yams == nil && o.Vegas == nil && o.Yams == nil
}

// Decoder decodes JSON values given one at a time, as json.Unmarshal does,
// with one encoding/json Decoder kept from one value to the next, so that
// a value costs no decoder of its own.
type Decoder struct {
	src  valueSource
	dec  *json.Decoder
	seen int64 // the bytes given to dec
}

// valueSource gives the decoder the value being decoded, and nothing more.
type valueSource struct{ b []byte }

func (s *valueSource) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.b)
	s.b = s.b[n:]
	return n, nil
}

// errTrailing is Decode's error for data holding more than one value.
var errTrailing = errors.New("json: more than one value")

// Decode decodes data, one JSON value with nothing but white space around
// it, into v. It fails where json.Unmarshal fails, though not always with
// the same error; v is then left in any state.
func (d *Decoder) Decode(data []byte, v any) error {
	if d.dec == nil {
		d.dec, d.seen = json.NewDecoder(&d.src), 0
	}
	d.src.b = data
	start := d.seen
	d.seen += int64(len(data))
	err := d.dec.Decode(v)
	if err != nil && !errors.As(err, new(*json.UnmarshalTypeError)) {
		d.dec = nil // it may keep its error: the next value starts afresh
		return err
	}
	for _, c := range data[d.dec.InputOffset()-start:] {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			d.dec = nil // it holds what follows
			return errTrailing
		}
	}
	return err
}
