package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/session"
	"tapis/store/journal"
	"tapis/ui"
	"tapis/wallet"
)

// simJSON is simulate's --json object, every key of interface.md's
// required.
type simJSON struct {
	Game  string  `json:"game"`
	Stake *string `json:"stake"`
	Seed  string  `json:"seed"`
	Units int64   `json:"units"`
	// Strings, so that a number in their place fails to decode.
	Staked, Won, RTP, Balance string
	Tiers                     []struct {
		Prize    string  `json:"prize"`
		Counted  int64   `json:"counted"`
		Expected float64 `json:"expected"`
	} `json:"tiers"`
	Mismatches     int64   `json:"mismatches"`
	Short          bool    `json:"short"`
	Seconds        float64 `json:"seconds"`
	UnitsPerSecond int64   `json:"units_per_second"`
	// Statistics is decoded with its own keys checked, in
	// simulate_stats_test.go.
	Statistics *statsJSON `json:"statistics"`
}

// simulateJSON runs simulate --json with args and decodes its last line,
// failing the test unless it exits 0 with one JSON object holding every key.
func simulateJSON(t *testing.T, args ...string) simJSON {
	t.Helper()
	code, out, errOut := run(t, "", append([]string{"simulate", "--json"}, args...)...)
	if code != ExitOK {
		t.Fatalf("simulate %q: exit %d, stderr %q", args, code, errOut)
	}
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("simulate %q --json: want one line, got %q", args, out)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &keys); err != nil {
		t.Fatalf("simulate %q --json: %v: %q", args, err, out)
	}
	for _, k := range []string{"units", "staked", "won", "rtp", "tiers", "seconds", "units_per_second"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("simulate --json: no %q in %s", k, out)
		}
	}
	var s simJSON
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("simulate %q --json: %v: %s", args, err, out)
	}
	return s
}

// dealtPrizes deals the first n units a session of seed sells of a game at
// a stake, with tapis deal, and returns their prizes: the units simulate
// plays, dealt by another command.
func dealtPrizes(t *testing.T, g, stake string, n int, seed string) []decimal.Decimal {
	t.Helper()
	code, out, errOut := run(t, "", "deal", "--game", g, "--stake", stake, "--count", strconv.Itoa(n), "--seed", seed)
	if code != ExitOK {
		t.Fatalf("deal: exit %d: %s", code, errOut)
	}
	var prizes []decimal.Decimal
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var rec struct{ Prize decimal.Decimal }
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		prizes = append(prizes, rec.Prize)
	}
	return prizes
}

// TestSimulateSummary: the summary line is the game's, in both languages,
// and says what the units dealt by tapis deal from the same seed stake and
// pay; without --balance the wallet starts with what they cost.
func TestSimulateSummary(t *testing.T) {
	const n = 400
	won := decimal.Zero
	for _, p := range dealtPrizes(t, "yams", "0.5", n, "42") {
		won = won.Add(p)
	}
	staked := decimal.NewFromFloat(0.5).Mul(decimal.NewFromInt(n))
	balance := staked.Sub(staked).Add(won) // the wallet held what the units cost
	for _, lang := range []ui.Lang{ui.English, ui.French} {
		code, out, errOut := run(t, "", "simulate", "--stake", "0,5", "--count", strconv.Itoa(n), "--seed", "42", "--lang", string(lang))
		if code != ExitOK || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %q", lang, code, errOut)
		}
		l := string(lang)
		want := "played 400 · staked " + wallet.Format(staked, l) + " · won " + wallet.Format(won, l) + " · balance " + wallet.Format(balance, l)
		if lang == ui.French {
			want = "parties 400 · misé " + wallet.Format(staked, l) + " · gagné " + wallet.Format(won, l) + " · solde " + wallet.Format(balance, l)
		}
		if first, _, _ := strings.Cut(out, "\n"); first != want {
			t.Errorf("%s: summary %q, want %q", lang, first, want)
		}
		if seed := game.SeedFrom(42).String(); !strings.Contains(out, "seed "+seed) && !strings.Contains(out, "graine "+seed) {
			t.Errorf("%s: the seed is not said:\n%s", lang, out)
		}
	}
}

// TestSimulateSummaryIsTheGames: with a wallet that pays nothing, the
// simulation plays nothing, and its line is the one the game prints when
// it quits having played nothing, from the game's own code.
func TestSimulateSummaryIsTheGames(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		code, out, _ := run(t, "", "simulate", "--balance", "0,40", "--stake", "0.5", "--lang", lang, "--seed", "3")
		o, err := GameArgs([]string{"yams", "--balance", "0,40", "--lang", lang, "--seed", "3"}, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		m, err := o.Open()
		if err != nil {
			t.Fatal(err)
		}
		game := m.Summary()
		m.Close()
		if first, _, _ := strings.Cut(out, "\n"); code != ExitOK || first != game {
			t.Errorf("%s: exit %d, summary %q, the game's %q", lang, code, first, game)
		}
	}
}

