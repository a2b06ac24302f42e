package cli

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// timerSlackEnv marks a process re-executed by SettleTimerSlack: the
// slack it asked for, in nanoseconds. A process that finds it and still
// not its slack does not execute itself again.
const timerSlackEnv = "TAPIS_TIMER_SLACK_NS"

// SettleTimerSlack gives every thread of the process a timer slack of d
// (prctl PR_SET_TIMERSLACK), and returns nil once they have it. The slack
// is the time the kernel may add to a thread's timed sleep to wake it
// with others; Go's runtime sleeps about 20 µs at a time in its monitor
// thread while the process works, and each wake is a context switch. A
// thread takes its slack from the one that made it, and the runtime makes
// its monitor before any of the program's code runs: the slack is set on
// the calling thread, and the program executed again from it (the same
// file, arguments, environment and process ID), so
// that the new runtime's threads are all made with it. It does not return
// when it executes the program again; it returns an error when the
// slack cannot be set, the process then going on with the one it has.
func SettleTimerSlack(d time.Duration) error {
	runtime.LockOSThread() // the slack read, set and executed with is this thread's
	defer runtime.UnlockOSThread()
	now, err := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
	if err != nil {
		return fmt.Errorf("reading the timer slack: %w", err)
	}
	if time.Duration(now) == d {
		os.Unsetenv(timerSlackEnv) // no process of ours to come needs it
		return nil
	}
	if _, again := os.LookupEnv(timerSlackEnv); again {
		os.Unsetenv(timerSlackEnv)
		return fmt.Errorf("the timer slack is still %s once executed again with %s", time.Duration(now), d)
	}
	// The program's own path, not /proc/self/exe: the process keeps its
	// name (ps, pgrep, a host's pkill tapis).
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the program to execute again: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(d.Nanoseconds()), 0, 0, 0); err != nil {
		return fmt.Errorf("setting the timer slack to %s: %w", d, err)
	}
	env := append(os.Environ(), timerSlackEnv+"="+strconv.FormatInt(d.Nanoseconds(), 10))
	err = syscall.Exec(exe, os.Args, env)
	// Still here: this thread goes back to the slack the others have.
	unix.Prctl(unix.PR_SET_TIMERSLACK, uintptr(now), 0, 0, 0) //nolint:errcheck // it was set just before
	return fmt.Errorf("executing %s again with a timer slack of %s: %w", exe, d, err)
}
