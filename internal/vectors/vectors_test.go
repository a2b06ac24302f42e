package vectors

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tapis/game/vegas"
)

// dir is where the vectors are published.
var dir = filepath.Join("..", "..", "testdata", "vectors")

// TestFilesUpToDate: the published files are what Generate writes (go run
// ./internal/cmd/vectors writes them again).
func TestFilesUpToDate(t *testing.T) {
	all, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Files {
		want, err := Encode(all[name])
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what Generate writes: go run ./internal/cmd/vectors", name)
		}
	}
}

// TestYamsByHand holds the reference scorer to art. 4.4's points and
// art. 4.5's table, as the regulation prints them (the three prize
// columns typed out, not multiplied), at every bracket's edges.
func TestYamsByHand(t *testing.T) {
	cups := map[[5]int]int{ // art. 4.4
		{1, 2, 3, 5, 6}: 0, {3, 3, 1, 2, 5}: 3, {3, 3, 1, 1, 5}: 5, {3, 3, 3, 1, 5}: 10,
		{3, 3, 3, 1, 1}: 25, {1, 2, 3, 4, 4}: 30, {6, 4, 5, 3, 3}: 30, {3, 3, 3, 3, 5}: 40,
		{2, 3, 4, 5, 6}: 45, {5, 4, 3, 2, 1}: 45, {4, 4, 4, 4, 4}: 50,
	}
	for dice, want := range cups {
		if _, got := refCup(dice); got != want {
			t.Errorf("%v: %d points, want %d", dice, got, want)
		}
	}
	// Art. 4.5's columns at 0,5 €, 1 € and 2 €, in cents; art. 4.6 for the rest.
	table := map[int][3]int64{
		0: {0, 0, 0}, 4: {0, 0, 0},
		5: {50, 100, 200}, 9: {50, 100, 200},
		10: {100, 200, 400}, 14: {100, 200, 400},
		15: {150, 300, 600}, 19: {150, 300, 600},
		20: {200, 400, 800}, 29: {200, 400, 800},
		30: {250, 500, 1000}, 49: {250, 500, 1000},
		50: {500, 1000, 2000}, 69: {500, 1000, 2000},
		70: {1000, 2000, 4000}, 79: {1000, 2000, 4000},
		80: {25000, 50000, 100000}, 99: {25000, 50000, 100000},
		100: {250000, 500000, 1000000},
		101: {0, 0, 0}, 150: {0, 0, 0},
	}
	for total, want := range table {
		for i, stake := range yamsStakes {
			if got := yamsPrize(total, stake); got != want[i] {
				t.Errorf("%d points at %d cents: %d, want %d", total, stake, got, want[i])
			}
		}
	}
}

// TestVegasByHand holds the reference scorer to tickets worked out by
// hand: interface.md's sample (46 €), the wheel's colours of ruling V1,
// and each poker and jackpot case.
func TestVegasByHand(t *testing.T) {
	var sample ticket
	doc := `{"game": "vegas",
 "roulette": {"number": 17, "amounts": {"parity": "5", "color": "10", "half": "3", "number": "100"},
              "bets": {"parity": "even", "color": "black", "half": "low", "number": 23}},
 "craps": [{"dice": [3,4], "amount": "20"}, {"dice": [1,1], "amount": "5"}, {"dice": [6,2], "amount": "10"}],
 "poker": {"hand": ["As", "9d"], "community": ["Ah", "Kd", "7c", "7s", "2h"]},
 "jackpot": {"reels": ["seven", "seven", "cherry"], "bonus": "bar"}}`
	if err := json.Unmarshal([]byte(doc), &sample); err != nil {
		t.Fatal(err)
	}
	// Black and manque win 10 + 3; 3+4 wins 20; two pairs 10; one cerise 3.
	if got, want := refVegas(sample), (surfaces{1300, 2000, 1000, 300}); got != want {
		t.Errorf("interface.md's sample: %+v, want %+v", got, want)
	}
	for n, color := range map[int]string{1: "red", 2: "black", 10: "black", 11: "black", 12: "red", 18: "red", 19: "red", 20: "black", 28: "black", 29: "black", 36: "red"} {
		var w wheel
		w.Number, w.Bets.Color, w.Amounts.Color = n, color, "1"
		if refRoulette(w) != 100 {
			t.Errorf("%d is %s on a European wheel", n, color)
		}
	}
	pokers := map[string]int64{ // hand | community: euros, by art. 4.4.3 and ruling V3
		"As 9d|Ah Kd 7c 4s 2h": 5, "As Ad|Kh 7c 4s 2h Jd": 0, "As 9d|Kh Kd 7c 4s 2h": 0,
		"As Ad|Kh Kd 7c 4s 2h": 10, "As 9d|Ah Ac 7c 4s 2h": 100, "As 9d|Kh Kd Kc 4s 2h": 0,
		"9s 9d|Kh Kd Kc 4s 2h": 1000, "As Ad|Ah Ac 7c 4s 2h": 10000, "9s 8d|Kh Kd Kc Ks 2h": 0,
		"2s 8d|Kh Kd Kc Ks 2h": 1000, "5s 6d|7c 8h 9s 2d Kc": 0, "2h 5h|8h Jh Kh 3c 9d": 0,
	}
	for deal, want := range pokers {
		hand, community, _ := strings.Cut(deal, "|")
		if _, got := refPoker(poker{strings.Fields(hand), strings.Fields(community)}); got != want*100 {
			t.Errorf("%s: %d cents, want %d €", deal, got, want)
		}
	}
	jackpots := map[string]int64{ // reels and bonus: euros, by art. 4.5.4 and ruling V4
		"seven seven seven bell": 10000, "crown bell crown crown": 1000, "bar bar bar bar": 200,
		"bell bell bell cherry": 10, "star cherry star star": 5, "seven crown cherry bar": 3,
		"seven crown bar cherry": 3, "cherry cherry bar star": 0, "cherry cherry cherry bell": 0,
		"seven seven crown crown": 0,
	}
	for row, want := range jackpots {
		s := strings.Fields(row)
		if _, got := refJackpot(slots{s[:3], s[3]}); got != want*100 {
			t.Errorf("%s: %d cents, want %d €", row, got, want)
		}
	}
}

