package lottery

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// vegasLine is a whole Vegas layout on one line, with its unit.
const vegasLine = `{"unit":"vegas:3:1:7","game":"vegas","roulette":{"number":17,"amounts":{"parity":"5","color":"10","half":"3","number":"100"},` +
	`"bets":{"parity":"even","color":"black","half":"low","number":23}},` +
	`"craps":[{"dice":[3,4],"amount":"20"},{"dice":[1,1],"amount":"5"},{"dice":[6,2],"amount":"10"}],` +
	`"poker":{"hand":["As","9d"],"community":["Ah","Kd","7c","7s","2h"]},"jackpot":{"reels":["seven","seven","cherry"],"bonus":"bar"},"prize":"46"}`

// slowEntry reads one line field by field only, as the reader did before
// its fast path.
func slowEntry(n int, line []byte) Entry {
	var r reader
	raw, err := r.value(line)
	if err != nil {
		return Entry{Line: n, Err: err}
	}
	return parse(n, raw)
}

// describeEntry writes all an entry says, for comparisons.
func describeEntry(e Entry) string {
	if e.Err != nil {
		return fmt.Sprintf("line %d: unit %q: error %v", e.Line, e.Unit, e.Err)
	}
	b, err := e.Layout.MarshalJSON()
	return fmt.Sprintf("line %d: unit %q: %s %v raw %s", e.Line, e.Unit, b, err, e.Raw)
}

