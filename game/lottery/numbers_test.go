package lottery

import (
	"strings"
	"testing"
)

// TestLayoutNumbers: numbers are accepted where the interface accepts
// them, by their value (5e-1, 1e3, 5.0 and 17.0 too), and a number that
// does not fit is quoted as a number, a number too large said to be too
// large.
func TestLayoutNumbers(t *testing.T) {
	const vegas = `{"game":"vegas","roulette":{"number":NUMBER,"amounts":{"parity":PARITY,"color":"10","half":"3","number":"100"},` +
		`"bets":{"parity":"even","color":"black","half":"low","number":23}},` +
		`"craps":[{"dice":[3,4],"amount":CRAPS},{"dice":[1,1],"amount":"5"},{"dice":[6,2],"amount":"10"}],` +
		`"poker":{"hand":["As","9d"],"community":["Ah","Kd","7c","7s","2h"]},"jackpot":{"reels":["seven","seven","cherry"],"bonus":"bar"}}`
	ticket := func(number, parity, craps string) string {
		return strings.NewReplacer("NUMBER", number, "PARITY", parity, "CRAPS", craps).Replace(vegas)
	}
	yams := func(stake, die string) string {
		return `{"game":"yams","stake":` + stake + `,"cups":[[1,2,3,5,` + die + `],[4,4,4,2,2],[6,6,1,2,3]]}`
	}
	good := map[string]string{ // layout: prize
		ticket("17", `"5"`, `"20"`):        "46",
		ticket("17.0", `5.0`, `20`):        "46",
		ticket("1.7e1", `5e0`, `2e1`):      "46",
		ticket("17", `"5"`, `1e3`):         "1026",
		ticket("17", `"5"`, `5e-1`):        "26.5",
		ticket("17", `"5"`, `0.25E+1`):     "28.5",
		ticket("18", `5`, `17.0`):          "38", // 18 is even, red, manque: parity 5 + half 3, throw 17, two pairs 10, cerise 3
		yams(`1`, `6`):                     "4",
		yams(`1.0`, `6.0`):                 "4",
		yams(`5e-1`, `6e0`):                "2",
		yams(`2E0`, `60e-1`):               "8",
		yams(`"2"`, `"6"`):                 "8",
		yams(`0.50`, `6`):                  "2",
		yams(`1`, `0.6e1`):                 "4",
		ticket("17", `"5"`, `0.0`):         "26",
		ticket("17", `"5"`, `0e999999999`): "26",
	}
	for in, want := range good {
		es := readAll(t, in)
		if len(es) != 1 || es[0].Err != nil {
			t.Errorf("%s: %+v", in, es)
			continue
		}
		if got := es[0].Layout.Prize().String(); got != want {
			t.Errorf("%s: pays %s, want %s", in, got, want)
		}
	}
	bad := map[string]string{ // layout: its error
		ticket("17", `"5"`, `5e-3`):            `craps[0].amount: amount 5e-3 has more than two decimals`,
		ticket("17", `"5"`, `-1e0`):            `craps[0].amount: amount -1e0 is negative`,
		ticket("17", `"5"`, `1e13`):            `craps[0].amount: amount 1e13 is beyond 1000000000000`,
		ticket("17", `"5"`, `1e999999999999`):  `craps[0].amount: amount 1e999999999999 is beyond 1000000000000`,
		ticket("17", `"5"`, `1e-999999999999`): `craps[0].amount: amount 1e-999999999999 has more than two decimals`,
		ticket("17.5", `"5"`, `"20"`):          `roulette.number: number 17.5 is not a whole number`,
		ticket("1e1000", `"5"`, `"20"`):        `roulette.number: number 1e1000 is too large (not between 1 and 36)`,
		ticket("3.7e1", `"5"`, `"20"`):         `roulette.number: number 3.7e1 is not between 1 and 36`,
		yams(`1`, `18446744073709551617`):      `cups[0][4]: die 18446744073709551617 is too large (not between 1 and 6)`,
		yams(`1`, `-18446744073709551617`):     `cups[0][4]: die -18446744073709551617 is not between 1 and 6`,
		yams(`1`, `6.5`):                       `cups[0][4]: die 6.5 is not a whole number`,
		yams(`1e0`, `7.0`):                     `cups[0][4]: die 7.0 is not between 1 and 6`,
		yams(`1.5`, `6`):                       `stake: 1.5 is not one of 0.5, 1, 2`,
		yams(`"1e0"`, `6`):                     `stake: "1e0" is not an amount in euros`,
	}
	for in, want := range bad {
		es := readAll(t, in)
		if len(es) != 1 || es[0].Err == nil || es[0].Err.Error() != want {
			t.Errorf("%s:\n%+v\nwant %q", in, es, want)
		}
	}
}

