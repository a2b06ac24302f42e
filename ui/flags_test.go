package ui

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestParseArgs(t *testing.T) {
	o, err := ParseArgs([]string{"yams", "--seed", "42", "--balance", "2,50"}, env(nil), io.Discard)
	if err != nil || o.Start != YamsScreen || o.Seed != 42 || o.Balance.String() != "2.5" || o.Lang != English {
		t.Fatalf("%+v, %v", o, err)
	}
	o, err = ParseArgs([]string{"yams", "--stake", "0,5"}, env(nil), io.Discard)
	if err != nil || o.Stake.String() != "0.5" {
		t.Fatalf("--stake 0,5: %+v, %v", o, err)
	}
	if m := open(t, o, 80, 24); !strings.Contains(plain(m), "[€0.50]") {
		t.Errorf("the game does not open at 0.50:\n%s", plain(m))
	}
	o, err = ParseArgs([]string{"--lang", "fr", "vegas"}, env(nil), io.Discard)
	if err != nil || o.Start != VegasScreen || o.Lang != French || o.Balance.String() != "100" {
		t.Fatalf("%+v, %v", o, err)
	}
	for vars, want := range map[string]Lang{"fr_FR.UTF-8": French, "en_GB.UTF-8": English, "C": English, "": English} {
		o, _ := ParseArgs(nil, env(map[string]string{"LANG": vars}), io.Discard)
		if o.Lang != want {
			t.Errorf("LANG=%q: %s, want %s", vars, o.Lang, want)
		}
	}
	o, _ = ParseArgs(nil, env(map[string]string{"LC_ALL": "fr_CA", "LANG": "en_US"}), io.Discard)
	if o.Lang != French {
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
		"--stake 2: a Vegas ticket costs 3": {"vegas", "--stake", "2"},
	}
	for want, args := range bad {
		if _, err := ParseArgs(args, env(nil), io.Discard); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: %v, want an error with %q", args, err, want)
		}
	}
	if o, err := ParseArgs([]string{"vegas", "--stake", "3", "--balance", "5"}, env(nil), io.Discard); err != nil || !o.BalanceSet {
		t.Errorf("vegas --stake 3: %v", err)
	}
	if _, err := ParseArgs([]string{"-h"}, env(nil), io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
}

// TestSummaryLine pins the quit line of interface.md, byte for byte.
func TestSummaryLine(t *testing.T) {
	want := map[Lang]string{
		English: "played 3 · staked €3.00 · won €2.00 · balance €99.00",
		French:  "parties 3 · misé 3,00 € · gagné 2,00 € · solde 99,00 €",
	}
	for lang, line := range want {
		tx := newText(lang)
		got := tx.f("summary", 3, tx.money(decimal.NewFromInt(3)), tx.money(decimal.NewFromInt(2)), tx.money(decimal.NewFromInt(99)))
		if got != line {
			t.Errorf("%s: %q, want %q", lang, got, line)
		}
	}
}