// TestFastPathAgrees: whatever a line holds, the reader's entry is the one
// reading it field by field gives: the same layout, or the same error, byte
// for byte. The cases are those where a typed decode and a field-by-field
// reading part: letter case, repeated names, nulls, numbers as strings,
// arrays too long, names escaped or folding to ASCII.
func TestFastPathAgrees(t *testing.T) {
	yams := `{"unit":"yams:1:1:1","game":"yams","stake":"1","cups":[[1,2,3,5,6],[4,4,4,2,2],[6,6,1,2,3]],"prize":"4"}`
	edits := []struct{ old, new string }{
		{``, ``},
		{`"cups"`, `"Cups"`},
		{`"cups"`, `"CUPS"`},
		{`"game"`, `"Game"`},
		{`"stake"`, `"ſtake"`},
		{`"stake"`, `"\u0073take"`},
		{`"stake":"1"`, `"stake":"1","stake":"2"`},
		{`"stake":"1"`, `"stake":null`},
		{`"stake":"1"`, `"stake":1`},
		{`"stake":"1"`, `"stake":"1.00"`},
		{`"stake":"1"`, `"stake":"0,5"`},
		{`"stake":"1"`, `"stake":"3"`},
		{`"stake":"1"`, `"stake":""`},
		{`"stake":"1",`, ``},
		{`"game":"yams",`, ``},
		{`"game":"yams"`, `"game":"YAMS"`},
		{`"game":"yams"`, `"game":null`},
		{`"game":"yams"`, `"game":"vegas"`},
		{`"unit":"yams:1:1:1"`, `"unit":5`},
		{`"unit":"yams:1:1:1"`, `"unit":null`},
		{`[1,2,3,5,6]`, `[1,2,3,5,6,1]`},
		{`[1,2,3,5,6]`, `[1,2,3,5]`},
		{`[1,2,3,5,6]`, `[1,2,3,5,"6"]`},
		{`[1,2,3,5,6]`, `[1,2,3,5,6.0]`},
		{`[1,2,3,5,6]`, `[1,2,3,5,7]`},
		{`[1,2,3,5,6]`, `[1,2,3,5,null]`},
		{`[1,2,3,5,6]`, `null`},
		{`[6,6,1,2,3]]`, `[6,6,1,2,3],[1,1,1,1,1]]`},
		{`"cups":[[1,2,3,5,6],`, `"cups":[[6,6,6,6,6]],"cups":[[1,2,3,5,6],`},
		{`{"unit"`, `null`},
		{`}`, `} `},
		{`}`, `}}`},
	}
	vegas := []struct{ old, new string }{
		{``, ``},
		{`"roulette":{`, `"Roulette":{`},
		{`"roulette":{"number":17,`, `"roulette":{"number":17},"roulette":{`},
		{`"craps":[{"dice":[3,4],"amount":"20"},`, `"craps":[{"dice":[3,4]},`},
		{`"craps":[{"dice":[3,4],"amount":"20"},`, `"craps":[{"dice":[3,4],"amount":"20","amount":"21"},`},
		{`"craps":[{"dice":[3,4],"amount":"20"},`, `"craps":[{"dice":[3,4],"dice":[5],"amount":"20"},`},
		{`{"dice":[6,2],"amount":"10"}]`, `{"dice":[6,2],"amount":"10"},{"dice":[6,2],"amount":"10"}]`},
		{`"amount":"20"`, `"amount":20`},
		{`"amount":"20"`, `"amount":"20.001"`},
		{`"number":17`, `"number":"17"`},
		{`"number":17`, `"number":37`},
		{`"number":23`, `"number":0`},
		{`"parity":"even"`, `"parity":"PAIR"`},
		{`"parity":"even"`, `"parity":"odd "`},
		{`"parity":"even"`, `"parity":"maybe"`},
		{`"parity":"5"`, `"parity":null`},
		{`"bonus":"bar"`, `"bonus":"Étoile"`},
		{`"bonus":"bar"`, `"bonus":"bonus"`},
		{`"bonus":"bar",`, ``},
		{`"reels":["seven","seven","cherry"]`, `"reels":["seven","seven"]`},
		{`"As"`, `"10h"`},
		{`"As"`, `"Ah"`},
		{`"As"`, `"Xx"`},
		{`["Ah","Kd","7c","7s","2h"]`, `["Ah","Kd","7c","7s"]`},
		{`"game":"vegas",`, `"game":"vegas","stake":"3",`},
		{`"game":"vegas",`, `"game":"vegas","stake":"3.00",`},
		{`"game":"vegas",`, `"game":"vegas","stake":"1",`},
		{`"game":"vegas",`, ``},
		{`"jackpot":{`, `"jackpot":null,"jackpot2":{`},
		{`"hand"`, `"han\u0064"`},
		{`"hand"`, `"HAND"`},
		{`{"unit"`, `[{"unit"`}, // last: the value it opens never closes
	}
	for _, line := range []string{yams, vegasLine, vegasDoc} {
		var f LayoutFields
		if _, ok := parseFast(bytes.TrimSpace([]byte(line)), &f, nil); !ok {
			t.Errorf("the fast path does not take %s", line)
		}
	}
	var lines []string
	for _, e := range edits {
		lines = append(lines, strings.Replace(yams, e.old, e.new, 1))
	}
	for _, e := range vegas {
		lines = append(lines, strings.Replace(vegasLine, e.old, e.new, 1))
	}
	got := readAllLines(t, strings.Join(lines, "\n"))
	if len(got) != len(lines) {
		t.Fatalf("%d entries for %d lines", len(got), len(lines))
	}
	for i, line := range lines {
		want := slowEntry(i+1, []byte(line))
		if describeEntry(got[i]) != describeEntry(want) {
			t.Errorf("%s\nread:  %s\nwant:  %s", line, describeEntry(got[i]), describeEntry(want))
		}
		l, err := Parse([]byte(line))
		if p := parse(0, []byte(line)); fmt.Sprint(err) != fmt.Sprint(p.Err) || err == nil && !l.Equal(p.Layout) {
			t.Errorf("%s\nParse: %v, want %v", line, err, p.Err)
		}
	}
}

func readAllLines(t *testing.T, input string) []Entry {
	t.Helper()
	var es []Entry
	if err := Read(strings.NewReader(input), func(e Entry) { es = append(es, e) }); err != nil {
		t.Fatal(err)
	}
	return es
}

