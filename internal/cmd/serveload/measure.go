package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"time"

	"tapis/internal/pgtest"
	"tapis/internal/sshload"
)

// side is what is served: tapis, or its peer.
type side struct {
	name      string
	open      string // the keys that lead from the first frame to Yam's
	purchases bool   // the server logs its purchases line
	// start starts server i of a measure, its files in dir, on store
	// (tapis only), and returns it listening at its address.
	start func(ctx context.Context, dir string, i int, store string) (*child, string, error)
}

// listening is tapis serve's log line once it listens.
var listening = regexp.MustCompile(`listening addr=(\S+)`)

// tapisSide serves `tapis serve`: menu first, 1 opens Yam's.
func tapisSide(name, program string) side {
	return side{name: name, open: "1", purchases: true,
		start: func(ctx context.Context, dir string, i int, store string) (*child, string, error) {
			args := []string{"serve", "--listen", "127.0.0.1:0", "--store", store,
				"--host-key", filepath.Join(dir, fmt.Sprintf("host-%d", i)), "--house-key", filepath.Join(dir, "house"),
				"--max-sessions", "400"} // and the default --open-blocks, as a host starts it
			c, err := startChild(fmt.Sprintf("%s serve %d", name, i), program, args...)
			if err != nil {
				return nil, "", err
			}
			addr, err := waitFor(ctx, c, time.Minute, func() (string, bool) {
				m := listening.FindStringSubmatch(c.log.String())
				if m == nil {
					return "", false
				}
				return m[1], true
			})
			return c, addr, err
		}}
}

// peerSide serves wishfloor: Yam's at once, a the same.
func peerSide(cfg config) side {
	return side{name: "wishfloor",
		start: func(ctx context.Context, dir string, i int, _ string) (*child, string, error) {
			addr, err := freePort()
			if err != nil {
				return nil, "", err
			}
			c, err := startChild(fmt.Sprintf("wishfloor %d", i), cfg.peer, "-addr", addr,
				"-host-key", filepath.Join(dir, fmt.Sprintf("peer-%d", i)))
			if err != nil {
				return nil, "", err
			}
			_, err = waitFor(ctx, c, 30*time.Second, func() (string, bool) {
				conn, err := net.DialTimeout("tcp", addr, time.Second)
				if err != nil {
					return "", false
				}
				conn.Close()
				return addr, true
			})
			return c, addr, err
		}}
}

// freePort is an address of 127.0.0.1 the kernel just handed out as free.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitFor polls ready until it says the child listens, the child exits,
// or limit passes.
func waitFor(ctx context.Context, c *child, limit time.Duration, ready func() (string, bool)) (string, error) {
	deadline := time.Now().Add(limit)
	for {
		if addr, ok := ready(); ok {
			return addr, nil
		}
		select {
		case <-c.done:
			return "", fmt.Errorf("%s exited before listening: %v: %s", c.name, c.err, c.log.last(5))
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("%s not listening after %s: %s", c.name, limit, c.log.last(5))
		}
	}
}

// figures are one measure's.
type figures struct {
	sold               int64         // purchases, all servers
	buyP50, buyP99     time.Duration // the servers' largest
	firstFrame, answer sshload.Spread
	cpuMs              float64 // server CPU per session-second, ms
	memMB              float64 // per session, MB
	rss1, hwm          int64   // kB, all servers
	bytesPerSec        float64 // received per session-second
	idleMs             float64 // server CPU per idle session-second, ms; NaN when not measured
}

func (f figures) String() string {
	s := ""
	if f.sold > 0 || f.buyP99 > 0 {
		s = fmt.Sprintf("purchases %d, p50 %s p99 %s (server); ", f.sold, f.buyP50, f.buyP99)
	}
	return s + fmt.Sprintf("first frame %s; key answer %s (%d answered); CPU %.3f ms a session-second; memory %.2f MB a session (%.1f MB at one session, peak %.1f MB); %.0f bytes a session-second; idle %.4f ms CPU a second",
		f.firstFrame, f.answer, f.answer.N, f.cpuMs, f.memMB, float64(f.rss1)*1024/1e6, float64(f.hwm)*1024/1e6, f.bytesPerSec, f.idleMs)
}

