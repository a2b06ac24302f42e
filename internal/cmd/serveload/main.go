// Command serveload measures `tapis serve` under a room of players, beside
// its peer, in one run (issue 22): -sessions SSH sessions (internal/sshload)
// each pressing a (Auto: buy and reveal) in Yam's every -every for -for,
// then as many sitting on Yam's for -idle, pressing nothing; and the same
// against the peer, wishfloor (/work/shared/peers/wishfloor: the smallest
// Bubble Tea v2 program over wish doing the same visible work, no menu, no
// store), in the same run, the two alternating so that both meet the same
// machine. The load client runs on the same machine as the servers.
//
// Each measure starts its servers afresh as child processes, GOGC unset
// (tapis serve then sets its own), listening on 127.0.0.1: tapis serve on
// a new store (sqlite:DIR/load.db in a new temporary directory, or on
// PostgreSQL a new database made on -store's server, dropped after), with
// its host and house keys in that directory, --max-sessions 400 and the
// default --open-blocks. It connects one session to each
// server and reads the server's VmRSS (/proc/PID/status) once it is on
// Yam's, then plays the load, reading each server's CPU (utime + stime,
// /proc/PID/stat) as the sessions start pressing and as they stop, and its
// VmHWM once they have quit; then the idle sessions, the CPU read the
// same way; then it stops the servers with SIGTERM and reads tapis's
// "purchases sold=… p50=… p99=… max=…" log line. The figures:
//
//   - purchase latency p99: around the store call, from the server's log
//     (with several servers, the largest of their p99s);
//   - first frame p99, a key's answer p99: as the client sees them (sshload:
//     from beginning to connect to the first write that draws text; from a
//     key sent to the first write after it of at least -answer-min bytes);
//   - server CPU per session-second: the servers' CPU over the pressing
//     window divided by sessions × that window's wall time (every session is
//     connected throughout it);
//   - memory per session: the sum over servers of (VmHWM − VmRSS at one
//     session), divided by the sessions less one a server; MB are 10⁶ bytes;
//   - bytes sent per session-second: what the sessions received in the
//     pressing window, divided by sessions × the window;
//   - a session sitting on a screen with a clock: the servers' CPU over the
//     idle window, divided by idle sessions × that window.
//
// It prints a markdown table of each figure's median over -runs for tapis
// and the peer, their ratio and the goal, and each measure's figures on
// stderr. Only loopback is played on (sshload enforces it). Every child is
// killed by its pid at the end, on failure and on ctrl+c too.
//
// Usage, from the module's root (go build -o /tmp/tapis . first; the peer
// with cd /work/shared/peers/wishfloor && go build -o /tmp/wishfloor .):
//
//	go run ./internal/cmd/serveload -tapis /tmp/tapis -peer /tmp/wishfloor [-before /tmp/tapis-old] [-sessions 200] [-every 1.5s] [-for 20s]
//	    [-idle 20s] [-idle-sessions N] [-runs 3] [-store sqlite | -store postgres://URL -servers 2] [-size 100x30] [-answer-min 64]
//
// With -before, an earlier build of tapis is measured too, in turn with the
// others in each run: on a shared machine whose speed drifts from one half
// hour to the next, a change is measured against its build before in the
// same runs, not against a figure taken earlier.
//
// On PostgreSQL the URL's user needs CREATEDB. Exit status: 0 when every
// measure ran, 1 when one failed (the table gives the medians of those
// that ran), 2 for bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"tapis/internal/sshload"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	tapis, peer   string // the programs
	before        string // another tapis build measured beside them, "" for none
	sessions      int    // sessions pressing, spread over the servers
	idleSessions  int    // sessions sitting
	every, load   time.Duration
	idle          time.Duration // 0: no idle measure
	runs          int
	store         string // "sqlite", or a postgres:// server's URL
	servers       int    // servers of each side, sharing tapis's store
	width, height int
	answerMin     int
}

// postgres tells whether tapis's stores are PostgreSQL databases.
func (c config) postgres() bool { return c.store != "sqlite" }

// storeName is the store as it may be printed: without a password.
func (c config) storeName() string {
	if !c.postgres() {
		return "SQLite"
	}
	u, err := url.Parse(c.store) // parseFlags parsed it
	if err != nil {
		return "PostgreSQL"
	}
	return "PostgreSQL (" + u.Redacted() + ")"
}

const usage = `usage: go run ./internal/cmd/serveload -tapis /tmp/tapis -peer /tmp/wishfloor [-before /tmp/tapis-old] [-sessions 200] [-every 1.5s] [-for 20s]
    [-idle 20s] [-idle-sessions N] [-runs 3] [-store sqlite | -store postgres://URL -servers 2] [-size 100x30] [-answer-min 64]`