// TestFastPathForgets: a line read after another leaves nothing of it in
// the reused fields: a throw without its amount is missing its amount, a
// null die is missing.
func TestFastPathForgets(t *testing.T) {
	second := strings.Replace(vegasLine, `{"dice":[1,1],"amount":"5"}`, `{"dice":[1,1]}`, 1)
	second = strings.Replace(second, `"bonus":"bar"`, `"bonus":null`, 1)
	third := strings.Replace(strings.Replace(vegasLine, `"As"`, `null`, 1), `[6,2]`, `[6,null]`, 1)
	es := readAllLines(t, vegasLine+"\n"+second+"\n"+`{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,2]]}`+"\n"+
		`{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]}`+"\n"+`{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,null],[3,3,3,3,3]]}`+"\n"+
		vegasLine+"\n"+third+"\n"+vegasLine+"\n"+strings.Replace(vegasLine, `[6,2]`, `[6,null]`, 1))
	if len(es) != 9 || es[0].Err != nil || es[3].Err != nil || es[5].Err != nil || es[7].Err != nil {
		t.Fatalf("%v", es)
	}
	if es[1].Err == nil || es[1].Err.Error() != "craps[1].amount: missing" {
		t.Errorf("second line: %v", es[1].Err)
	}
	if es[2].Err == nil || es[2].Err.Error() != "cups: want 3 cups, got 2" {
		t.Errorf("third line: %v", es[2].Err)
	}
	for i, want := range map[int]string{4: "cups[1][4]: missing", 6: "craps[2].dice[1]: missing", 8: "craps[2].dice[1]: missing"} {
		if es[i].Err == nil || es[i].Err.Error() != want {
			t.Errorf("line %d: %v, want %s", i+1, es[i].Err, want)
		}
	}
}

// FuzzFastPath: a layout the typed decode takes, into fields that read
// other layouts before, is the one the field-by-field reader reads, with
// the same unit.
func FuzzFastPath(f *testing.F) {
	f.Add([]byte(vegasLine))
	f.Add([]byte(goodLine))
	f.Add([]byte(`{"unit":"yams:1:1:1","game":"yams","stake":"0.5","cups":[[1,2,3,5,6],[4,4,4,2,2],[6,6,1,2,3]],"prize":"4"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var fields LayoutFields // holding what two layouts left in it
		var dec Decoder
		parseFast([]byte(vegasLine), &fields, &dec)
		parseFast([]byte(`{"game":"yams","cups":[[6,6,6,6,6],[6,6,6,6,6],[6,6,6,6,6]]}`), &fields, &dec)
		l, ok := parseFast(bytes.TrimSpace(data), &fields, &dec)
		if !ok {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("the fast path took invalid JSON")
		}
		e := parse(0, bytes.TrimSpace(data))
		if e.Err != nil {
			t.Fatalf("the fast path took a layout the reader refuses: %v", e.Err)
		}
		if !l.Equal(e.Layout) || fields.Unit != e.Unit {
			a, _ := l.MarshalJSON()
			b, _ := e.Layout.MarshalJSON()
			t.Fatalf("fast %s unit %q, field by field %s unit %q", a, fields.Unit, b, e.Unit)
		}
	})
}

// TestAppendMemberPlain: a member whose strings need no escaping is
// written as encoding/json writes it.
func TestAppendMemberPlain(t *testing.T) {
	for _, s := range []string{"yams:1:1:1", "", "a b", "<", "&", "é", "\x7f", "\x00", `"`, `\`, "\u2028", "\xff"} {
		got, err := AppendMember([]byte(`{"a":1}`), "unit", s)
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if w := `{"a":1,"unit":` + strings.TrimSuffix(want.String(), "\n") + `}`; err != nil || string(got) != w {
			t.Errorf("%q: %s, want %s (%v)", s, got, w, err)
		}
	}
}

// TestDecoderAgrees: a Decoder given values one after another, good and
// bad, decodes each as json.Unmarshal does, whatever came before it.
func TestDecoderAgrees(t *testing.T) {
	type value struct {
		A int      `json:"a"`
		B []string `json:"b"`
	}
	inputs := []string{`{"a":1,"b":["x"]}`, ` {"a":2} `, `{"a":"x"}`, `{"a":3}`, `{"a":`, `{"a":4}`, `{"a":5} {"a":6}`,
		`{"a":7}`, `5`, `{"a":8}`, ``, `  `, `{"a":9}}`, `{"a":10}`, `{"a":11} x`, `{"a":12}` + "\r", `[1]`, `{"a":13,"b":null}`, `null`, `{"a":1e400}`, `{"a":14}`}
	var dec Decoder
	for _, in := range inputs {
		var got, want value
		err := dec.Decode([]byte(in), &got)
		werr := json.Unmarshal([]byte(in), &want)
		if (err == nil) != (werr == nil) || err == nil && fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: %+v, %v; json.Unmarshal %+v, %v", in, got, err, want, werr)
		}
	}
}