// TestSimulateJSON: the object's sums hold, its tiers count the units
// tapis deal deals from the same seed, and expected is units × the lot's
// count / the block's units.
func TestSimulateJSON(t *testing.T) {
	for _, c := range []struct{ game, stake string }{{"yams", "2"}, {"vegas", "3"}} {
		const n = 3000
		s := simulateJSON(t, "--game", c.game, "--stake", c.stake, "--count", strconv.Itoa(n), "--seed", "9")
		g, _ := lottery.Find(c.game)
		stake, _ := g.Stake(c.stake)
		table, _ := g.Table(stake)
		counts := map[string]int64{}
		won := decimal.Zero
		for _, p := range dealtPrizes(t, c.game, c.stake, n, "9") {
			counts[p.String()]++
			won = won.Add(p)
		}
		staked := stake.Mul(decimal.NewFromInt(n))
		if s.Units != n || s.Staked != staked.String() || s.Won != won.String() || s.Short || s.Mismatches != 0 || s.Seed != game.SeedFrom(9).String() || s.Game != c.game {
			t.Errorf("%s: %+v, want %d units, staked %s, won %s", c.game, s, n, staked, won)
		}
		if want := won.DivRound(staked, 6).String(); s.RTP != want {
			t.Errorf("%s: rtp %s, want %s", c.game, s.RTP, want)
		}
		if want := staked.Sub(staked).Add(won).String(); s.Balance != want {
			t.Errorf("%s: balance %s, want %s", c.game, s.Balance, want)
		}
		if (s.Stake == nil) != (c.game == "vegas") || (s.Stake != nil && *s.Stake != c.stake) {
			t.Errorf("%s: stake %v", c.game, s.Stake)
		}
		if len(s.Tiers) != table.Tiers() {
			t.Fatalf("%s: %d tiers, the table has %d", c.game, len(s.Tiers), table.Tiers())
		}
		var counted int64
		var expected float64
		for i, tier := range s.Tiers {
			if want := table.Prize(i).String(); tier.Prize != want {
				t.Errorf("%s: tier %d is %s, want %s", c.game, i, tier.Prize, want)
			}
			if tier.Counted != counts[tier.Prize] {
				t.Errorf("%s: lot %s counted %d, tapis deal dealt %d", c.game, tier.Prize, tier.Counted, counts[tier.Prize])
			}
			want := float64(n) * float64(table.Count(i)) / float64(table.Units)
			if math.Abs(tier.Expected-want) > 1e-9*math.Max(1, want) {
				t.Errorf("%s: lot %s expected %v, want %v", c.game, tier.Prize, tier.Expected, want)
			}
			counted += tier.Counted
			expected += tier.Expected
		}
		if counted != n || math.Abs(expected-n) > 1e-6 {
			t.Errorf("%s: tiers count %d units and expect %v, want %d", c.game, counted, expected, n)
		}
		if s.Seconds < 0 || s.UnitsPerSecond < 0 {
			t.Errorf("%s: seconds %v, units per second %d", c.game, s.Seconds, s.UnitsPerSecond)
		}
	}
}

