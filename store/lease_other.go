//go:build unix && !linux

package store

import "golang.org/x/sys/unix"

// fcntlSetLock takes a process's lock where open file description locks
// are not to be had: two stores opened in one process do not conflict
// (each store's own sellers still do, by its leases).
const (
	fcntlSetLock = unix.F_SETLK
	fcntlGetLock = unix.F_GETLK
)
