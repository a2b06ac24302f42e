package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"tapis/cli"
)

// TestServeTimerSlack: tapis serve, run as a stand's host runs it, has
// every thread of its process on the timer slack --timer-slack asks for
// (cli.DefaultTimerSlack unless told), the runtime's own included, once
// executed again under its own process ID (the one its players reach)
// and its own name, through a symbolic link too; with 0 it keeps the
// slack it was started with. When it cannot set it (here, its mark of a
// process already executed again found in its environment), it says so
// after the house key, its log's first line, and serves as it is.
func TestServeTimerSlack(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the timer slack is Linux's")
	}
	bin := buildTapis(t)
	link := filepath.Join(t.TempDir(), "tapis-at-the-stand")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	inherited := strconv.Itoa(ownSlack(t))
	want := strconv.FormatInt(cli.DefaultTimerSlack.Nanoseconds(), 10)
	for _, c := range []struct {
		name       string
		bin        string
		env        []string
		args       []string
		want, comm string
		warned     bool
	}{
		{"default", bin, nil, nil, want, "tapis", false},
		{"1ms", bin, nil, []string{"--timer-slack", "1ms"}, "1000000", "tapis", false},
		{"0", bin, nil, []string{"--timer-slack", "0"}, inherited, "tapis", false},
		{"a link", link, nil, nil, want, "tapis-at-the-st", false}, // the kernel keeps 15 bytes of a name
		{"marked", bin, append(os.Environ(), "TAPIS_TIMER_SLACK_NS="+want), nil, inherited, "tapis", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			srv := startServeEnv(t, c.bin, c.env, append([]string{"--store", "sqlite:" + filepath.Join(dir, "tapis.db"),
				"--host-key", filepath.Join(dir, "host_ed25519")}, c.args...)...)
			srv.player(t) // the process started is the one listening, and plays
			threads, err := os.ReadDir(filepath.Join("/proc", srv.pid(), "task"))
			if err != nil {
				t.Fatal(err)
			}
			for _, th := range threads {
				// A thread's slack is read at /proc/TID, not under task/;
				// reading another's takes CAP_SYS_NICE.
				b, err := os.ReadFile(filepath.Join("/proc", th.Name(), "timerslack_ns"))
				if errors.Is(err, fs.ErrPermission) {
					t.Skipf("reading a thread's timer slack: %v (it takes CAP_SYS_NICE)", err)
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.TrimSpace(string(b)); got != c.want {
					t.Errorf("thread %s has a timer slack of %s ns, want %s", th.Name(), got, c.want)
				}
			}
			if len(threads) < 2 {
				t.Errorf("%d threads read", len(threads))
			}
			b, err := os.ReadFile(filepath.Join("/proc", srv.pid(), "comm"))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(string(b)); got != c.comm {
				t.Errorf("the process is named %q, want %q (ps, pgrep, pkill)", got, c.comm)
			}
			srv.signal(t)
			srv.exit(t)
			logs := srv.logs.String()
			first, _, _ := strings.Cut(logs, "\n")
			if !strings.Contains(first, "house key ssh-ed25519 ") {
				t.Errorf("the log's first line is %q, not the house key", first)
			}
			if got := strings.Contains(logs, "the timer slack is left as it was"); got != c.warned {
				t.Errorf("the log warns of the timer slack: %v, want %v:\n%s", got, c.warned, logs)
			}
		})
	}
}

// ownSlack is the timer slack of the test's own thread, which its
// processes start with.
func ownSlack(t *testing.T) int {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// pid is the process's ID, as /proc names it.
func (p *serveProcess) pid() string { return strconv.Itoa(p.cmd.Process.Pid) }
