package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"strings"
	"tapis/internal/quantile"
	"testing"
)

// TestMain lets the test binary serve as the SQLite peer's client, as the
// program does: the peer runs os.Executable again with peerFlag.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == peerFlag {
		os.Exit(sqlitePeerChild(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestParseStore(t *testing.T) {
	for _, tc := range []struct {
		in       string
		postgres bool
		path     string
		bad      bool
	}{
		{in: "postgres://u@127.0.0.1:5432/db?sslmode=disable", postgres: true},
		{in: "postgresql://u@h/db", postgres: true},
		{in: "sqlite:/tmp/x/tapis.db", path: "/tmp/x/tapis.db"},
		{in: "sqlite:store", path: "store"},
		{in: "/var/tmp/t.db", path: "/var/tmp/t.db"},
		{in: "", bad: true},
		{in: "sqlite:", bad: true},
		{in: "mysql://u@h/db", bad: true},
		{in: "tapis.journal", bad: true},
		{in: "sqlite:/tmp/a?b.db", bad: true},
		{in: "postgres://u@h:bad port/db", bad: true},
	} {
		got, err := parseStore(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("parseStore(%q) = %+v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got.postgres != tc.postgres || got.path != tc.path || got.raw != tc.in {
			t.Errorf("parseStore(%q) = %+v, %v; want postgres %v, path %q", tc.in, got, err, tc.postgres, tc.path)
		}
	}
}

func TestParseClients(t *testing.T) {
	got, err := parseClients("1, 2,4,8")
	if err != nil || len(got) != 4 || got[0] != 1 || got[1] != 2 || got[2] != 4 || got[3] != 8 {
		t.Errorf(`parseClients("1, 2,4,8") = %v, %v`, got, err)
	}
	for _, bad := range []string{"", "0", "1,,2", "-1", "x", "1000"} {
		if got, err := parseClients(bad); err == nil {
			t.Errorf("parseClients(%q) = %v, want an error", bad, got)
		}
	}
}

func TestRunBadFlagsExit2WithOneLine(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-store", "mysql://u@h/db"},
		{"-store", "sqlite:/tmp/x.db", "-clients", "1,zero"},
		{"-store", "sqlite:/tmp/x.db", "-runs", "0"},
		{"-store", "sqlite:/tmp/x.db", "extra"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
		if stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "throughput: ") {
			t.Errorf("run(%q) printed %q and %q, want one line on stderr", args, stdout.String(), stderr.String())
		}
	}
}

func TestRedactStoreHidesPassword(t *testing.T) {
	s, err := parseStore("postgres://u:hunter2@h:5432/db?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	if got := redactStore(s); strings.Contains(got, "hunter2") || !strings.Contains(got, "u:") || !strings.Contains(got, "@h:5432/db") {
		t.Errorf("redactStore = %q", got)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 10, 1000}, 10},
	} {
		in := append([]float64(nil), tc.in...)
		if got := quantile.Median(in); got != tc.want {
			t.Errorf("quantile.Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		for i := range in {
			if in[i] != tc.in[i] {
				t.Errorf("median reordered its input: %v", in)
			}
		}
	}
	if !math.IsNaN(quantile.Median(nil)) {
		t.Error("median of nothing is not NaN")
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	writeTable(&b, []row{
		{clients: 1, peer: []float64{500, 400, 600}, tapis: []float64{250, 300, 200}},
		{clients: 8, peer: []float64{3000}},
	})
	want := `| clients | peer tps (median) | tapis purchases/s (median) | ratio |
|---:|---:|---:|---:|
| 1 | 500 | 250 | 0.50 |
| 8 | 3000 | tapis simulate --store: not in this build | — |
`
	if b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
}

// pgbench15Output is what pgbench 15 printed for a run here.
const pgbench15Output = `pgbench (15.18 (Debian 15.18-0+deb12u1))
transaction type: /tmp/tapis-throughput-pgbench-1/update-insert.sql
scaling factor: 1
query mode: simple
number of clients: 2
number of threads: 2
maximum number of tries: 1
duration: 1 s
number of transactions actually processed: 498
number of failed transactions: 0 (0.000%)
latency average = 4.014 ms
initial connection time = 6.940 ms
tps = 498.203765 (without initial connection time)
`

func TestParsePgbenchTPS(t *testing.T) {
	got, err := parsePgbenchTPS([]byte(pgbench15Output))
	if err != nil || got != 498.203765 {
		t.Errorf("parsePgbenchTPS = %v, %v; want 498.203765", got, err)
	}
	if got, err := parsePgbenchTPS([]byte("pgbench: error: connection to server failed\n")); err == nil {
		t.Errorf("parsePgbenchTPS of an error = %v, want an error", got)
	}
}

func TestParseSimulate(t *testing.T) {
	// The end of what `tapis simulate --json` prints today.
	good := "progress\n" + `{"game":"yams","stake":"1","units":1000,"staked":"1000","won":"670","mismatches":0,"balance":"670","short":false,"seconds":0.008,"units_per_second":130676}` + "\n"
	units, secs, err := parseSimulate([]byte(good))
	if err != nil || units != 1000 || secs != 0.008 {
		t.Errorf("parseSimulate = %d, %v, %v; want 1000, 0.008", units, secs, err)
	}
	for _, bad := range []string{
		"",
		"not json\n",
		`{"units":1000,"seconds":0.5}`,
		`{"units":0,"seconds":0.5,"units_per_second":0}`,
		`{"units":10,"seconds":0,"units_per_second":0}`,
	} {
		if u, s, err := parseSimulate([]byte(bad)); err == nil {
			t.Errorf("parseSimulate(%q) = %d, %v; want an error", bad, u, s)
		}
	}
}

func TestTakesStore(t *testing.T) {
	// The help of simulate before issue 12, and a line of it after.
	before := `usage:
  tapis simulate [--game G] [--stake S] [--count N] [--seed N] [--balance EUR]
                 [--journal FILE] [--lang fr|en] [--json]
  -journal FILE
    	journal FILE: every purchase recorded and synced, as in the game; an existing journal is taken up`
	if takesStore([]byte(before)) {
		t.Error("takesStore: true for a simulate without --store")
	}
	if !takesStore([]byte(before + "\n  -store URL\n    \tthe store\n")) {
		t.Error("takesStore: false for a simulate with --store")
	}
}
