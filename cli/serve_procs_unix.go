//go:build unix

package cli

import (
	"syscall"
	"time"
)

// processCPU returns the function reading the CPU time the process used
// so far, user and system.
func processCPU() (func() time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return nil, false
	}
	return func() time.Duration {
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}, true
}
