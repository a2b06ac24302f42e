package cli

import (
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/internal/pgtest"
)

// reportOut is the part of report --json these tests read.
type reportOut struct {
	Total struct {
		Units                int64
		Staked, Paid, Return string
	} `json:"total"`
	Stakes []struct {
		Game, Stake, Payout string
		Units               int64
		Staked, Paid        string
		Lots                []struct {
			Prize    string
			Units    int64
			Expected string
		}
	} `json:"stakes"`
	Blocks []struct {
		Game, Stake string
		Block       int64
		Units       int64
	} `json:"blocks"`
	Hours []struct {
		Hour  string
		Units int64
	} `json:"hours"`
	Accounts struct {
		Count, Guests, Playing      int64
		Balance, Deposited, Largest string
	} `json:"accounts"`
	OnSale []struct {
		Game, Stake string
		Block, Sold int64
		Left        []struct {
			Prize         string
			Left, Initial int64
		}
	} `json:"on_sale"`
}

func TestReportOfSimulatedSales(t *testing.T) {
	reportOfSimulatedSales(t, "sqlite:"+filepath.Join(t.TempDir(), "show.db"))
}

func TestPostgresReportOfSimulatedSales(t *testing.T) {
	reportOfSimulatedSales(t, pgtest.Fresh(t))
}

// reportOfSimulatedSales: two players' simulated sessions on one store
// (Yam's at 1 €, Vegas), whose totals simulate prints, are what the
// report says, in text, JSON and CSV: the units, stakes and prizes by game
// and stake, by lot, by block and by hour; the accounts and their
// balances; the lots left in the blocks sold from.
func reportOfSimulatedSales(t *testing.T, url string) {
	key := testKeyFile(t)
	ann := simulateOn(t, "--store", url, "--house-key", key, "--account", "ann", "--count", "600", "--seed", "3", "--balance", "1000")
	bob := simulateOn(t, "--store", url, "--house-key", key, "--account", "bob", "--game", "vegas", "--count", "150", "--seed", "3", "--balance", "1000")
	dec := func(s string) decimal.Decimal { return decimal.RequireFromString(s) }

	code, out, errOut := run(t, "", "report", "--store", url, "--json")
	if code != ExitOK || errOut != "" || strings.Count(out, "\n") != 1 {
		t.Fatalf("report --json: exit %d, %q %q", code, out, errOut)
	}
	var r reportOut
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("report --json: %v: %s", err, out)
	}
	if r.Total.Units != 750 || !dec(r.Total.Staked).Equal(dec(ann.Staked).Add(dec(bob.Staked))) || !dec(r.Total.Paid).Equal(dec(ann.Won).Add(dec(bob.Won))) {
		t.Errorf("total %+v, simulate said %s/%s and %s/%s", r.Total, ann.Staked, ann.Won, bob.Staked, bob.Won)
	}
	want := map[string]simJSON{"yams:1": ann, "vegas:3": bob}
	for _, s := range r.Stakes {
		if s.Payout != "0.7000" {
			t.Errorf("%s:%s: payout %s, the regulations' tables pay 70 %%", s.Game, s.Stake, s.Payout)
		}
		sim, ok := want[s.Game+":"+s.Stake]
		if !ok {
			if s.Units != 0 {
				t.Errorf("%s:%s: %d units, none simulated", s.Game, s.Stake, s.Units)
			}
			continue
		}
		if s.Units != sim.Units || !dec(s.Staked).Equal(dec(sim.Staked)) || !dec(s.Paid).Equal(dec(sim.Won)) {
			t.Errorf("%s:%s: %d units %s staked %s paid, simulate said %d %s %s", s.Game, s.Stake, s.Units, s.Staked, s.Paid, sim.Units, sim.Staked, sim.Won)
		}
		if len(s.Lots) != len(sim.Tiers) {
			t.Fatalf("%s:%s: %d lots, simulate counted %d", s.Game, s.Stake, len(s.Lots), len(sim.Tiers))
		}
		for i, l := range s.Lots {
			tier := sim.Tiers[i]
			if !dec(l.Prize).Equal(dec(tier.Prize)) || l.Units != tier.Counted || !dec(l.Expected).Equal(decimal.NewFromFloat(tier.Expected).Round(1)) {
				t.Errorf("%s:%s lot %d: %+v, simulate counted %+v", s.Game, s.Stake, i, l, tier)
			}
		}
	}
	if len(r.Blocks) != 2 || r.Blocks[0].Units != 600 || r.Blocks[1].Units != 150 {
		t.Errorf("by block: %+v", r.Blocks)
	}
	var hours int64
	for _, h := range r.Hours {
		hours += h.Units
	}
	if hours != 750 || len(r.Hours) == 0 || len(r.Hours) > 2 {
		t.Errorf("by hour: %+v", r.Hours)
	}
	a := r.Accounts
	if a.Count != 2 || a.Guests != 0 || a.Playing != 2 || !dec(a.Deposited).Equal(decimal.NewFromInt(2000)) ||
		!dec(a.Balance).Equal(dec(ann.Balance).Add(dec(bob.Balance))) || !dec(a.Largest).Equal(decimal.Max(dec(ann.Balance), dec(bob.Balance))) {
		t.Errorf("accounts %+v, simulate left %s and %s", a, ann.Balance, bob.Balance)
	}
	// The lots left in block 1 of Yam's at 1 € are its table's less the
	// lots simulate counted.
	found := false
	for _, o := range r.OnSale {
		if o.Game != "yams" || o.Stake != "1" || o.Block != 1 {
			continue
		}
		found = true
		if o.Sold != 600 {
			t.Errorf("yams:1:1 sold %d", o.Sold)
		}
		for _, l := range o.Left {
			for _, tier := range ann.Tiers {
				if dec(tier.Prize).Equal(dec(l.Prize)) && l.Left != l.Initial-tier.Counted {
					t.Errorf("yams:1:1: %d × %s left of %d, %d sold", l.Left, l.Prize, l.Initial, tier.Counted)
				}
			}
		}
		if len(o.Left) == 0 || o.Left[0].Prize != "5000.00" {
			t.Errorf("yams:1:1's top lot left: %+v", o.Left)
		}
	}
	if !found {
		t.Errorf("no yams:1:1 on sale: %+v", r.OnSale)
	}

	code, out, errOut = run(t, "", "report", "--store", url, "--csv")
	if code != ExitOK || errOut != "" {
		t.Fatalf("report --csv: exit %d %q", code, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("report --csv: %v\n%s", err, out)
	}
	if strings.Join(rows[0], ",") != "section,game,stake,block,hour,lot,units,staked,paid,return,expected,left,initial,amount" {
		t.Errorf("report --csv's header: %q", rows[0])
	}
	if got := strings.Join(rows[1], ","); got != "total,,,,,,750,"+r.Total.Staked+","+r.Total.Paid+","+r.Total.Return+",,,," {
		t.Errorf("report --csv's total: %q", got)
	}

	code, out, errOut = run(t, "", "report", "--store", url)
	if code != ExitOK || errOut != "" {
		t.Fatalf("report: exit %d %q", code, errOut)
	}
	for _, w := range []string{"Sales", "yams €1.00", "vegas €3.00", "70.00 %", "By block", "By hour", "Units by lot against the table",
		"Accounts: 2 (0 guests, 2 who bought)", "deposited €2,000.00", "« lots restants »", "yams €1.00 block 1: sold 600 of 700,000", "1 × €5,000"} {
		if !strings.Contains(out, w) {
			t.Errorf("report: no %q in\n%s", w, out)
		}
	}
	// Since the future, nothing is counted; the accounts and the lots
	// left are the store's as they stand.
	code, out, _ = run(t, "", "report", "--store", url, "--json", "--since", time.Now().Add(time.Hour).Format("2006-01-02T15:04"))
	var later reportOut
	if code != ExitOK || json.Unmarshal([]byte(out), &later) != nil || later.Total.Units != 0 || later.Accounts.Count != 2 || len(later.OnSale) != len(r.OnSale) {
		t.Errorf("report --since an hour on: exit %d %s", code, out)
	}
}

