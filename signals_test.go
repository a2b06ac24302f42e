package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pane is a tmux server of the test's own, running a shell in a window.
type pane struct {
	t    *testing.T
	sock string
}

func (p pane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", p.sock}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

// wait waits until the pane shows what ok looks for, or fails.
func (p pane) wait(what string, ok func(screen, modes string) bool) {
	p.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		screen := p.tmux("capture-pane", "-p", "-t", "t")
		modes := p.tmux("display", "-p", "-t", "t", "alt=#{alternate_on} mouse=#{mouse_any_flag}")
		if ok(screen, modes) {
			return
		}
	}
	p.t.Fatalf("the pane never showed %s:\n%s\n%s", what, p.tmux("capture-pane", "-p", "-t", "t"),
		p.tmux("display", "-p", "-t", "t", "alt=#{alternate_on} mouse=#{mouse_any_flag}"))
}

// game returns the pid of the program running bin.
func game(t *testing.T, bin string) int {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, d := range dirs {
			cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
			if bytes.HasPrefix(cmd, []byte(bin+"\x00")) {
				pid, _ := strconv.Atoi(filepath.Base(d))
				return pid
			}
		}
	}
	t.Fatalf("%s is not running", bin)
	return 0
}

// TestSignalsGiveTheTerminalBack plays the game in a real terminal (tmux,
// a shell with job control) and sends it what a shell and a system send:
// ctrl+z and an outside SIGTSTP suspend it with the terminal restored, fg
// takes it back; SIGQUIT and SIGINT quit with the alternate screen and the
// mouse reporting off, the summary printed and exit status 0.
func TestSignalsGiveTheTerminalBack(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the signals are tested in a real terminal")
	}
	if testing.Short() {
		t.Skip("builds the program and drives it in tmux")
	}
	bin := filepath.Join(t.TempDir(), "tapis")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	p := pane{t: t, sock: "tapis-test-" + strconv.Itoa(os.Getpid())}
	p.tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "env -i PATH=/usr/bin:/bin TERM=xterm-256color LANG=C bash --norc --noprofile")
	t.Cleanup(func() { exec.Command("tmux", "-L", p.sock, "kill-server").Run() })
	playing := func(s, modes string) bool { return modes == "alt=1 mouse=1\n" && strings.Contains(s, "Balance") }
	stopped := func(s, modes string) bool { return modes == "alt=0 mouse=0\n" && strings.Contains(s, "Stopped") }

	p.tmux("send-keys", "-t", "t", bin+" yams --seed 3", "Enter")
	p.wait("the game", playing)
	p.tmux("send-keys", "-t", "t", "C-z")
	p.wait("the shell after ctrl+z", stopped)
	p.tmux("send-keys", "-t", "t", "clear; fg", "Enter")
	p.wait("the game again", playing)
	syscall.Kill(game(t, bin), syscall.SIGTSTP)
	p.wait("the shell after SIGTSTP", stopped)
	p.tmux("send-keys", "-t", "t", "clear; fg", "Enter")
	p.wait("the game again", playing)
	p.tmux("send-keys", "-t", "t", "a")
	// Its result shown: the summary counts a unit once shown (README, "This session").
	p.wait("a unit played", func(s, modes string) bool {
		return strings.Contains(s, "No win this time") || strings.Contains(s, "You win") // Auto's three cups landed
	})
	syscall.Kill(game(t, bin), syscall.SIGQUIT)
	p.wait("the summary after SIGQUIT", func(s, modes string) bool {
		return modes == "alt=0 mouse=0\n" && strings.Contains(s, "played 1 · staked €1.00")
	})
	p.tmux("send-keys", "-t", "t", "echo status=$?", "Enter")
	p.wait("exit status 0 after SIGQUIT", func(s, modes string) bool { return strings.Contains(s, "status=0") })
	p.tmux("send-keys", "-t", "t", "clear; "+bin+" vegas", "Enter")
	p.wait("the game", playing)
	syscall.Kill(game(t, bin), syscall.SIGINT)
	p.wait("the summary after SIGINT", func(s, modes string) bool {
		return modes == "alt=0 mouse=0\n" && strings.Contains(s, "played 0 · staked €0.00")
	})
	p.tmux("send-keys", "-t", "t", "echo status=$?", "Enter")
	p.wait("exit status 0", func(s, modes string) bool { return strings.Contains(s, "status=0") })
}