// TestSimulateBalance: with --balance, the simulation stops when the wallet
// cannot pay the next unit, says so, and exits 0; a wallet that pays
// nothing plays nothing, and the tiers are still listed.
func TestSimulateBalance(t *testing.T) {
	s := simulateJSON(t, "--balance", "5", "--count", "100000", "--seed", "1")
	balance, _ := decimal.NewFromString(s.Balance)
	won, _ := decimal.NewFromString(s.Won)
	if !s.Short || s.Units >= 100000 || s.Units < 5 || !balance.LessThan(decimal.NewFromInt(1)) {
		t.Errorf("--balance 5: %+v", s)
	}
	if want := decimal.NewFromInt(5 - s.Units).Add(won); !balance.Equal(want) {
		t.Errorf("--balance 5: balance %s, want %s", balance, want)
	}
	code, out, errOut := run(t, "", "simulate", "--balance", "5", "--count", "100000", "--seed", "1")
	if code != ExitOK || errOut != "" || !strings.Contains(out, "stopped after "+strconv.FormatInt(s.Units, 10)+" units: the balance "+wallet.Format(balance, "en")+" does not pay a stake of €1.00\n") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
	code, out, errOut = run(t, "", "simulate", "--balance", "5", "--count", "100000", "--seed", "1", "--json")
	if code != ExitOK || !strings.HasPrefix(errOut, "tapis simulate: stopped after ") || strings.Count(errOut, "\n") != 1 || strings.Count(out, "\n") != 1 {
		t.Errorf("--json: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	s = simulateJSON(t, "--game", "vegas", "--balance", "2.99", "--seed", "1")
	if !s.Short || s.Units != 0 || s.Staked != "0" || s.RTP != "0" || s.Balance != "2.99" || len(s.Tiers) != 10 {
		t.Errorf("--balance 2.99 for a 3 € ticket: %+v", s)
	}
	if s := simulateJSON(t, "--count", "50", "--seed", "1"); s.Short || s.Units != 50 {
		t.Errorf("without --balance: %+v", s)
	}
}

// TestSimulateJournal: every purchase is journaled, bought then shown, and
// the journal verifies; a second run takes it up where it stopped, and a
// unit an earlier run left unrevealed is revealed first and counted in
// what was won, as the game does.
func TestSimulateJournal(t *testing.T) {
	path, key := filepath.Join(t.TempDir(), "j.jsonl"), testKeyFile(t)
	first := simulateJSON(t, "--game", "vegas", "--count", "120", "--seed", "5", "--journal", path, "--house-key", key)
	kinds := journalKinds(t, path)
	if kinds[journal.KindBuy] != 120 || kinds[journal.KindShown] != 120 || kinds[journal.KindStart] != 1 {
		t.Errorf("journal holds %v", kinds)
	}
	if code, out, errOut := run(t, "", "verify", "--journal", path); code != ExitOK || !strings.Contains(out, "120 purchases") {
		t.Errorf("verify: exit %d: %s %s", code, out, errOut)
	}

	// A winning unit bought and never shown, as a game quit while
	// revealing leaves it (the losing ones before it shown).
	sess, err := session.Open(session.Options{Key: ledger.PublicTestKey(), Journal: path})
	if err != nil {
		t.Fatal(err)
	}
	var sold lottery.Sold
	bought := 0
	for sold.Unit.Prize.IsZero() {
		if bought > 0 {
			sess.Shown(sold.Ref())
		}
		if sold, _, err = sess.Buy(lottery.Yams(), decimal.NewFromInt(2), nil, ""); err != nil {
			t.Fatal(err)
		}
		bought++
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	code, taken, errOut := run(t, "", "simulate", "--game", "vegas", "--count", "30", "--journal", path, "--house-key", key)
	if code != ExitOK || errOut != "" || !strings.Contains(taken, "revealed first: 1 unit bought by an earlier run and never shown (won "+wallet.Format(sold.Unit.Prize, "en")+")") ||
		!strings.Contains(taken, "seed "+game.SeedFrom(5).String()+" · 30 units · journal "+path) {
		t.Errorf("taken up: exit %d, stderr %q:\n%s", code, errOut, taken)
	}
	kinds = journalKinds(t, path)
	if kinds[journal.KindBuy] != 150+bought || kinds[journal.KindShown] != 150+bought || kinds[journal.KindStart] != 1 {
		t.Errorf("journal holds %v", kinds)
	}
	code, out, errOut := run(t, "", "verify", "--journal", path, "--json")
	var rep struct {
		OK        bool
		Purchases int
	}
	json.Unmarshal([]byte(out), &rep)
	if code != ExitOK || !rep.OK || rep.Purchases != 150+bought {
		t.Errorf("verify: exit %d: %s %s", code, out, errOut)
	}
	// The summary's won is what the player saw paid: the earlier unit's
	// prize and the run's; the balance goes on from the journal's.
	var w, b string
	summary, _, _ := strings.Cut(taken, "\n")
	if _, err := fmt.Sscanf(strings.ReplaceAll(summary, "·", "|"), "played 30 | staked €90.00 | won %s | balance %s", &w, &b); err != nil {
		t.Fatalf("summary %q: %v", summary, err)
	}
	wonSeen, _ := decimal.NewFromString(strings.ReplaceAll(strings.TrimPrefix(w, "€"), ",", ""))
	balance, _ := decimal.NewFromString(strings.ReplaceAll(strings.TrimPrefix(b, "€"), ",", ""))
	before, _ := decimal.NewFromString(first.Balance)
	paid := decimal.NewFromInt(int64(2*bought + 90))
	if want := before.Sub(paid).Add(wonSeen); !balance.Equal(want) || wonSeen.LessThan(sold.Unit.Prize) {
		t.Errorf("summary %q: balance %s, want %s", summary, balance, want)
	}
}

// journalKinds counts a journal's records by kind.
func journalKinds(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, _, torn, err := journal.ReadLines(f)
	if err != nil || torn != 0 {
		t.Fatalf("reading the journal: %v, torn line %d", err, torn)
	}
	kinds := map[string]int{}
	for _, l := range lines {
		kinds[l.Record.Kind]++
	}
	return kinds
}

// TestSimulateUsage: a bad flag or value is one line on standard error,
// exit 2, and nothing on standard output; so is a journal that cannot be
// taken up.
func TestSimulateUsage(t *testing.T) {
	dir, key := t.TempDir(), testKeyFile(t)
	corrupt := filepath.Join(dir, "corrupt.jsonl")
	os.WriteFile(corrupt, []byte(`{"kind":"start","time":"2026-11-29T20:00:00Z","v":1,"seed":"1","balance":"100"}`+"\n"+`{"kind":"shown","unit":"x"}`+"\n"+"{}\n"), 0o600)
	other := filepath.Join(dir, "other.jsonl")
	os.WriteFile(other, []byte(`{"kind":"start","time":"2026-11-29T20:00:00Z","v":1,"seed":"1","balance":"100"}`+"\n"), 0o600)
	// A journal others may read: it holds its master seed.
	readable := filepath.Join(dir, "readable.jsonl")
	os.WriteFile(readable, []byte(`{"kind":"start","time":"2026-11-29T20:00:00Z","v":1,"seed":"1","balance":"100"}`+"\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--game", "poker"}, `--game: game "poker" is not yams or vegas`},
		{[]string{"--journal", readable}, "journal " + readable + " can be read by others (mode 0644): chmod 600 " + readable},
		{[]string{"--stake", "3"}, "--stake: stake 3 is not one of 0.5, 1, 2 for yams"},
		{[]string{"--game", "vegas", "--stake", "1"}, "--stake: stake 1 is not one of 3 for vegas"},
		{[]string{"--count", "0"}, "--count 0: want 1 to 100000000"},
		{[]string{"--count", "100000001"}, "--count 100000001: want 1 to 100000000"},
		{[]string{"--count", "x"}, `invalid value "x" for flag -count`},
		{[]string{"--balance", "abc"}, `--balance: "abc" is not an amount`},
		{[]string{"--balance", "1,000"}, "--balance: "},
		{[]string{"--balance", "2000000000"}, "--balance 2000000000: at most 1000000000"},
		{[]string{"--lang", "de"}, `--lang: language "de" is not fr or en`},
		{[]string{"--seed", "-1"}, `"-1" is not a seed: 64 hexadecimal digits, or a whole number from 0`},
		{[]string{"--nope"}, "flag provided but not defined: -nope"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--journal", filepath.Join(dir, "no", "such", "dir", "j.jsonl")}, "no such file or directory"},
		{[]string{"--journal", corrupt}, "(tapis verify --journal " + corrupt + " lists every problem)"},
		{[]string{"--journal", other, "--seed", "2"}, "seed"},
	}
	for _, c := range cases {
		args := append([]string{"simulate"}, c.args...)
		if slices.Contains(c.args, "--journal") {
			args = append(args, "--house-key", key)
		}
		code, out, errOut := run(t, "", args...)
		if code != ExitUsage || out != "" || !strings.HasPrefix(errOut, "tapis simulate: ") || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("simulate %q: exit %d, stdout %q, stderr %q, want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	if b, _ := os.ReadFile(other); strings.Count(string(b), "\n") != 1 {
		t.Errorf("a refused journal was written to:\n%s", b)
	}
}

// TestSimulateKeepsTheJournalsBalance: a journal written at a balance
// keeps it: --balance is said not to apply.
func TestSimulateKeepsTheJournalsBalance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	sess, err := session.Open(session.Options{Key: ledger.PublicTestKey(), Journal: path, Seed: game.SeedFrom(8), Balance: decimal.NewFromInt(10)})
	if err != nil {
		t.Fatal(err)
	}
	sess.Close()
	code, out, errOut := run(t, "", "simulate", "--journal", path, "--house-key", testKeyFile(t), "--balance", "500", "--count", "3")
	if code != ExitOK || errOut != "tapis simulate: journal "+path+" keeps its own balance (€10.00): --balance does not apply\n" || !strings.Contains(out, "played 3 · staked €3.00") {
		t.Errorf("exit %d, stderr %q:\n%s", code, errOut, out)
	}
}