// measure starts s's servers afresh, plays the loads on them, stops them
// and returns the figures; tck is the clock ticks a second.
func measure(ctx context.Context, cfg config, s side, tck float64) (f figures, err error) {
	dir, err := os.MkdirTemp("", "tapis-serveload-")
	if err != nil {
		return f, fmt.Errorf("making a directory for the servers: %w", err)
	}
	defer func() {
		if rerr := os.RemoveAll(dir); rerr != nil {
			err = errors.Join(err, fmt.Errorf("removing the servers' directory: %w", rerr))
		}
	}()
	store := ""
	if s.purchases {
		if cfg.postgres() {
			db, drop, cerr := pgtest.CreateDatabase(ctx, cfg.store, "tapis_load_")
			if cerr != nil {
				return f, fmt.Errorf("making the store's database: %w", cerr)
			}
			// Dropped once the servers are gone (deferred before
			// their kill, it runs after it).
			defer func() { err = errors.Join(err, drop(context.WithoutCancel(ctx))) }()
			store = db
		} else {
			store = "sqlite:" + filepath.Join(dir, "load.db")
		}
	}
	var servers []*child
	defer func() {
		for _, c := range servers {
			c.kill()
		}
	}()
	var addrs []string
	// One after the other: the first makes the store the others open.
	for i := range cfg.servers {
		c, addr, err := s.start(ctx, dir, i, store)
		if c != nil {
			servers = append(servers, c)
		}
		if err != nil {
			return f, err
		}
		addrs = append(addrs, addr)
	}
	w := &window{servers: servers, tck: tck}
	// One session on each server, on Yam's: the servers' RSS then.
	var rss1 []int64
	var rerr error
	one := sshload.Config{Addrs: addrs, Sessions: len(addrs), Open: s.open, Idle: true, For: time.Second,
		Settle: 200 * time.Millisecond, Width: cfg.width, Height: cfg.height,
		Ended: func() { rss1, rerr = w.mem("VmRSS") }}
	if _, err := play(ctx, one, "one session a server"); err != nil {
		return f, err
	}
	if rerr != nil || rss1 == nil {
		return f, errors.Join(errors.New("the RSS at one session was not read"), rerr)
	}
	load := sshload.Config{Addrs: addrs, Sessions: cfg.sessions, Open: s.open, Press: "a", Every: cfg.every,
		For: cfg.load, AnswerMin: cfg.answerMin, Width: cfg.width, Height: cfg.height, Started: w.start, Ended: w.end}
	res, err := play(ctx, load, "the load")
	if err != nil {
		return f, err
	}
	cpu, secs, err := w.result()
	if err != nil {
		return f, fmt.Errorf("the load: %w", err)
	}
	hwm, err := w.mem("VmHWM")
	if err != nil {
		return f, err
	}
	sessSecs := float64(cfg.sessions) * secs
	f.firstFrame, f.answer = res.FirstFrame, res.Answer
	f.cpuMs = cpu * 1000 / sessSecs
	f.bytesPerSec = float64(res.PlayBytes) / sessSecs
	for i := range servers {
		f.rss1 += rss1[i]
		f.hwm += hwm[i]
	}
	f.memMB = float64(f.hwm-f.rss1) * 1024 / 1e6 / float64(cfg.sessions-cfg.servers)
	f.idleMs = nan()
	if cfg.idle > 0 {
		// The window opens idleWarm after the last session is in: the
		// logins' own work (and the collection of their garbage) is
		// done by then.
		w = &window{servers: servers, tck: tck}
		idle := sshload.Config{Addrs: addrs, Sessions: cfg.idleSessions, Open: s.open, Idle: true, For: idleWarm + cfg.idle,
			Settle: 200 * time.Millisecond, Width: cfg.width, Height: cfg.height,
			Started: func() { time.AfterFunc(idleWarm, w.start) }, Ended: w.end}
		if _, err := play(ctx, idle, "the idle sessions"); err != nil {
			return f, err
		}
		cpu, secs, err := w.result()
		if err != nil {
			return f, fmt.Errorf("the idle sessions: %w", err)
		}
		f.idleMs = cpu * 1000 / (float64(cfg.idleSessions) * secs)
	}
	var errs []error
	for _, c := range servers {
		if err := c.stop(30 * time.Second); err != nil {
			errs = append(errs, err)
			continue
		}
		if !s.purchases {
			continue
		}
		b, err := parsePurchases(c.log.String())
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.name, err))
			continue
		}
		f.sold += b.sold
		f.buyP50, f.buyP99 = max(f.buyP50, b.p50), max(f.buyP99, b.p99)
	}
	return f, errors.Join(errs...)
}