// maxSessions bounds -sessions and -idle-sessions, as sshload does.
const maxSessions = 10_000

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("serveload", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // a bad flag is said in one line, by run
	var c config
	fs.StringVar(&c.tapis, "tapis", "", "the tapis `PROGRAM` to serve (go build -o /tmp/tapis .)")
	fs.StringVar(&c.peer, "peer", "", "the peer `PROGRAM`, wishfloor")
	fs.StringVar(&c.before, "before", "", "another tapis `PROGRAM` (an earlier build) measured in the same runs, in turn with the others: the table gives its column and tapis's ratio to it")
	fs.IntVar(&c.sessions, "sessions", 200, "sessions pressing at once, spread over the servers")
	fs.DurationVar(&c.every, "every", 1500*time.Millisecond, "a press of a every `D` in each session")
	fs.DurationVar(&c.load, "for", 20*time.Second, "how long the sessions press")
	fs.DurationVar(&c.idle, "idle", 20*time.Second, "how long the idle sessions sit (0: not measured)")
	fs.IntVar(&c.idleSessions, "idle-sessions", 0, "sessions sitting at once (0: -sessions)")
	fs.IntVar(&c.runs, "runs", 3, "runs, each measuring tapis and the peer (the table gives the medians)")
	fs.StringVar(&c.store, "store", "sqlite", "tapis's store: sqlite (a new file each measure) or a postgres://user@host:port/db `URL` (a new database each measure)")
	fs.IntVar(&c.servers, "servers", 1, "servers of each side, the sessions spread over them")
	size := fs.String("size", "100x30", "each session's PTY, `COLSxROWS`")
	fs.IntVar(&c.answerMin, "answer-min", 64, "the least `BYTES` a write holds to answer a key (a clock's second is 6 to 32)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, usage)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
		}
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	var err error
	if c.width, c.height, err = sshload.ParseSize(*size); err != nil {
		return config{}, err
	}
	if c.idleSessions == 0 {
		c.idleSessions = c.sessions
	}
	return c, c.check()
}

// check refuses a load that is not bounded, or programs that are not
// there.
func (c config) check() error {
	for _, p := range []struct{ flag, path string }{{"-tapis", c.tapis}, {"-peer", c.peer}, {"-before", c.before}} {
		if p.path == "" && p.flag == "-before" {
			continue
		}
		if p.path == "" {
			return fmt.Errorf("%s is required", p.flag)
		}
		fi, err := os.Stat(p.path)
		if err != nil {
			return fmt.Errorf("%s: %w", p.flag, err)
		}
		if fi.IsDir() || fi.Mode()&0o111 == 0 {
			return fmt.Errorf("%s %s: not an executable file", p.flag, p.path)
		}
	}
	switch {
	case c.servers < 1 || c.servers > 16:
		return fmt.Errorf("-servers %d: want 1 to 16", c.servers)
	case c.sessions < 2*c.servers || c.sessions > maxSessions:
		return fmt.Errorf("-sessions %d: want %d to %d (two a server at least)", c.sessions, 2*c.servers, maxSessions)
	case c.idleSessions < 1 || c.idleSessions > maxSessions:
		return fmt.Errorf("-idle-sessions %d: want 1 to %d", c.idleSessions, maxSessions)
	case c.every <= 0 || c.every > time.Hour:
		return fmt.Errorf("-every %s: want it positive, at most 1h", c.every)
	case c.load <= 0 || c.load > time.Hour:
		return fmt.Errorf("-for %s: want it positive, at most 1h", c.load)
	case c.idle < 0 || c.idle > time.Hour:
		return fmt.Errorf("-idle %s: want 0 to 1h", c.idle)
	case c.runs < 1 || c.runs > 100:
		return fmt.Errorf("-runs %d: want 1 to 100", c.runs)
	case c.answerMin < 0:
		return fmt.Errorf("-answer-min %d: want 0 or more", c.answerMin)
	}
	if c.postgres() {
		u, err := url.Parse(c.store)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			// Not echoed: it may hold a password.
			return errors.New("-store: want sqlite or a postgres://user@host:port/db URL")
		}
	}
	return nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "serveload:", err)
		return 2
	}
	tck, err := clockTicks(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "serveload:", err)
		return 1
	}
	sides := []side{tapisSide("tapis", cfg.tapis), peerSide(cfg)}
	if cfg.before != "" {
		sides = append(sides, tapisSide("tapis before", cfg.before))
	}
	got := make([][]figures, len(sides))
	failed := false
	for r := range cfg.runs {
		for k := range sides {
			i := (k + r) % len(sides) // each side first in turn
			f, err := measure(ctx, cfg, sides[i], tck)
			if err != nil {
				fmt.Fprintf(stderr, "serveload: run %d, %s: %v\n", r+1, sides[i].name, err)
				failed = true
				if ctx.Err() != nil {
					break
				}
				continue
			}
			fmt.Fprintf(stderr, "run %d, %s: %s\n", r+1, sides[i].name, f)
			got[i] = append(got[i], f)
		}
		if ctx.Err() != nil {
			break
		}
	}
	if len(got[0]) > 0 || len(got[1]) > 0 {
		writeTable(stdout, cfg, sides, got)
	}
	if failed {
		return 1
	}
	return 0
}
