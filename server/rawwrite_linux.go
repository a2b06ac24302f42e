package server

import (
	"errors"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawWriter writes to a socket with a raw system call, one Go's scheduler
// does not see. A write to a socket on loopback takes 20 to 40 µs (the
// kernel delivers the packet within it); with one processor, the runtime's
// monitor took the processor from every write it found still in its system
// call after 20 µs, woke a thread for the goroutines waiting (or left the
// processor idle), and went on waking itself every 20 µs: at 200 players
// its wakes and switches were a sixth of the server's CPU. A raw write
// holds the processor for its few microseconds instead, and a write that
// would block (the socket's buffer full: a client slow to read) waits in
// the network poller, as the net package's own does, deadlines included.
type rawWriter struct{ rc syscall.RawConn }

// rawWriterOf returns the raw writer of c's socket; nil where c has none.
func rawWriterOf(c net.Conn) *rawWriter {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return &rawWriter{rc: rc}
}

// write writes p whole, or returns why not, as net.Conn's Write does.
func (w *rawWriter) write(p []byte) (int, error) {
	n := 0
	var werr error
	err := w.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
			switch {
			case e == syscall.EINTR:
				continue
			case e == syscall.EAGAIN:
				return false // the poller waits for room, then calls again
			case e != 0:
				werr = os.NewSyscallError("write", e)
				return true
			case r == 0:
				werr = errors.New("write: the socket took nothing")
				return true
			}
			n += int(r)
		}
		return true
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return n, &net.OpError{Op: "write", Net: "tcp", Err: err}
	}
	return n, nil
}
