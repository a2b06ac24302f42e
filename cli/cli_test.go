package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
	"tapis/store/journal"
)

// run runs the program with args and stdin, and returns its status and
// outputs.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

func TestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"dance"}, `unknown command "dance"`},
		{[]string{"score", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"deal"}, "--game is required"},
		{[]string{"deal", "--game", "poker"}, `game "poker" is not yams or vegas`},
		{[]string{"deal", "--game", "yams", "--stake", "3"}, "stake 3 is not one of 0.5, 1, 2 for yams"},
		{[]string{"deal", "--game", "vegas", "--stake", "1"}, "stake 1 is not one of 3 for vegas"},
		{[]string{"deal", "--game", "yams", "--prize", "7"}, "--prize 7 is not a lot of yams at stake 1"},
		{[]string{"deal", "--game", "yams", "--prize", "abc"}, `--prize: "abc" is not an amount`},
		{[]string{"deal", "--game", "yams", "--count", "0"}, "--count 0: want at least 1"},
		{[]string{"deal", "--game", "yams", "--count", "x"}, `invalid value "x" for flag -count`},
		{[]string{"deal", "--game", "yams", "--seed", "-4"}, `"-4" is not a seed: 64 hexadecimal digits, or a whole number from 0`},
		{[]string{"deal", "--unit", "yams:1:1:1"}, "--unit needs the session's --seed"},
		{[]string{"deal", "--unit", "yams:1:1", "--seed", "1"}, "want GAME:STAKE:BLOCK:SERIAL"},
		{[]string{"deal", "--unit", "yams:1:1:700001", "--seed", "1"}, "not in a block of 700000 units"},
		{[]string{"deal", "--unit", "yams:3:1:1", "--seed", "1"}, "stake 3 is not one of 0.5, 1, 2"},
		{[]string{"deal", "--unit", "yams:1:1:1", "--seed", "1", "--game", "vegas"}, "--game vegas does not match"},
		{[]string{"deal", "--game", "yams", "extra"}, `unexpected argument "extra"`},
		{[]string{"audit"}, "--game is required"},
		{[]string{"audit", "--game", "yams", "--blocks", "0"}, "--blocks 0: want 1 to 1000000"},
		{[]string{"audit", "--game", "vegas", "--stake", "0.5"}, "stake 0.5 is not one of 3"},
		{[]string{"score", "/no/such/file"}, "no such file"},
	}
	for _, c := range cases {
		code, _, errOut := run(t, "", c.args...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", c.args, code, ExitUsage)
		}
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%v: stderr %q, want %q", c.args, errOut, c.want)
		}
		if c.args != nil && strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("%v: error on more than one line: %q", c.args, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{}, {"help"}, {"--help"}, {"deal", "-h"}, {"audit", "--help"}, {"score", "-h"}} {
		code, out, _ := run(t, "", args...)
		if code != ExitOK || out == "" {
			t.Errorf("%v: exit %d, output %q", args, code, out)
		}
	}
}