// TestNamesTooLarge: a block or serial past what a name holds is said to be
// too large, not "not a number".
func TestNamesTooLarge(t *testing.T) {
	cases := map[string]string{
		"yams:1:18446744073709551615:1":  `unit "yams:1:18446744073709551615:1": block 18446744073709551615 is too large (at most 9223372036854775807)`,
		"yams:1:1:9223372036854775808":   `unit "yams:1:1:9223372036854775808": serial 9223372036854775808 is too large (at most 9223372036854775807)`,
		"yams:1:QA:99999999999999999999": `forced unit "yams:1:QA:99999999999999999999": 99999999999999999999 is too large (at most 9223372036854775807)`,
		"yams:1:-99999999999999999999:1": `unit "yams:1:-99999999999999999999:1": block "-99999999999999999999" is not a number from 1`,
	}
	for name, want := range cases {
		if _, _, err := ParseName(name); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", name, err, want)
		}
	}
}

// TestDuplicateKeys: a key a layout reads, given twice in one object, is
// refused by name, on either path of the reader; a key no layout reads
// may repeat; a layout holding both games' surfaces without "game" is
// refused as ambiguous.
func TestDuplicateKeys(t *testing.T) {
	const cups = `[[1,1,1,1,1],[2,2,2,2,2],[3,3,3,3,3]]`
	cases := map[string]string{
		`{"game":"yams","cups":` + cups + `,"cups":[[6,6,6,6,6],[6,6,6,6,6],[3,3,3,3,3]]}`: `duplicate key "cups": a layout gives each key once`,
		`{"game":"yams","stake":"1","stake":"2","cups":` + cups + `}`:                      `duplicate key "stake": a layout gives each key once`,
		`{"game":"yams","game":"vegas","cups":` + cups + `}`:                               `duplicate key "game": a layout gives each key once`,
		`{"game":"yams","cups":` + cups + `,"prize":"1","prize":"5000"}`:                   `duplicate key "prize": a layout gives each key once`,
		strings.Replace(vegasLine, `"color":"10"`, `"color":"10","color":"1000"`, 1):       `duplicate key "color": a layout gives each key once`,
		strings.Replace(vegasLine, `"amount":"20"`, `"amount":"20","amount":"1"`, 1):       `duplicate key "amount": a layout gives each key once`,
		`{"cups":` + cups + `,"roulette":{"number":1}}`:                                    `game: missing, and the layout holds both "cups" (yams) and "roulette" (vegas): give "game"`,
	}
	for in, want := range cases {
		es := readAll(t, in)
		if len(es) != 1 || es[0].Err == nil || es[0].Err.Error() != want {
			t.Errorf("%s:\n%+v\nwant %q", in, es, want)
		}
		if _, err := Parse([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("Parse %s: %v", in, err)
		}
	}
	for _, in := range []string{
		`{"game":"yams","note":1,"note":2,"cups":` + cups + `}`,
		`{"cups":` + cups + `}`,
	} {
		if es := readAll(t, in); len(es) != 1 || es[0].Err != nil {
			t.Errorf("%s: %+v", in, es)
		}
	}
}
