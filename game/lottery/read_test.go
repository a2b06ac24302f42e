package lottery

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func readAll(t *testing.T, input string) []Entry {
	t.Helper()
	var out []Entry
	if err := Read(strings.NewReader(input), func(e Entry) { out = append(out, e) }); err != nil {
		t.Fatal(err)
	}
	return out
}

const vegasDoc = `{"game": "vegas",
 "roulette": {"number": 17,
              "amounts": {"parity": "5", "color": "10", "half": "3", "number": "100"},
              "bets": {"parity": "even", "color": "black", "half": "low", "number": 23}},
 "craps": [{"dice": [3,4], "amount": "20"}, {"dice": [1,1], "amount": "5"}, {"dice": [6,2], "amount": "10"}],
 "poker": {"hand": ["As", "9d"], "community": ["Ah", "Kd", "7c", "7s", "2h"]},
 "jackpot": {"reels": ["seven", "seven", "cherry"], "bonus": "bar"}}
`

// TestReadInterfaceExamples reads the two layouts of interface.md.
func TestReadInterfaceExamples(t *testing.T) {
	es := readAll(t, `{"game": "yams", "stake": "1", "cups": [[1,2,3,5,6], [4,4,4,2,2], [6,6,1,2,3]]}`+"\n"+vegasDoc)
	if len(es) != 2 || es[0].Err != nil || es[1].Err != nil {
		t.Fatalf("entries: %+v", es)
	}
	if es[0].Line != 1 || es[1].Line != 2 {
		t.Errorf("lines %d and %d, want 1 and 2", es[0].Line, es[1].Line)
	}
	y := es[0].Layout.Score()
	if y.Yams.Points != 28 || y.Prize().String() != "4" {
		t.Errorf("yams: %d points, %s", y.Yams.Points, y.Prize())
	}
	// 17 is odd, black and manque: colour 10 + half 3; craps 3+4: 20;
	// poker A-A with the board's 7-7: deux paires 10; one cerise: 3.
	v := es[1].Layout.Score()
	if v.Prize().String() != "46" {
		b, _ := v.MarshalJSON()
		t.Errorf("vegas: %s", b)
	}
}

// TestReadErrors checks each error names its line and field, and the layouts
// after a bad one are still read.
func TestReadErrors(t *testing.T) {
	good := `{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]}`
	cases := []struct{ input, want string }{
		{`{"game":"yams","cups":[[1,2,3,4,5],[1,2,3,4,7],[1,1,1,1,1]]}`, "cups[1][4]: die 7 is not between 1 and 6"},
		{`{"game":"yams","cups":[[1,2,3,4,5],[1,2,3,4,5]]}`, "cups: want 3 cups, got 2"},
		{`{"game":"yams","cups":[[1,2,3,4,5],[1,2,3,4],[1,1,1,1,1]]}`, "cups[1]: want 5 dice, got 4"},
		{`{"game":"yams","cups":[[1,2,3,4,"x"],[1,2,3,4,5],[1,1,1,1,1]]}`, `cups[0][4]: die x is not a whole number`},
		{`{"game":"yams","cups":[[1,2,3,4,2.5],[1,2,3,4,5],[1,1,1,1,1]]}`, `cups[0][4]: die 2.5 is not a whole number`},
		{`{"game":"yams","stake":"3","cups":[[1,2,3,4,5],[1,2,3,4,5],[1,1,1,1,1]]}`, "stake: 3 is not one of 0.5, 1, 2"},
		{`{"game":"yams","stake":"-1","cups":[]}`, "stake: amount -1 is negative"},
		{`{"game":"yams"}`, "cups: missing"},
		{`{"game":"poker"}`, `game: "poker" is not yams or vegas`},
		{`{"stake":"1"}`, `game: missing (want "yams" or "vegas")`},
		{`[1,2]`, "want a JSON object for a layout"},
		{`{"game":"yams",`, "invalid JSON"},
		{`{"game":"yams"} {"game":"vegas"}`, "more than one value"},
		{strings.Replace(vegasDoc, `"number": 17`, `"number": 0`, 1), "roulette.number: number 0 is not between 1 and 36"},
		{strings.Replace(vegasDoc, `"black"`, `"green"`, 1), `roulette.bets.color: "green" is not red or black`},
		{strings.Replace(vegasDoc, `"half": "3"`, `"half": "3.333"`, 1), "roulette.amounts.half: amount 3.333 has more than two decimals"},
		{strings.Replace(vegasDoc, `"number": 23`, `"number": 37`, 1), "roulette.bets.number: number 37 is not between 1 and 36"},
		{strings.Replace(vegasDoc, `[6,2]`, `[6,0]`, 1), "craps[2].dice[1]: die 0 is not between 1 and 6"},
		{strings.Replace(vegasDoc, `"Kd"`, `"Ah"`, 1), "poker.community[1]: card Ah appears twice"},
		{strings.Replace(vegasDoc, `"9d"`, `"9x"`, 1), `poker.hand[1]: "9x" is not a card`},
		{strings.Replace(vegasDoc, `"bar"}`, `"lemon"}`, 1), `jackpot.bonus: "lemon" is not a symbol`},
		{strings.Replace(vegasDoc, `"craps": [`, `"craps": [{"dice":[1,1],"amount":"1"}, `, 1), "craps: want 3 throws, got 4"},
		{strings.Replace(vegasDoc, `"game": "vegas",`, `"game": "vegas", "stake": "2",`, 1), "stake: 2 is not the ticket's price, 3"},
	}
	for _, c := range cases {
		input := "\n" + good + "\n" + c.input + "\n" + good + "\n"
		es := readAll(t, input)
		if len(es) != 3 {
			t.Errorf("%s: %d entries, want 3", c.want, len(es))
			continue
		}
		if es[0].Err != nil || es[2].Err != nil {
			t.Errorf("%s: good layouts around it failed: %v, %v", c.want, es[0].Err, es[2].Err)
		}
		if es[1].Line != 3 || es[1].Err == nil || !strings.Contains(es[1].Err.Error(), c.want) {
			t.Errorf("line %d: %v, want line 3: %s", es[1].Line, es[1].Err, c.want)
		}
		if want := 4 + strings.Count(c.input, "\n"); es[2].Line != want {
			t.Errorf("%s: the good layout after it is on line %d, want %d", c.want, es[2].Line, want)
		}
	}
}