// TestScoreErrors checks an invalid layout is named by line and field, exits
// 1, and does not stop the others from being scored.
func TestScoreErrors(t *testing.T) {
	input := `{"game":"yams","stake":"1","cups":[[1,2,3,5,6],[4,4,4,2,2],[6,6,1,2,3]]}

{"game":"yams","stake":"1","cups":[[1,2,3,5,6],[4,4,4,2,2],[6,6,1,2,7]]}
{"game":"yams","stake":"2","cups":[[1,2,3,4,5],[4,4,4,2,2],[6,6,1,2,3]]}
`
	code, out, errOut := run(t, input, "score", "--json")
	if code != ExitInvalid {
		t.Errorf("exit %d, want 1", code)
	}
	if errOut != "line 3: cups[2][4]: die 7 is not between 1 and 6\n" {
		t.Errorf("stderr %q", errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{
		`{"game":"yams","stake":"1","cups":[{"combination":"none","points":0},{"combination":"full_house","points":25},{"combination":"pair","points":3}],"points":28,"prize":"4"}`,
		`{"game":"yams","stake":"2","cups":[{"combination":"large_straight","points":45},{"combination":"full_house","points":25},{"combination":"pair","points":3}],"points":73,"prize":"40"}`,
	}
	if len(lines) != 2 || lines[0] != want[0] || lines[1] != want[1] {
		t.Errorf("output:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
	// The readable table names the same layouts.
	code, out, _ = run(t, input, "score")
	if code != ExitInvalid || !strings.Contains(out, "full house 25") || !strings.Contains(out, "€40.00") {
		t.Errorf("table (exit %d):\n%s", code, out)
	}
}

// TestScoreReadsDealOutput deals every lot of every game and stake, and
// units drawn from blocks, then scores the records back to their prizes.
func TestScoreReadsDealOutput(t *testing.T) {
	var deals []string
	lots := map[string][]string{
		"0.5":   {"2500", "250", "10", "5", "2.5", "2", "1.5", "1", "0.5", "0"},
		"1":     {"5000", "500", "20", "10", "5", "4", "3", "2", "1", "0"},
		"2":     {"10000", "1000", "40", "20", "10", "8", "6", "4", "2", "0"},
		"vegas": {"40000", "10000", "1000", "200", "50", "25", "10", "5", "3", "0"},
	}
	for stake, prizes := range lots {
		args := []string{"deal", "--game", "yams", "--stake", stake}
		if stake == "vegas" {
			args = []string{"deal", "--game", "vegas"}
		}
		for _, p := range prizes {
			code, out, errOut := run(t, "", append(args, "--prize", p, "--count", "20", "--seed", "3")...)
			if code != ExitOK {
				t.Fatalf("%v --prize %s: %d %s", args, p, code, errOut)
			}
			deals = append(deals, out)
		}
		code, out, errOut := run(t, "", append(args, "--count", "500", "--seed", "4")...)
		if code != ExitOK {
			t.Fatalf("%v: %d %s", args, code, errOut)
		}
		deals = append(deals, out)
	}
	input := strings.Join(deals, "")
	code, out, errOut := run(t, input, "score", "--json")
	if code != ExitOK || errOut != "" {
		t.Fatalf("score: exit %d, %s", code, errOut)
	}
	in := bufio.NewScanner(strings.NewReader(input))
	in.Buffer(nil, 1<<20)
	outLines := strings.Split(strings.TrimSpace(out), "\n")
	i := 0
	for in.Scan() {
		var rec, got struct {
			Prize string `json:"prize"`
			Unit  string `json:"unit"`
		}
		if err := json.Unmarshal(in.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(outLines[i]), &got); err != nil {
			t.Fatal(err)
		}
		if got.Prize != rec.Prize || got.Unit != rec.Unit {
			t.Fatalf("record %s scored %s", in.Text(), outLines[i])
		}
		i++
	}
	if i != len(outLines) || i < 2000 {
		t.Errorf("%d records, %d scores", i, len(outLines))
	}
}

// TestDealUnit finds a unit again by identity and seed.
func TestDealUnit(t *testing.T) {
	for _, game := range []string{"yams", "vegas"} {
		_, out, _ := run(t, "", "deal", "--game", game, "--count", "40", "--seed", "99")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		for _, i := range []int{0, 17, 39} {
			var rec struct {
				Unit string `json:"unit"`
			}
			json.Unmarshal([]byte(lines[i]), &rec)
			code, again, errOut := run(t, "", "deal", "--unit", rec.Unit, "--seed", "99")
			if code != ExitOK || strings.TrimSpace(again) != lines[i] {
				t.Errorf("unit %s: %d %s\n%s\nwant\n%s", rec.Unit, code, errOut, again, lines[i])
			}
		}
		// --count goes on from the unit.
		var first struct {
			Unit string `json:"unit"`
		}
		json.Unmarshal([]byte(lines[10]), &first)
		_, again, _ := run(t, "", "deal", "--unit", first.Unit, "--seed", "99", "--count", "3")
		if strings.TrimSpace(again) != strings.Join(lines[10:13], "\n") {
			t.Errorf("--unit %s --count 3:\n%s", first.Unit, again)
		}
	}
}

func TestDealIsReproducible(t *testing.T) {
	_, a, _ := run(t, "", "deal", "--game", "vegas", "--count", "5", "--seed", "1")
	_, b, _ := run(t, "", "deal", "--game", "vegas", "--count", "5", "--seed", "1")
	_, c, _ := run(t, "", "deal", "--game", "vegas", "--count", "5")
	if a != b || a == c {
		t.Errorf("seeded deals differ, or an unseeded one repeats them")
	}
	_, forced, _ := run(t, "", "deal", "--game", "yams", "--stake", "0,5", "--prize", "2500", "--seed", "1")
	if !strings.Contains(forced, `"prize":"2500","forced":true}`) || strings.Contains(forced, `"unit"`) {
		t.Errorf("forced record %s", forced)
	}
}

// TestScoreFiles reads files, several at once, and names them in errors.
func TestScoreFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(good, []byte(`{"game":"yams","cups":[[1,1,1,1,1],[2,2,2,2,2],[6,6,1,1,3]]}`), 0o644)
	os.WriteFile(bad, []byte("{\"game\":\"yams\"}\n"), 0o644)
	code, out, errOut := run(t, "", "score", good, bad, "--json")
	if code != ExitInvalid || !strings.Contains(out, `"points":105`) || !strings.Contains(out, `"prize":"0"`) {
		t.Errorf("exit %d, out %s", code, out)
	}
	if errOut != bad+": line 1: cups: missing\n" {
		t.Errorf("stderr %q", errOut)
	}
}

func TestAuditJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("whole blocks: skipped with -short")
	}
	code, out, errOut := run(t, "", "audit", "--game", "vegas", "--seed", "8", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var r struct {
		Game   string  `json:"game"`
		Stake  *string `json:"stake"`
		Blocks int     `json:"blocks"`
		Units  int     `json:"units"`
		Tiers  []struct {
			Prize    string `json:"prize"`
			Expected int64  `json:"expected"`
			Counted  int64  `json:"counted"`
		} `json:"tiers"`
		Mismatches int     `json:"mismatches"`
		RTP        string  `json:"rtp"`
		Seconds    float64 `json:"seconds"`
		UPS        int64   `json:"units_per_second"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatal(err)
	}
	if r.Game != "vegas" || r.Stake != nil || r.Units != 1_500_000 || r.RTP != "0.7" || r.Mismatches != 0 || len(r.Tiers) != 10 || r.UPS <= 0 {
		t.Errorf("report %+v", r)
	}
	if r.Tiers[0].Prize != "40000" || r.Tiers[0].Expected != 2 || r.Tiers[9].Prize != "0" || r.Tiers[9].Counted != 1_158_471 {
		t.Errorf("tiers %+v", r.Tiers)
	}
	code, out, _ = run(t, "", "audit", "--game", "yams", "--stake", "2", "--seed", "8")
	if code != ExitOK || !strings.Contains(out, "€10,000.00") || !strings.Contains(out, "return to player: 70 %") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestVerify checks the exit statuses of tapis verify.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	start := startedJournal(t, good)
	code, out, _ := run(t, "", "verify", "--journal", good)
	if code != ExitOK || !strings.Contains(out, "ok: nothing in the journal contradicts it") {
		t.Errorf("exit %d: %s", code, out)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(start+`{"kind":"shown","unit":"x"}`+"\n"), 0o600)
	code, out, errOut := run(t, "", "verify", bad, "--json")
	if code != ExitInvalid || !strings.Contains(out, `"problem":"unit x is shown but was never bought"`) || !strings.Contains(out, "not signed by the house") || !strings.Contains(errOut, ": 2 problems found") {
		t.Errorf("exit %d: %s %s", code, out, errOut)
	}
	if code, _, errOut := run(t, "", "verify"); code != ExitUsage || !strings.Contains(errOut, "--journal FILE or --store URL is required") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, _ := run(t, "", "verify", "--journal", filepath.Join(dir, "none")); code != ExitUsage {
		t.Errorf("missing journal: exit %d", code)
	}
	// A journal others may read: it holds its master seed.
	os.Chmod(good, 0o644)
	want := "tapis verify: journal " + good + " can be read by others (mode 0644): chmod 600 " + good
	if code, _, errOut := run(t, "", "verify", good); code != ExitUsage || strings.TrimSpace(errOut) != want {
		t.Errorf("a journal readable by others: exit %d, %q", code, errOut)
	}
}

// TestDealSaysItsSeed: deal without --seed says the seed it drew, and that
// seed deals the same units again; score of a missing file prints no
// table, only its error.
func TestDealSaysItsSeed(t *testing.T) {
	code, out, errOut := run(t, "", "deal", "--game", "yams", "--count", "2")
	seed, ok := strings.CutPrefix(strings.TrimSpace(errOut), "tapis deal: seed ")
	if code != 0 || !ok {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var rec struct{ Unit string }
	json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rec)
	_, again, _ := run(t, "", "deal", "--game", "yams", "--unit", rec.Unit, "--seed", seed)
	if strings.SplitN(out, "\n", 2)[0] != strings.TrimSpace(again) {
		t.Errorf("the seed said does not deal %s again:\n%s\n%s", rec.Unit, out, again)
	}
	code, out, errOut = run(t, "", "score", filepath.Join(t.TempDir(), "none.jsonl"))
	if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
		t.Errorf("score of a missing file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// startedJournal makes a new journal at path, signed by the tests' key,
// holding its start line alone, and returns that line.
func startedJournal(t *testing.T, path string) string {
	t.Helper()
	j, err := journal.Open(journal.Options{Path: path, Key: ledger.PublicTestKey(), Seed: game.SeedFrom(1), SeedSet: true, Balance: decimal.NewFromInt(100), Account: "local"})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