// simulateOn runs simulate --json on a store and reads its totals.
func simulateOn(t *testing.T, args ...string) simJSON {
	t.Helper()
	code, out, errOut := run(t, "", append([]string{"simulate", "--json"}, args...)...)
	var s simJSON
	if err := json.Unmarshal([]byte(out), &s); code != ExitOK || err != nil {
		t.Fatalf("simulate %q: exit %d, %v, %q", args, code, err, errOut)
	}
	return s
}

// TestReportArgs: report's flags, and one line for each bad one.
func TestReportArgs(t *testing.T) {
	now := time.Date(2026, 12, 2, 15, 30, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"2h":               now.Add(-2 * time.Hour),
		"today":            time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
		"2026-12-01":       time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		"2026-12-02T14:00": time.Date(2026, 12, 2, 14, 0, 0, 0, time.UTC),
	} {
		f, err := reportArgs(Env{}, []string{"--since", in, "--store", "x.db"}, func() time.Time { return now }, true)
		if err != nil || !f.since.Equal(want) {
			t.Errorf("--since %s: %v %v, want %v", in, f.since, err, want)
		}
	}
	for _, c := range []struct{ args []string }{
		{[]string{"report", "--since", "yesterday"}},
		{[]string{"report", "--since", "-1h"}},
		{[]string{"report", "--json", "--csv"}},
		{[]string{"report", "extra"}},
		{[]string{"report", "--store", filepath.Join(t.TempDir(), "none.db")}},
	} {
		code, out, errOut := run(t, "", c.args...)
		if code != ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "tapis report: ") {
			t.Errorf("%q: exit %d, %q %q", c.args, code, out, errOut)
		}
	}
}
