package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// child is a server process started for a measure.
type child struct {
	name string
	cmd  *exec.Cmd
	log  *logBuffer
	done chan struct{} // closed once it has exited
	err  error         // how it exited, once done
}

// startChild starts bin with args, GOGC taken out of its environment, its
// output kept. It has a process group of its own (a ctrl+c at the terminal
// reaches this program, which stops it) and is killed if this program's
// thread that started it dies.
func startChild(name, bin string, args ...string) (*child, error) {
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out := &logBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	c := &child{name: name, cmd: cmd, log: out, done: make(chan struct{})}
	go func() {
		c.err = cmd.Wait()
		close(c.done)
	}()
	return c, nil
}

// pid is the child's process id.
func (c *child) pid() int { return c.cmd.Process.Pid }

// exited tells whether the child has exited.
func (c *child) exited() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// stop sends the child SIGTERM and waits for it to exit, grace at most,
// then kills it.
func (c *child) stop(grace time.Duration) error {
	if c.exited() {
		return fmt.Errorf("%s had exited before it was stopped: %v: %s", c.name, c.err, c.log.last(5))
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stopping %s (pid %d): %w", c.name, c.pid(), err)
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-c.done:
		if c.err != nil {
			return fmt.Errorf("%s stopped: %w: %s", c.name, c.err, c.log.last(5))
		}
		return nil
	case <-t.C:
		c.kill()
		return fmt.Errorf("%s (pid %d) had not stopped %s after SIGTERM: killed", c.name, c.pid(), grace)
	}
}

// kill kills the child by its pid unless it has exited, and waits 10 s at
// most for it to be gone.
func (c *child) kill() {
	if c.exited() {
		return
	}
	c.cmd.Process.Kill()
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
	}
}

// logLimit is how much of a child's output is kept from its beginning,
// and, about, from its end.
const logLimit = 1 << 20

// logBuffer keeps a child's output: its first logLimit bytes and its last
// logLimit to 2×logLimit.
type logBuffer struct {
	mu         sync.Mutex
	head, tail []byte
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	if room := logLimit - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	b.tail = append(b.tail, p...)
	if len(b.tail) > 2*logLimit {
		b.tail = append(b.tail[:0], b.tail[len(b.tail)-logLimit:]...)
	}
	return n, nil
}

// String is what is kept: the beginning, and the end when they differ.
func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.head) + string(b.tail)
}

// last is the output's last n lines, for an error message.
func (b *logBuffer) last(n int) string {
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// cpuTicks reads a process's CPU time, user and system, in clock ticks,
// from /proc/PID/stat.
func cpuTicks(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("reading pid %d's CPU time: %w", pid, err)
	}
	return parseStat(b)
}

// parseStat reads utime + stime (fields 14 and 15) from a /proc/PID/stat
// line; the command's name, field 2, is in parentheses and may hold
// spaces and parentheses itself.
func parseStat(b []byte) (uint64, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("/proc stat: no command name in parentheses")
	}
	f := strings.Fields(string(b[i+1:])) // from field 3, the state
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat: %d fields after the command's name, want 13 at least", len(f))
	}
	u, err1 := strconv.ParseUint(f[11], 10, 64)
	s, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc stat: utime %q, stime %q: want counts of clock ticks", f[11], f[12])
	}
	return u + s, nil
}

// memKB reads a process's VmRSS or VmHWM, in kB, from /proc/PID/status.
func memKB(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("reading pid %d's memory: %w", pid, err)
	}
	kb, err := parseStatus(b, field)
	if err != nil {
		return 0, fmt.Errorf("pid %d: %w", pid, err)
	}
	return kb, nil
}

// parseStatus reads a "Field:   1234 kB" line of /proc/PID/status.
func parseStatus(b []byte, field string) (int64, error) {
	for line := range strings.SplitSeq(string(b), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || name != field {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("/proc status: %s is %q, want a count of kB", field, strings.TrimSpace(rest))
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb < 0 {
			return 0, fmt.Errorf("/proc status: %s is %q, want a count of kB", field, strings.TrimSpace(rest))
		}
		return kb, nil
	}
	return 0, fmt.Errorf("/proc status: no %s line", field)
}

// clockTicks is the kernel's clock ticks a second, what /proc counts CPU
// time in (getconf CLK_TCK).
func clockTicks(ctx context.Context) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "getconf", "CLK_TCK").Output()
	if err != nil {
		return 0, fmt.Errorf("getconf CLK_TCK (the unit of /proc's CPU times): %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("getconf CLK_TCK printed %q: want a positive count", strings.TrimSpace(string(out)))
	}
	return float64(n), nil
}
