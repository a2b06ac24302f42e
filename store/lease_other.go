//go:build unix && !linux

package store

import "golang.org/x/sys/unix"

// fcntlSetLock takes a process's lock where open file description locks
// are not to be had: two stores opened in one process do not conflict
// (each store's own sellers still do, by its leases), nor do two of its
// sellers migrating a new store's tables (schemaFileLock); and a
// migration closing its opening of the lease file lets go of the
// process's other locks of that file.
const (
	fcntlSetLock = unix.F_SETLK
	fcntlGetLock = unix.F_GETLK
)
