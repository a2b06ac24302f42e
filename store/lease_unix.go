//go:build unix

package store

import (
	"context"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// fileLock holds accounts on SQLite with byte-range locks of one file
// beside the store (PATH-leases), a byte for each account at its key:
// open file description locks on Linux, which conflict between two
// openings in one process as between processes, and which the system
// drops the moment the process ends, however it ends.
type fileLock struct{ f *os.File }

func newFileLock(path string) (*fileLock, error) {
	if err := Private("store lease file", path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &fileLock{f: f}, nil
}

func (l *fileLock) take(_ context.Context, key int64) (bool, error) {
	err := l.set(unix.F_WRLCK, key)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return false, nil
	}
	return err == nil, err
}

func (l *fileLock) give(key int64) error { return l.set(unix.F_UNLCK, key) }

// held tests the account's byte without taking it: a lock of another
// opening of the file (another process, or another store of this one).
func (l *fileLock) held(_ context.Context, key int64) (bool, error) {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: key & (1<<62 - 1), Len: 1}
	if err := unix.FcntlFlock(l.f.Fd(), fcntlGetLock, &lk); err != nil {
		return false, fmt.Errorf("testing a lock of %s: %w", l.f.Name(), err)
	}
	return lk.Type != unix.F_UNLCK, nil
}

func (l *fileLock) set(typ int16, key int64) error {
	lk := unix.Flock_t{Type: typ, Whence: 0, Start: key & (1<<62 - 1), Len: 1} // its end within off_t
	if err := unix.FcntlFlock(l.f.Fd(), fcntlSetLock, &lk); err != nil {
		return fmt.Errorf("locking %s: %w", l.f.Name(), err)
	}
	return nil
}

// keep has nothing to do: the system drops a process's locks only when
// it ends.
func (l *fileLock) keep(context.Context) error { return nil }

func (l *fileLock) close() error { return l.f.Close() }
