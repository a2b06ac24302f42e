// Package hostile holds what the tests of several packages attack the
// program with: input that never ends, and a disk that is full.
package hostile

import (
	"os/signal"
	"syscall"
	"testing"
)

// Zeros reads as an endless run of zero bytes, as /dev/zero does, and
// counts what was read.
type Zeros struct{ N int64 }

// Read fills p with zeros.
func (z *Zeros) Read(p []byte) (int, error) {
	clear(p)
	z.N += int64(len(p))
	return len(p), nil
}

// FileLimit makes the process unable to write files past n bytes
// (RLIMIT_FSIZE), as a full disk would: a write past it fails instead of
// killing the process. undo lifts the limit; the test's end lifts it too.
func FileLimit(t testing.TB, n int64) (undo func()) {
	t.Helper()
	signal.Ignore(syscall.SIGXFSZ)
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	lim := old
	lim.Cur = uint64(n)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	done := false
	undo = func() {
		if !done {
			done = true
			syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
			signal.Reset(syscall.SIGXFSZ)
		}
	}
	t.Cleanup(undo)
	return undo
}
