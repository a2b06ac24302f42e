//go:build unix

package cli

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system; 0
// when it cannot be read.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU returns cpuTime, when the process's CPU time can be read.
func processCPU() (func() time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return nil, false
	}
	return cpuTime, true
}
