//go:build unix

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"

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
	return l.try(accountByte(key))
}

func (l *fileLock) give(key int64) error { return l.set(unix.F_UNLCK, accountByte(key)) }

// accountByte is the byte that locks an account: its key, its end within
// off_t.
func accountByte(key int64) int64 { return key & (1<<62 - 1) }

// schemaByte is the byte that locks the store's tables while a seller
// migrates them: past every account's.
const schemaByte = 1 << 62

// try takes the lock of the byte at start: false when another opening of
// the file holds it.
func (l *fileLock) try(start int64) (bool, error) {
	err := l.set(unix.F_WRLCK, start)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return false, nil
	}
	return err == nil, err
}

// held tests the account's byte without taking it: a lock of another
// opening of the file (another process, or another store of this one).
func (l *fileLock) held(_ context.Context, key int64) (bool, error) {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: accountByte(key), Len: 1}
	if err := unix.FcntlFlock(l.f.Fd(), fcntlGetLock, &lk); err != nil {
		return false, fmt.Errorf("testing a lock of %s: %w", l.f.Name(), err)
	}
	return lk.Type != unix.F_UNLCK, nil
}

func (l *fileLock) set(typ int16, start int64) error {
	lk := unix.Flock_t{Type: typ, Whence: 0, Start: start, Len: 1}
	if err := unix.FcntlFlock(l.f.Fd(), fcntlSetLock, &lk); err != nil {
		return fmt.Errorf("locking %s: %w", l.f.Name(), err)
	}
	return nil
}

// keep has nothing to do: the system drops a process's locks only when
// it ends.
func (l *fileLock) keep(context.Context) error { return nil }

func (l *fileLock) close() error { return l.f.Close() }

// schemaFileLock makes sellers opening a SQLite store at once migrate its
// tables once: goose runs each migration in a transaction of its own, and
// SQLite's one writer at a time would not keep a second seller from
// applying a migration the first just applied. It is goose's
// SessionLocker: the store's schemaByte in its lease file, held while
// goose migrates, which the system drops if the seller dies meanwhile.
type schemaFileLock struct {
	path func() (string, error) // the lease file's
	held *fileLock              // while locked
}

// SessionLock waits for the lock as a busy write would: BusyTimeout.
func (l *schemaFileLock) SessionLock(ctx context.Context, _ *sql.Conn) error {
	path, err := l.path()
	if err != nil {
		return err
	}
	f, err := newFileLock(path)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(BusyTimeout)
	for {
		ok, err := f.try(schemaByte)
		if err == nil && !ok {
			if err = waitTurn(ctx, deadline); err == nil {
				continue
			}
		}
		if err != nil {
			f.close()
			return err
		}
		l.held = f
		return nil
	}
}

// waitTurn waits a moment before a lock is tried again: an error once
// the deadline is past, or the context done.
func waitTurn(ctx context.Context, deadline time.Time) error {
	if time.Now().After(deadline) {
		return fmt.Errorf("another seller has been migrating its tables for %s: %w", BusyTimeout, context.DeadlineExceeded)
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(5 * time.Millisecond):
		return nil
	}
}

// SessionUnlock lets the lock go, and the lease file.
func (l *schemaFileLock) SessionUnlock(context.Context, *sql.Conn) error {
	f := l.held
	if f == nil {
		return nil
	}
	l.held = nil
	return errors.Join(f.set(unix.F_UNLCK, schemaByte), f.close())
}
