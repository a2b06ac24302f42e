package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// timerSlackEnv marks a process SettleTimerSlack executed again: the
// slack it asked for, in nanoseconds. A process that finds it, and still
// not that slack, does not execute itself again.
const timerSlackEnv = "TAPIS_TIMER_SLACK_NS"

// SettleTimerSlack gives every thread of the process a timer slack of d
// (prctl PR_SET_TIMERSLACK), and returns nil once they have it. The slack
// is the time the kernel may add to a thread's timed sleep to wake it
// with others; Go's runtime sleeps about 20 µs at a time in its monitor
// thread while the process works, and each wake is a context switch. A
// thread takes its slack from the one that made it, and the runtime makes
// its monitor before any of the program's code runs: the slack is set on
// the calling thread, and the program executed again from it (its own
// file, by the name it was started with, the same arguments and process
// ID, the environment marked with timerSlackEnv), so that the new
// runtime's threads are all made with it. It does not return when it
// executes the program again; it returns an error when the slack cannot
// be set, the process then going on with the one it has.
func SettleTimerSlack(d time.Duration) error {
	runtime.LockOSThread() // the slack read, set and executed with is this thread's
	defer runtime.UnlockOSThread()
	now, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		return fmt.Errorf("reading the timer slack: %w", err)
	}
	mark := strconv.FormatInt(d.Nanoseconds(), 10)
	again := os.Getenv(timerSlackEnv) == mark
	os.Unsetenv(timerSlackEnv) //nolint:errcheck // a name without "=" or NUL: no error; no process of ours to come needs it
	if time.Duration(now) == d {
		return nil
	}
	if again {
		// Executed again by this function, or the mark inherited from
		// elsewhere: either way not executed again, lest it loop.
		return fmt.Errorf("the timer slack is %s, not %s, and %s=%s is set: the program is not executed again", time.Duration(now), d, timerSlackEnv, mark)
	}
	path, err := ownFile()
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(d.Nanoseconds()), 0, 0, 0); err != nil {
		return fmt.Errorf("setting the timer slack to %s: %w", d, err)
	}
	err = syscall.Exec(path, os.Args, append(os.Environ(), timerSlackEnv+"="+mark))
	// Still here: this thread goes back to the slack the others have.
	unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(now), 0, 0, 0) //nolint:errcheck // it was set just before
	return fmt.Errorf("executing %s again with a timer slack of %s: %w", path, d, err)
}

// ownFile returns a path to the very file the process runs (the kernel's
// /proc/self/exe, which follows it even once replaced or removed): the
// name it was started by when that is it, so that the process keeps its
// name (ps, pgrep, a host's pkill tapis, through a symbolic link too),
// else the file's own path; an error when no path leads to it any more
// (a new build copied over it since it started).
func ownFile() (string, error) {
	running, err := os.Stat("/proc/self/exe")
	if err != nil {
		return "", fmt.Errorf("finding the program's file: %w", err)
	}
	var paths []string
	if name := os.Args[0]; strings.ContainsRune(name, '/') {
		paths = append(paths, name)
	} else if p, err := exec.LookPath(name); err == nil {
		paths = append(paths, p)
	}
	if p, err := os.Executable(); err == nil {
		paths = append(paths, p)
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, running) {
			return p, nil
		}
	}
	return "", errors.New("the program's file was replaced or removed since it started: it is not executed again")
}
