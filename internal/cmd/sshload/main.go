// Command sshload plays many SSH sessions at once against running `tapis
// serve` processes, as issue 13's load test asks: each session has a key
// of its own (an account of its own), an 80×24 PTY (-size), opens Yam's and presses
// a (buy and reveal) every -every for -for, then quits; with -idle it
// sits on Yam's for -for instead. It prints the percentiles of each
// session's first frame (from beginning to connect) and of each key's
// answer (from the key sent to the first write of at least -answer-min
// bytes after it), as the client sees them. The servers measure their
// store calls themselves: `tapis serve` logs the purchase latency (p50,
// p99) when it stops; its memory is what `/usr/bin/time -v` reports for
// it. `go run ./internal/cmd/serveload` runs the whole measure, server
// processes included.
//
// Usage, from the module's root:
//
//	go run ./internal/cmd/sshload -addr 127.0.0.1:23234[,127.0.0.1:23235] [-sessions 200] [-every 2s] [-for 1m] [-idle] [-size 80x24] [-answer-min 64]
//
// Sessions are spread over the addresses in turn; only loopback addresses
// are accepted. Exit status: 0 when every session played, 1 when one
// failed, 2 for bad flags.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"tapis/internal/sshload"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run plays the load the flags ask for.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sshload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addrs := fs.String("addr", "127.0.0.1:23234", "the servers' `ADDRS`, comma-separated (loopback only)")
	c := sshload.Config{Open: "1", Press: "a"}
	fs.IntVar(&c.Sessions, "sessions", 200, "how many sessions at once")
	fs.DurationVar(&c.Every, "every", 2*time.Second, "a press of a every `D` in each session")
	fs.DurationVar(&c.For, "for", time.Minute, "how long each session presses")
	fs.BoolVar(&c.Idle, "idle", false, "sit on Yam's for -for, pressing nothing")
	size := fs.String("size", "80x24", "each session's PTY, `COLSxROWS`")
	fs.IntVar(&c.AnswerMin, "answer-min", 64, "the least `BYTES` a write holds to answer a key (the clock's second is 32)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sshload: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	var err error
	if c.Width, c.Height, err = sshload.ParseSize(*size); err != nil {
		fmt.Fprintf(stderr, "sshload: %v\n", err)
		return 2
	}
	c.Addrs = strings.Split(*addrs, ",")
	start := time.Now()
	res, err := sshload.Run(ctx, c)
	if err != nil && res.Keys == nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "%d sessions on %s for %s: %d opened, %d failed, %d presses, %.1f MB received, every session on screen %s after the start (sessions begin in turn), %s in all\n",
		c.Sessions, *addrs, c.For, res.Opened, res.Failed, res.Presses, float64(res.Bytes)/1e6,
		res.Connect.Round(time.Millisecond), time.Since(start).Round(time.Second))
	fmt.Fprintf(stdout, "first frame %s; key answer %s (%d answered)\n", res.FirstFrame, res.Answer, res.Answer.N)
	for _, e := range res.Errors {
		fmt.Fprintf(stderr, "%v\n", e)
	}
	if err != nil || res.Failed > 0 {
		return 1
	}
	return 0
}
