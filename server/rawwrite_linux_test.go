package server

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"net"
	"os"
	"testing"
	"time"
)

// loopbackPair returns the two ends of a TCP connection on loopback.
func loopbackPair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			accepted <- nil
			return
		}
		accepted <- c
	}()
	client, err = net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accepting the loopback connection failed")
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// TestRawWriterWritesAsTheConn: what a raw writer writes arrives whole
// and in order, a write larger than the socket's buffer to a reader slow
// to read included (it waits in the poller for room); a deadline passed
// and a peer gone end a write with the net package's errors, not a hang
// nor a signal.
func TestRawWriterWritesAsTheConn(t *testing.T) {
	client, server := loopbackPair(t)
	w := rawWriterOf(server)
	if w == nil {
		t.Fatal("a TCP connection has no raw writer")
	}
	want := make([]byte, 8<<20) // past any socket buffer
	r := rand.New(rand.NewPCG(1, 2))
	for i := range want {
		want[i] = byte(r.Uint32())
	}
	got := make(chan []byte, 1)
	go func() {
		var b bytes.Buffer
		buf := make([]byte, 4096)
		for b.Len() < len(want) {
			n, err := client.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
			if b.Len()%(1<<20) < 4096 {
				time.Sleep(5 * time.Millisecond) // a reader slow to read: the socket fills
			}
		}
		got <- b.Bytes()
	}()
	for _, chunk := range [][]byte{want[:10], want[10 : 6<<20], want[6<<20:]} {
		if n, err := w.write(chunk); n != len(chunk) || err != nil {
			t.Fatalf("writing %d bytes: %d, %v", len(chunk), n, err)
		}
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Fatalf("read %d bytes, not the %d written in order", len(b), len(want))
	}
	if n, err := w.write(nil); n != 0 || err != nil {
		t.Errorf("writing nothing: %d, %v", n, err)
	}

	// A deadline passed: the socket full, the write gives up.
	if err := server.SetWriteDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := w.write(make([]byte, 64<<20))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("writing past a deadline: %v, want the deadline exceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the write past its deadline took %s", d)
	}
	server.SetWriteDeadline(time.Time{}) //nolint:errcheck // the connection is the test's

	// The peer gone: the write fails, the process lives on.
	client.Close()
	var werr error
	for range 100 {
		if _, werr = w.write([]byte("after the peer left")); werr != nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	var op *net.OpError
	if !errors.As(werr, &op) {
		t.Errorf("writing to a peer gone: %v, want a net.OpError", werr)
	}

	// Closed here: the write fails at once.
	server.Close()
	if _, err := w.write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Errorf("writing to a closed connection: %v, want net.ErrClosed", err)
	}
}