// TestReadTruncated reports a document cut short at its first line.
func TestReadTruncated(t *testing.T) {
	es := readAll(t, vegasDoc[:len(vegasDoc)-20])
	if len(es) == 0 || es[0].Line != 1 || es[0].Err == nil {
		t.Fatalf("entries %+v", es)
	}
}

// TestReadDealRecords reads records with a unit and a prize, and numbers.
func TestReadDealRecords(t *testing.T) {
	es := readAll(t, `{"unit":"yams:0.5:1:3","game":"yams","stake":0.5,"cups":[[1,1,1,1,1],[1,1,1,1,1],[6,6,6,6,6]],"prize":"2500","extra":{"x":[1]}}`)
	if len(es) != 1 || es[0].Err != nil || es[0].Unit != "yams:0.5:1:3" {
		t.Fatalf("%+v", es)
	}
	// Three yam's make 150 points, which pays nothing (art. 4.6): the
	// reader scores the layout, not the record's "prize".
	if p := es[0].Layout.Score().Prize(); !p.IsZero() {
		t.Errorf("150 points pay %s", p)
	}
}

// TestLayoutRoundTrip writes dealt layouts and reads them back identical.
func TestLayoutRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, g := range Games() {
		for _, stake := range g.Stakes {
			tb, _ := g.Table(stake)
			for tier := range tb.Tiers() {
				l := g.Deal(r, stake, tier)
				b, err := Record(l, "x:1:1:1", tb.Prize(tier).String(), false)
				if err != nil {
					t.Fatal(err)
				}
				back, err := Parse(b)
				if err != nil {
					t.Fatalf("%s: %v", b, err)
				}
				if !reflect.DeepEqual(normal(back), normal(l)) {
					t.Fatalf("%s read back differently", b)
				}
				if !back.Score().Prize().Equal(tb.Prize(tier)) {
					t.Fatalf("%s scores %s", b, back.Score().Prize())
				}
			}
		}
	}
}

// normal rewrites amounts so that equal amounts compare equal: a Yam's
// stake is a decimal (a ticket's amounts are cents, equal when equal).
func normal(l Layout) Layout {
	if l.Yams != nil {
		u := *l.Yams
		u.Stake = decimal.RequireFromString(u.Stake.String())
		return Layout{Yams: &u}
	}
	return l
}
