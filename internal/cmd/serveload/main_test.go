package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"tapis/internal/quantile"
	"testing"
	"time"

	"tapis/internal/sshload"
)

// programs makes two executable files standing for tapis and the peer.
func programs(t *testing.T) (tapis, peer string) {
	t.Helper()
	dir := t.TempDir()
	tapis, peer = filepath.Join(dir, "tapis"), filepath.Join(dir, "wishfloor")
	for _, p := range []string{tapis, peer} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return tapis, peer
}

func TestBadFlagsExit2WithOneLine(t *testing.T) {
	tapis, peer := programs(t)
	notExec := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(notExec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ok := []string{"-tapis", tapis, "-peer", peer}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "-tapis is required"},
		{[]string{"-tapis", tapis}, "-peer is required"},
		{[]string{"-tapis", "/nonexistent/tapis", "-peer", peer}, "no such file"},
		{[]string{"-tapis", notExec, "-peer", peer}, "not an executable file"},
		{[]string{"-tapis", tapis, "-peer", filepath.Dir(peer)}, "not an executable file"},
		{append(ok, "-sessions", "1"), "-sessions 1: want 2"},
		{append(ok, "-sessions", "3", "-servers", "2"), "-sessions 3: want 4"},
		{append(ok, "-sessions", "10001"), "want 2 to 10000"},
		{append(ok, "-servers", "0"), "-servers 0"},
		{append(ok, "-idle-sessions", "-1"), "-idle-sessions -1"},
		{append(ok, "-every", "0s"), "-every 0s"},
		{append(ok, "-for", "2h"), "-for 2h0m0s"},
		{append(ok, "-idle", "-1s"), "-idle -1s"},
		{append(ok, "-runs", "0"), "-runs 0"},
		{append(ok, "-answer-min", "-1"), "-answer-min -1"},
		{append(ok, "-store", "mysql://u:secret@h/db"), "want sqlite or a postgres://"},
		{append(ok, "-store", "sqlite:x.db"), "want sqlite or a postgres://"},
		{append(ok, "-size", "100"), `-size "100"`},
		{append(ok, "-size", "10x30"), `-size "10x30"`},
		{append(ok, "-size", "100xy"), `-size "100xy"`},
		{append(ok, "-before", "/nonexistent/tapis-old"), "-before: "},
		{append(ok, "-before", notExec), "-before " + notExec + ": not an executable file"},
		{append(ok, "-bogus"), "flag provided but not defined"},
		{append(ok, "extra"), `unexpected argument "extra"`},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tc.args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", tc.args, code)
		}
		out := stderr.String()
		if stdout.Len() != 0 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "serveload: ") || !strings.Contains(out, tc.want) {
			t.Errorf("run(%q) printed %q and %q, want one line on stderr with %q", tc.args, stdout.String(), out, tc.want)
		}
		if strings.Contains(out, "secret") {
			t.Errorf("run(%q) echoed the password: %q", tc.args, out)
		}
	}
}

