package cli

import (
	"tapis/game"

	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tapis/game/lottery"
	"tapis/ui"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestGameArgs(t *testing.T) {
	o, err := GameArgs([]string{"yams", "--seed", "42", "--balance", "2,50"}, env(nil), io.Discard)
	if err != nil || o.UI.Start != ui.YamsScreen || o.Session.Seed != game.SeedFrom(42) || !o.Session.SeedSet || o.UI.Balance.String() != "2.5" || !o.UI.BalanceSet || o.UI.Lang != ui.English {
		t.Fatalf("%+v, %v", o, err)
	}
	o, err = GameArgs([]string{"yams", "--stake", "0,5"}, env(nil), io.Discard)
	if err != nil || o.UI.Stake.String() != "0.5" || o.Session.SeedSet || o.UI.BalanceSet {
		t.Fatalf("--stake 0,5: %+v, %v", o, err)
	}
	o, err = GameArgs([]string{"--lang", "fr", "vegas"}, env(nil), io.Discard)
	if err != nil || o.UI.Start != ui.VegasScreen || o.UI.Lang != ui.French || o.UI.Balance.String() != "100" {
		t.Fatalf("%+v, %v", o, err)
	}
	o, err = GameArgs([]string{"--demo", "--idle", "90"}, env(nil), io.Discard)
	if err != nil || !o.UI.Demo || o.UI.Idle != 90*time.Second || o.UI.Start != ui.MenuScreen {
		t.Fatalf("--demo --idle 90: %+v, %v", o, err)
	}
	o, err = GameArgs([]string{"yams", "--speed", "fast", "--bell"}, env(nil), io.Discard)
	if err != nil || o.UI.Speed != ui.SpeedFast || !o.UI.Bell {
		t.Fatalf("--speed fast --bell: %+v, %v", o.UI, err)
	}
	if o, _ := GameArgs(nil, env(nil), io.Discard); o.UI.Speed != ui.SpeedNormal || o.UI.Bell {
		t.Errorf("no --speed nor --bell: %s, bell %v", o.UI.Speed, o.UI.Bell)
	}
	for vars, want := range map[string]ui.Lang{"fr_FR.UTF-8": ui.French, "en_GB.UTF-8": ui.English, "C": ui.English, "": ui.English} {
		o, _ := GameArgs(nil, env(map[string]string{"LANG": vars}), io.Discard)
		if o.UI.Lang != want {
			t.Errorf("LANG=%q: %s, want %s", vars, o.UI.Lang, want)
		}
	}
	o, _ = GameArgs(nil, env(map[string]string{"LC_ALL": "fr_CA", "LANG": "en_US"}), io.Discard)
	if o.UI.Lang != ui.French {
		t.Error("LC_ALL does not come before LANG")
	}
	bad := map[string][]string{
		"amount -5 is negative":          {"--balance", "-5"},
		"negative":                       {"--balance=-5"},
		"more than two decimals":         {"--balance", "1.001"},
		"at most 1000000000":             {"--balance", "99999999999"},
		`language "de" is not fr or en`:  {"--lang", "de"},
		"--seed":                         {"--seed", "x"},
		`unknown command "poker"`:        {"poker"},
		`unexpected argument "vegas"`:    {"yams", "vegas"},
		"flag provided but not defined":  {"--nope"},
		"--stake: stake 3 is not one of": {"--stake", "3"},
		"--demo and --journal: a kiosk's play money is not journaled": {"--demo", "--journal", "j.jsonl"},
		"--idle needs --demo":               {"--idle", "5"},
		"--idle 0s: want 1s to 24h":         {"--demo", "--idle", "0s"},
		"--playlist needs --demo":           {"--playlist", "p.jsonl"},
		"--playlist: open /no/such/file":    {"--demo", "--playlist", "/no/such/file"},
		"--stake 2: a Vegas ticket costs 3": {"vegas", "--stake", "2"},
		`--balance comes after "--"`:        {"--", "--balance", "5"},
		`--speed: "warp" is not a speed`:    {"--speed", "warp"},
	}
	for want, args := range bad {
		if _, err := GameArgs(args, env(nil), io.Discard); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: %v, want an error with %q", args, err, want)
		}
	}
	if o, err := GameArgs([]string{"vegas", "--stake", "3", "--balance", "5"}, env(nil), io.Discard); err != nil || !o.UI.BalanceSet {
		t.Errorf("vegas --stake 3: %v", err)
	}
	for _, ok := range [][]string{{"--balance", "5", "--"}, {"--", "yams"}} {
		if _, err := GameArgs(ok, env(nil), io.Discard); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	var usage strings.Builder
	if _, err := GameArgs([]string{"-h"}, env(nil), &usage); !errors.Is(err, flag.ErrHelp) || !strings.Contains(usage.String(), "-balance string") {
		t.Errorf("-h: %v, usage %q", err, usage.String())
	}
}

// TestGamePlaylist: --playlist's file is read into the options.
func TestGamePlaylist(t *testing.T) {
	name := filepath.Join(t.TempDir(), "p.jsonl")
	os.WriteFile(name, []byte(`{"game":"yams","stake":"1","prize":"10"}`+"\n"+`{"game":"vegas","prize":"0"}`+"\n"), 0o644)
	o, err := GameArgs([]string{"--demo", "--playlist", name}, env(nil), io.Discard)
	if err != nil || len(o.UI.Playlist) != 2 {
		t.Fatalf("%d items, %v", len(o.UI.Playlist), err)
	}
	os.WriteFile(name, []byte("{\n"), 0o644)
	if _, err := GameArgs([]string{"--demo", "--playlist", name}, env(nil), io.Discard); err == nil || !strings.HasPrefix(err.Error(), "--playlist "+name+": ") {
		t.Errorf("a broken playlist: %v", err)
	}
}

// buy presses enter, which buys a unit, and gives the model the purchase's
// answer as Bubble Tea would.
func buy(t *testing.T, m *ui.Model) {
	t.Helper()
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter bought nothing")
	}
	m.Update(cmd())
}

