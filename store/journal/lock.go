package journal

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// InUseError is a journal another process holds: two processes writing
// one journal would sell the same units and interleave their lines.
type InUseError struct {
	Path string
	PID  int // the process holding it, or 0 when unknown
}

// Error writes "journal FILE is in use by another tapis process (pid N)".
func (e *InUseError) Error() string {
	s := "journal " + e.Path + " is in use by another tapis process"
	if e.PID > 0 {
		s += " (pid " + strconv.Itoa(e.PID) + ")"
	}
	return s
}

// lock takes the journal for this store alone, for as long as the file is
// open: an exclusive flock(2), which the system drops when the process
// ends, however it ends.
func lock(f *os.File, path string) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return &InUseError{Path: path, PID: holder(f)}
	}
	return fmt.Errorf("journal %s: locking it: %w", path, err)
}

// holder returns the process holding a flock on the file, from
// /proc/locks, or 0 when it cannot tell.
func holder(f *os.File) int {
	info, err := f.Stat()
	if err != nil {
		return 0
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	dev := uint64(st.Dev)
	major := (dev>>8)&0xfff | (dev>>32)&^0xfff
	minor := dev&0xff | (dev>>12)&^0xff
	// A line reads "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF".
	want := fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer locks.Close()
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 6 && fields[1] == "FLOCK" && fields[5] == want {
			if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 {
				return pid
			}
		}
	}
	return 0
}
