package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
)

// keptLines is a writer that keeps the lines whose index (from 0) is in
// one of its ranges, and counts them all: a whole block's map is read
// without holding it.
type keptLines struct {
	ranges  [][2]int // [from, to)
	line    int
	partial []byte
	kept    map[int]string
}

func (k *keptLines) Write(p []byte) (int, error) {
	for _, c := range p {
		if c != '\n' {
			if k.keeps(k.line) {
				k.partial = append(k.partial, c)
			}
			continue
		}
		if k.keeps(k.line) {
			k.kept[k.line] = string(k.partial)
		}
		k.partial = k.partial[:0]
		k.line++
	}
	return len(p), nil
}

func (k *keptLines) keeps(i int) bool {
	for _, r := range k.ranges {
		if i >= r[0] && i < r[1] {
			return true
		}
	}
	return false
}

// TestPrizemapMatchesDeal writes the map of a whole Vegas block, from the
// master seed and from the block's seed, and checks it against `tapis
// deal` unit for unit over three ranges of serials (the first, the middle
// and the last of the block): the same serial, the same prize, the same
// lot, and the split each surface of the dealt ticket scores.
func TestPrizemapMatchesDeal(t *testing.T) {
	bs := game.SeedFrom(42).Block(vegas.Name, vegas.Price(), 2)
	ranges := [][2]int{{1, 1501}, {700_000, 701_000}, {1_499_001, 1_500_001}} // line 0 is the header
	for _, args := range [][]string{
		{"--seed", "42"},
		{"--block-seed", bs.String(), "--csv"},
	} {
		k := &keptLines{ranges: ranges, kept: map[int]string{}}
		var errOut bytes.Buffer
		code := Run(Env{Stdout: k, Stderr: &errOut}, append([]string{"prizemap", "--game", "vegas", "--block", "2"}, args...))
		if code != ExitOK {
			t.Fatalf("prizemap %v: exit %d: %s", args, code, errOut.String())
		}
		if k.line != 1_500_001 {
			t.Fatalf("prizemap %v: %d lines, want a header and 1 500 000 units", args, k.line)
		}
		table := vegas.Table()
		for _, r := range ranges {
			code, out, errs := run(t, "", "deal", "--unit", fmt.Sprintf("vegas:3:2:%d", r[0]), "--seed", "42", "--count", strconv.Itoa(r[1]-r[0]))
			if code != ExitOK {
				t.Fatalf("deal: exit %d: %s", code, errs)
			}
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 1<<20)
			for serial := r[0]; sc.Scan(); serial++ {
				var rec struct {
					Unit  string `json:"unit"`
					Prize string `json:"prize"`
				}
				if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
					t.Fatal(err)
				}
				l, err := lottery.Parse(sc.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				s := l.Score().Vegas
				lot := 0
				if tier, ok := table.Tier(l.Score().Prize()); ok && tier != table.Losing() {
					lot = tier + 1
				}
				want := fmt.Sprintf("%d,%d,%s,%d,%d,%d,%d", serial, lot, rec.Prize,
					s.Roulette.Prize/100, s.Craps.Prize/100, s.Poker.Prize/100, s.Jackpot.Prize/100)
				if got := k.kept[serial]; got != want || rec.Unit != fmt.Sprintf("vegas:3:2:%d", serial) {
					t.Fatalf("prizemap %v: serial %d: %q, deal gives %q (%s)", args, serial, got, want, rec.Unit)
				}
			}
		}
	}
}

// TestPrizemapFormats checks the CSV header, the JSON lines and a Yam's
// map (no split), and the usage errors.
func TestPrizemapFormats(t *testing.T) {
	k := &keptLines{ranges: [][2]int{{0, 3}}, kept: map[int]string{}}
	if code := Run(Env{Stdout: k, Stderr: &bytes.Buffer{}}, []string{"prizemap", "--game", "yams", "--stake", "0,5", "--block", "1", "--seed", "42"}); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if k.kept[0] != "serial,lot,prize" || k.line != 700_001 || !strings.HasPrefix(k.kept[1], "1,") {
		t.Errorf("yams map: %d lines, starting %v", k.line, k.kept)
	}
	k = &keptLines{ranges: [][2]int{{0, 2}}, kept: map[int]string{}}
	Run(Env{Stdout: k, Stderr: &bytes.Buffer{}}, []string{"prizemap", "--game", "vegas", "--block", "1", "--seed", "42", "--jsonl"})
	var rec struct {
		Unit   string            `json:"unit"`
		Serial int64             `json:"serial"`
		Lot    int               `json:"lot"`
		Prize  string            `json:"prize"`
		Split  map[string]string `json:"split"`
	}
	dec := json.NewDecoder(strings.NewReader(k.kept[0]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil || rec.Unit != "vegas:3:1:1" || rec.Serial != 1 || len(rec.Split) != 4 {
		t.Errorf("first line %q: %+v, %v", k.kept[0], rec, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--block", "1", "--seed", "1"}, "--game is required"},
		{[]string{"--game", "yams", "--seed", "1"}, "--block is required"},
		{[]string{"--game", "yams", "--block", "1"}, "give the block's --block-seed, or the master --seed"},
		{[]string{"--game", "yams", "--block", "1", "--seed", "1", "--block-seed", strings.Repeat("0", 64)}, "one of them"},
		{[]string{"--game", "yams", "--block", "1", "--block-seed", "xyz"}, "--block-seed: a block's seed is 64 hexadecimal digits"},
		{[]string{"--game", "yams", "--block", "1", "--seed", "1", "--csv", "--jsonl"}, "one format at a time"},
		{[]string{"--game", "vegas", "--stake", "1", "--block", "1", "--seed", "1"}, "stake 1 is not one of 3"},
	} {
		code, _, errOut := run(t, "", append([]string{"prizemap"}, c.args...)...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, errOut, ExitUsage, c.want)
		}
	}
}