// TestPlain: a name of the type in another case, escaped, or twice in one
// object makes JSON not plain; the same name in two objects, or a name the
// type does not know, does not.
func TestPlain(t *testing.T) {
	for _, name := range layoutKeys.names {
		upper := strings.ToUpper(name[:1]) + name[1:]
		cases := map[string]bool{
			`{"` + name + `":1}`:                                      true,
			`{"` + name + `":1,"x":{"` + name + `":2}}`:               true,
			`[{"` + name + `":1},{"` + name + `":2}]`:                 true,
			`{"` + name + `":"` + upper + `"}`:                        true,
			`{"` + upper + `":1}`:                                     false,
			`{"` + strings.ToUpper(name) + `":1}`:                     false,
			`{"` + name + `":1,"` + name + `":2}`:                     false,
			`{"` + name + `":{"a":[1,{"b":2}]},"` + name + `":2}`:     false,
			`{"\u00` + fmt.Sprintf("%x", name[0]) + name[1:] + `":1}`: false,
			`{"` + name + `x":1,"` + name + `x":2}`:                   true,
			`{"` + name + `":"a\"b}","x":{"` + name + `":2}}`:         true,
		}
		for in, want := range cases {
			if !json.Valid([]byte(in)) {
				t.Fatalf("%s is not JSON", in)
			}
			if got := layoutKeys.Plain([]byte(in)); got != want {
				t.Errorf("%s: plain %v, want %v", in, got, want)
			}
			if ref := plainByTokens(layoutKeys, []byte(in)); ref != want && !strings.Contains(in, `\u00`) {
				t.Errorf("%s: plain by tokens %v, want %v", in, ref, want)
			}
		}
	}
	for in, want := range map[string]bool{`{"ſtake":1}`: false, `{"\u212Aind":1}`: false, `{"a":"é"}`: true, `{"` + strings.Repeat("x", 40) + `":1}`: true} {
		if got := layoutKeys.Plain([]byte(in)); got != want {
			t.Errorf("%s: plain %v, want %v", in, got, want)
		}
	}
}

// plainByTokens tells, from encoding/json's tokens, whether a typed decode
// of data could read other members than reading them one by one: a name
// that folds to one of the type's without being it, or one of the type's
// twice in an object. FuzzPlain holds Plain to it.
func plainByTokens(k *Keys, data []byte) bool {
	type open struct {
		object, wantKey bool
		seen            map[string]bool
	}
	var stack []*open
	done := func() { // a value ended: its object wants a name next
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		top := (*open)(nil)
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				stack = append(stack, &open{object: t == '{', wantKey: t == '{', seen: map[string]bool{}})
			default:
				stack = stack[:len(stack)-1]
				done()
			}
		case string:
			if top == nil || !top.object || !top.wantKey {
				done()
				break
			}
			top.wantKey = false
			for _, name := range k.names {
				switch {
				case name == t && top.seen[t]:
					return false
				case name == t:
					top.seen[t] = true
				case strings.EqualFold(name, t):
					return false
				}
			}
		default:
			done()
		}
	}
}

// FuzzPlain: what Plain calls plain is plain by encoding/json's tokens.
func FuzzPlain(f *testing.F) {
	f.Add([]byte(vegasLine))
	f.Add([]byte(goodLine))
	f.Add([]byte(`{"cups":[{"cups":1}],"Cups":2}`))
	f.Add([]byte(`{"a":{"roulette":1,"roulette":2}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) && layoutKeys.Plain(data) && !plainByTokens(layoutKeys, data) {
			t.Fatalf("%s is called plain", data)
		}
	})
}