func TestFlagsDefaults(t *testing.T) {
	tapis, peer := programs(t)
	c, err := parseFlags([]string{"-tapis", tapis, "-peer", peer}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := config{tapis: tapis, peer: peer, sessions: 200, idleSessions: 200, every: 1500 * time.Millisecond,
		load: 20 * time.Second, idle: 20 * time.Second, runs: 3, store: "sqlite", servers: 1, width: 100, height: 30, answerMin: 64}
	if c != want {
		t.Errorf("defaults %+v, want %+v", c, want)
	}
	c, err = parseFlags([]string{"-tapis", tapis, "-peer", peer, "-store", "postgres://u:pw@127.0.0.1:5432/db", "-servers", "2",
		"-idle-sessions", "50", "-size", "80x24"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.postgres() || c.servers != 2 || c.idleSessions != 50 || c.width != 80 || c.height != 24 {
		t.Errorf("%+v", c)
	}
	if got := c.storeName(); strings.Contains(got, "pw") || !strings.HasPrefix(got, "PostgreSQL (postgres://u:xxxxx@") {
		t.Errorf("storeName %q", got)
	}
	var help bytes.Buffer
	if code := run(context.Background(), []string{"-h"}, &bytes.Buffer{}, &help); code != 0 || !strings.Contains(help.String(), "usage: go run ./internal/cmd/serveload") {
		t.Errorf("-h: %d, %q", code, help.String())
	}
}

func TestParsePurchases(t *testing.T) {
	log := `2026/12/01 22:31:36 INFO  tapis serve: listening addr=127.0.0.1:41153 store=sqlite:/tmp/x/load.db
2026/12/01 22:31:39 INFO  tapis serve: purchases sold=0 p50=0s p99=0s max=0s
2026/12/01 22:35:36 INFO  tapis serve: purchases sold=2615 p50=910µs p99=14.44ms max=1.2s
2026/12/01 22:35:36 INFO  tapis serve: stopped took=12ms
`
	got, err := parsePurchases(log)
	want := purchases{sold: 2615, p50: 910 * time.Microsecond, p99: 14440 * time.Microsecond, max: 1200 * time.Millisecond}
	if err != nil || got != want {
		t.Errorf("parsePurchases = %+v, %v; want the last line, %+v", got, err, want)
	}
	if m := listening.FindStringSubmatch(log); m == nil || m[1] != "127.0.0.1:41153" {
		t.Errorf("listening address: %q", m)
	}
	for _, bad := range []string{"", "tapis serve: stopped took=1ms\n", "purchases sold=3 p50=fast p99=1ms max=1ms\n"} {
		if got, err := parsePurchases(bad); err == nil {
			t.Errorf("parsePurchases(%q) = %+v, want an error", bad, got)
		}
	}
}

func TestProcOfItself(t *testing.T) {
	pid := os.Getpid()
	deadline := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(deadline) { // some CPU to count
	}
	ticks, err := cpuTicks(pid)
	if err != nil || ticks == 0 {
		t.Errorf("cpuTicks(self) = %d, %v", ticks, err)
	}
	rss, err := memKB(pid, "VmRSS")
	if err != nil || rss < 100 {
		t.Errorf("VmRSS = %d kB, %v", rss, err)
	}
	hwm, err := memKB(pid, "VmHWM")
	if err != nil || hwm < rss {
		t.Errorf("VmHWM = %d kB (VmRSS %d), %v", hwm, rss, err)
	}
	if _, err := memKB(pid, "VmNone"); err == nil {
		t.Error("a field that is not there read")
	}
	tck, err := clockTicks(context.Background())
	if err != nil || tck < 1 {
		t.Errorf("clockTicks = %v, %v", tck, err)
	}
}

func TestParseStat(t *testing.T) {
	// A command's name may hold spaces and parentheses.
	line := "4242 (my (odd) prog) S 1 4242 4242 0 -1 4194560 500 0 0 0 120 35 0 0 20 0 9 0 1000 1000000 2000 18446744073709551615\n"
	if got, err := parseStat([]byte(line)); err != nil || got != 155 {
		t.Errorf("parseStat = %d, %v; want 120+35", got, err)
	}
	for _, bad := range []string{"", "4242 prog S 1", "4242 (p) S 1 2 3", "4242 (p) S 1 4242 4242 0 -1 4194560 500 0 0 0 x 35 0"} {
		if got, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) = %d, want an error", bad, got)
		}
	}
	if _, err := parseStatus([]byte("VmRSS:\t  12 MB\n"), "VmRSS"); err == nil {
		t.Error("VmRSS in MB taken")
	}
	if got, err := parseStatus([]byte("Name:\tx\nVmHWM:\t  31832 kB\nVmRSS:\t   1234 kB\n"), "VmRSS"); err != nil || got != 1234 {
		t.Errorf("parseStatus = %d, %v", got, err)
	}
}

func TestChildStoppedAndKilled(t *testing.T) {
	t.Setenv("GOGC", "25")
	c, err := startChild("echo", "/bin/sh", "-c", `echo "GOGC=[$GOGC]"; exec sleep 30`)
	if err != nil {
		t.Fatal(err)
	}
	defer c.kill()
	for i := 0; i < 200 && !strings.Contains(c.log.String(), "GOGC="); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if got := c.log.String(); got != "GOGC=[]\n" {
		t.Errorf("the child's output %q: want GOGC unset", got)
	}
	if err := c.stop(5 * time.Second); err == nil || !strings.Contains(err.Error(), "terminated") {
		t.Errorf("stop: %v, want sleep ended by SIGTERM", err)
	}
	if !c.exited() {
		t.Error("the child still runs")
	}
	k, err := startChild("sleep", "/bin/sh", "-c", `trap "" TERM; exec sleep 30`)
	if err != nil {
		t.Fatal(err)
	}
	defer k.kill()
	time.Sleep(100 * time.Millisecond) // the trap set
	if err := k.stop(200 * time.Millisecond); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("stop of a child ignoring SIGTERM: %v", err)
	}
	if !k.exited() {
		t.Error("the child ignoring SIGTERM still runs")
	}
}

