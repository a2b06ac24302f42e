package store

import "golang.org/x/sys/unix"

// fcntlSetLock takes a lock of the open file description, not of the
// process: two sellers in one process conflict.
const (
	fcntlSetLock = unix.F_OFD_SETLK
	fcntlGetLock = unix.F_OFD_GETLK
)