// TestGameArgsReachTheGame: the options read from a command line open the
// game in their language, balance and stake; the quit line is interface.md's,
// byte for byte, in both languages.
func TestGameArgsReachTheGame(t *testing.T) {
	want := map[string]string{
		// The unit bought and not shown yet counts once shown (README,
		// "This session"); its stake is out of the balance.
		"en": "played 0 · staked €0.00 · won €0.00 · balance €999.50 · unrevealed 1",
		"fr": "parties 0 · misé 0,00 € · gagné 0,00 € · solde 999,50 € · 1 non révélée",
	}
	for lang, line := range want {
		o, err := GameArgs([]string{"yams", "--lang", lang, "--stake", "0,5", "--balance", "1 000", "--seed", "7"}, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		m, err := o.Open()
		if err != nil {
			t.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		buy(t, m) // Jouer: one unit at the stake chosen
		if got := m.Totals().Staked.String(); got != "0.5" {
			t.Errorf("%s: staked %s, want 0.5", lang, got)
		}
		if got := m.Summary(); got != line {
			t.Errorf("%s: %q, want %q", lang, got, line)
		}
	}
}

// TestReplayArgs: one file and --lang, in any order.
func TestReplayArgs(t *testing.T) {
	o, err := ReplayArgs([]string{"--lang", "fr", "-"}, env(nil), io.Discard)
	if err != nil || o.File != "-" || o.Lang != ui.French {
		t.Errorf("%+v, %v", o, err)
	}
	o, err = ReplayArgs([]string{"l.jsonl"}, env(map[string]string{"LANG": "fr_BE"}), io.Discard)
	if err != nil || o.File != "l.jsonl" || o.Lang != ui.French {
		t.Errorf("%+v, %v", o, err)
	}
	bad := map[string][]string{
		"want one layout file":          nil,
		"want one layout file (or - ":   {"a", "b"},
		`--lang: language "de"`:         {"a", "--lang", "de"},
		"flag provided but not defined": {"--nope", "a"},
	}
	for want, args := range bad {
		if _, err := ReplayArgs(args, env(nil), io.Discard); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", args, err, want)
		}
	}
}

// TestDealUnitMatchesGame buys a unit in the game, opened from its command
// line with a journal, at every stake of both games, then deals it again
// with `tapis deal --unit ID --seed N` and compares the layouts: the
// journal holds the unit as the game dealt it.
func TestDealUnitMatchesGame(t *testing.T) {
	for _, c := range [][]string{{"yams", "0.5"}, {"yams", "1"}, {"yams", "2"}, {"vegas", "3"}} {
		path := filepath.Join(t.TempDir(), "j.jsonl")
		args := []string{c[0], "--seed", "42", "--journal", path, "--house-key", testKeyFile(t)}
		if c[0] == "yams" {
			args = append(args, "--stake", c[1])
		}
		o, err := GameArgs(args, env(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		m, err := o.Open()
		if err != nil {
			t.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		buy(t, m)
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		journal, _ := os.ReadFile(path)
		var buy struct {
			Unit   string          `json:"unit"`
			Stake  string          `json:"stake"`
			Layout json.RawMessage `json:"layout"`
		}
		for line := range strings.Lines(string(journal)) {
			if strings.Contains(line, `"kind":"buy"`) {
				if err := json.Unmarshal([]byte(line), &buy); err != nil {
					t.Fatal(err)
				}
			}
		}
		if buy.Stake != c[1] || !strings.HasPrefix(buy.Unit, c[0]+":"+c[1]+":1:") {
			t.Fatalf("%v: bought %q at %s:\n%s", c, buy.Unit, buy.Stake, journal)
		}
		code, out, errOut := run(t, "", "deal", "--unit", buy.Unit, "--seed", "42")
		if code != ExitOK {
			t.Fatalf("deal --unit %s: %s", buy.Unit, errOut)
		}
		dealt, err := lottery.Parse([]byte(out))
		if err != nil {
			t.Fatal(err)
		}
		played, err := lottery.Parse(buy.Layout)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := dealt.MarshalJSON()
		b, _ := played.MarshalJSON()
		if string(a) != string(b) {
			t.Errorf("unit %s: dealt %s, played %s", buy.Unit, a, b)
		}
	}
}