func TestLogBufferBounded(t *testing.T) {
	var b logBuffer
	line := []byte(strings.Repeat("x", 1023) + "\n")
	b.Write([]byte("listening addr=127.0.0.1:1\n"))
	for range 5 * logLimit / len(line) {
		b.Write(line)
	}
	b.Write([]byte("purchases sold=1 p50=1ms p99=1ms max=1ms\n"))
	if len(b.head) != logLimit || len(b.tail) > 2*logLimit {
		t.Errorf("kept %d + %d bytes", len(b.head), len(b.tail))
	}
	s := b.String()
	if !strings.HasPrefix(s, "listening") || !strings.HasSuffix(s, "max=1ms\n") {
		t.Errorf("the beginning or the end lost")
	}
	if got := b.last(1); got != "purchases sold=1 p50=1ms p99=1ms max=1ms" {
		t.Errorf("last line %q", got)
	}
}

func TestTable(t *testing.T) {
	if got := quantile.Median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("median of 3 = %v", got)
	}
	if got := quantile.Median([]float64{4, 1, 2, 3}); got != 2.5 {
		t.Errorf("median of 4 = %v", got)
	}
	if !math.IsNaN(quantile.Median(nil)) {
		t.Error("median of none is not NaN")
	}
	f := func(p99 time.Duration, idle float64) figures {
		return figures{buyP99: p99, firstFrame: sshload.Spread{N: 1, P99: 100 * time.Millisecond},
			answer: sshload.Spread{N: 1, P99: 20 * time.Millisecond}, cpuMs: 0.5, memMB: 1.5, bytesPerSec: 9000, idleMs: idle}
	}
	tp, _ := programs(t)
	cfg := config{tapis: tp, sessions: 200, idleSessions: 200, every: time.Second, load: time.Second, runs: 3, store: "sqlite", servers: 1, width: 100, height: 30}
	var out bytes.Buffer
	writeTable(&out, cfg, []side{{name: "tapis"}, {name: "wishfloor"}},
		[][]figures{{f(40*time.Millisecond, 0.04), f(10*time.Millisecond, 0.02), f(90*time.Millisecond, nan())}, {f(0, nan())}})
	var three bytes.Buffer
	writeTable(&three, cfg, []side{{name: "tapis"}, {name: "wishfloor"}, {name: "tapis before"}},
		[][]figures{{f(40*time.Millisecond, 0.04)}, {f(0, nan())}, {f(80*time.Millisecond, 0.08)}})
	for _, want := range []string{
		"medians of 1 and 1 and 1 runs",
		"| figure | goal | tapis | wishfloor (peer) | ratio | tapis before | ratio to it |",
		"| purchase latency around the store call, p99 (the server's log) | ≤ 50 ms | 40.0 ms | — (no purchases) | — | 80.0 ms | 0.50 |",
		"| a session that only sits on a screen with a clock, CPU a second | ≤ 0.05 ms | 0.0400 ms | not measured | — | 0.0800 ms | 0.50 |",
	} {
		if !strings.Contains(three.String(), want) {
			t.Errorf("the table beside a build before lacks %q:\n%s", want, three.String())
		}
	}
	for _, want := range []string{
		"medians of 3 and 1 runs",
		"| purchase latency around the store call, p99 (the server's log) | ≤ 50 ms | 40.0 ms | — (no purchases) | — |",
		"| first frame after connecting, p99 (the client) | ≤ 300 ms | 100.0 ms | 100.0 ms | 1.00 |",
		"| a session that only sits on a screen with a clock, CPU a second | ≤ 0.05 ms | 0.0300 ms | not measured | — |",
		"| bytes sent per session-second | measured | 9000 B | 9000 B | 1.00 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}