// TestCoverage: the vectors hold every combination of Yam's, every
// bracket and losing total at every stake, every split of every Vegas lot
// in the catalogue, every poker combination and jackpot case, each with
// an article; and a few lines of the files, read as a person would, pay
// what is worked out here by hand.
func TestCoverage(t *testing.T) {
	all, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	combos, brackets := map[string]bool{}, map[string]bool{}
	for _, v := range all["yams.jsonl"] {
		for _, c := range v.Combinations {
			combos[c] = true
		}
		if _, in, ok := strings.Cut(v.Case, ", in "); ok {
			bracket, _, _ := strings.Cut(in, ":")
			brackets[v.Stake+" "+bracket] = true
		}
		if v.Article == "" {
			t.Errorf("%+v: no article", v)
		}
	}
	if len(combos) != 9 {
		t.Errorf("combinations: %v", combos)
	}
	for _, stake := range []string{"0.5", "1", "2"} {
		for _, b := range []string{"5-9", "10-14", "15-19", "20-29", "30-49", "50-69", "70-79", "80-99", "100-100"} {
			if !brackets[stake+" "+b] {
				t.Errorf("no vector at %s € in %s points", stake, b)
			}
		}
	}
	splits := map[string]int{}
	for _, v := range all["vegas.jsonl"] {
		if v.Article == "" || v.Case == "" {
			t.Errorf("%+v: no article", v)
		}
		if lot, ok := strings.CutPrefix(v.Case, "lot "); ok {
			splits[strings.Fields(lot)[0]]++
		}
	}
	for _, lot := range vegasLots {
		if n := splits[euros(lot*100)]; n != len(vegas.Splits(lot)) {
			t.Errorf("lot %d €: %d vectors, %d splits", lot, n, len(vegas.Splits(lot)))
		}
	}
	cases := map[string]bool{}
	for _, v := range all["vegas.jsonl"] {
		name, _ := refPoker(v.Poker)
		jackpot, _ := refJackpot(v.Jackpot)
		cases["poker "+name], cases["jackpot "+jackpot] = true, true
	}
	for _, p := range pokerPrizes {
		if !cases["poker "+p.name] {
			t.Errorf("no vector with poker %s", p.name)
		}
	}
	for _, j := range append(slices.Clone(jackpotTriples), struct {
		symbol string
		euros  int64
	}{"cherry", 3}) {
		if !cases["jackpot "+j.symbol] {
			t.Errorf("no vector with jackpot %s", j.symbol)
		}
	}
	// Lines of the files, worked out by hand.
	byHand := map[string]string{
		"every surface wins: odd 5 + throw 1 20 + a pair of aces 5 + one cerise 3, one lot": "33",
		"poker: the community's four kings and a pair of twos with yours: a full":           "1000",
		"jackpot: three cerises: no triple of cerises pays, nothing":                        "0",
		"craps: throws [1 2 3] make 7: their amounts add up":                                "6500", // 500 + 1000 + 5000
	}
	found := 0
	for _, v := range all["vegas.jsonl"] {
		if want, ok := byHand[v.Case]; ok {
			found++
			if v.Prize != want {
				t.Errorf("%s: %s, want %s", v.Case, v.Prize, want)
			}
		}
	}
	if found != len(byHand) {
		t.Errorf("%d of the %d vectors worked out by hand found", found, len(byHand))
	}
	ninetyFive := 0
	for _, v := range all["yams.jsonl"] {
		// 50 + 45 + 0 at 2 €: 95 points, 80-99, 500 × 2 € = 1 000 €.
		if v.Stake == "2" && *v.Points == 95 {
			ninetyFive++
			if v.Prize != "1000" {
				t.Errorf("%+v: want 1000", v)
			}
		}
	}
	if ninetyFive == 0 {
		t.Error("no unit of 95 points at 2 €")
	}
}