// play runs one load within its time and a margin, and fails when a
// session failed.
func play(ctx context.Context, c sshload.Config, what string) (sshload.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, c.For+3*time.Minute)
	defer cancel()
	res, err := sshload.Run(ctx, c)
	if err != nil {
		return res, fmt.Errorf("%s: %w", what, err)
	}
	if res.Failed > 0 {
		return res, fmt.Errorf("%s: %d of %d sessions failed: %w", what, res.Failed, c.Sessions, errors.Join(res.Errors...))
	}
	return res, nil
}

// idleWarm is how long the idle sessions sit before their window opens.
const idleWarm = 2 * time.Second

// window reads the servers' CPU as a load starts and ends, from sshload's
// Started and Ended (or a timer).
type window struct {
	servers      []*child
	tck          float64
	mu           sync.Mutex
	t0, t1       time.Time
	cpu0, cpu1   uint64
	began, ended bool
	err          error
}

func (w *window) start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t0, w.cpu0 = time.Now(), 0
	for _, c := range w.servers {
		t, err := cpuTicks(c.pid())
		w.err = errors.Join(w.err, err)
		w.cpu0 += t
	}
	w.began = true
}

func (w *window) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.began {
		w.err = errors.Join(w.err, errors.New("the window ended before it began"))
	}
	w.t1, w.cpu1 = time.Now(), 0
	for _, c := range w.servers {
		t, err := cpuTicks(c.pid())
		w.err = errors.Join(w.err, err)
		w.cpu1 += t
	}
	w.ended = true
}

// result is the servers' CPU seconds over the window, and its wall time.
func (w *window) result() (cpu, secs float64, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.err != nil:
		return 0, 0, w.err
	case !w.began || !w.ended:
		return 0, 0, errors.New("the window was not read at both ends")
	}
	return float64(w.cpu1-w.cpu0) / w.tck, w.t1.Sub(w.t0).Seconds(), nil
}

// mem reads field (VmRSS, VmHWM) of each server, in kB.
func (w *window) mem(field string) ([]int64, error) {
	out := make([]int64, len(w.servers))
	for i, c := range w.servers {
		kb, err := memKB(c.pid(), field)
		if err != nil {
			return nil, err
		}
		out[i] = kb
	}
	return out, nil
}

// purchases are the figures of tapis serve's last purchases line.
type purchases struct {
	sold          int64
	p50, p99, max time.Duration
}

// purchasesLine is tapis serve's line at shutdown: "purchases sold=N
// p50=D p99=D max=D".
var purchasesLine = regexp.MustCompile(`purchases sold=(\d+) p50=(\S+) p99=(\S+) max=(\S+)`)

// parsePurchases reads the last purchases line of a tapis serve log.
func parsePurchases(log string) (purchases, error) {
	all := purchasesLine.FindAllStringSubmatch(log, -1)
	if all == nil {
		return purchases{}, errors.New(`no "purchases sold=… p50=… p99=… max=…" line in its log`)
	}
	m := all[len(all)-1]
	var p purchases
	var err error
	if p.sold, err = strconv.ParseInt(m[1], 10, 64); err != nil {
		return purchases{}, fmt.Errorf("the purchases line's sold=%q: %w", m[1], err)
	}
	for i, d := range []*time.Duration{&p.p50, &p.p99, &p.max} {
		if *d, err = time.ParseDuration(m[2+i]); err != nil {
			return purchases{}, fmt.Errorf("the purchases line: %w", err)
		}
	}
	return p, nil
}
