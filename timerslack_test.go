package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"tapis/cli"
)

// TestServeTimerSlack: tapis serve, run as a player's host runs it, has
// every thread of its process on the timer slack --timer-slack asks for
// (cli.DefaultTimerSlack unless told), the runtime's own included, once executed again
// under its own process ID (the one its players reach); with 0 it keeps
// the slack it was started with.
func TestServeTimerSlack(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the timer slack is Linux's")
	}
	bin := buildTapis(t)
	inherited := strings.TrimSpace(readFile(t, "/proc/self/timerslack_ns"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, strconv.FormatInt(cli.DefaultTimerSlack.Nanoseconds(), 10)},
		{[]string{"--timer-slack", "1ms"}, "1000000"},
		{[]string{"--timer-slack", "0"}, inherited},
	} {
		dir := t.TempDir()
		srv := startServeArgs(t, bin, append([]string{"--store", "sqlite:" + filepath.Join(dir, "tapis.db"),
			"--host-key", filepath.Join(dir, "host_ed25519")}, c.args...)...)
		srv.player(t) // the process listening is the one started, and plays
		threads, err := os.ReadDir(filepath.Join("/proc", srv.pid(), "task"))
		if err != nil {
			t.Fatal(err)
		}
		for _, th := range threads {
			// A thread's slack is read at /proc/TID, not under task/.
			if got := strings.TrimSpace(readFile(t, filepath.Join("/proc", th.Name(), "timerslack_ns"))); got != c.want {
				t.Errorf("serve %q: thread %s has a timer slack of %s ns, want %s", c.args, th.Name(), got, c.want)
			}
		}
		// Its name is still the program's (ps, pgrep, pkill).
		if got, want := strings.TrimSpace(readFile(t, filepath.Join("/proc", srv.pid(), "comm"))), "tapis"; got != want {
			t.Errorf("serve %q: the process is named %q, want %q", c.args, got, want)
		}
		if len(threads) < 2 {
			t.Errorf("serve %q: %d threads read", c.args, len(threads))
		}
		srv.signal(t)
		srv.exit(t)
		if strings.Contains(srv.logs.String(), "timer slack") {
			t.Errorf("serve %q: the log speaks of the timer slack:\n%s", c.args, srv.logs.String())
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pid is the process's ID, as /proc names it.
func (p *serveProcess) pid() string { return strconv.Itoa(p.cmd.Process.Pid) }
