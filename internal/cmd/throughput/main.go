// Command throughput measures how many purchases a second `tapis simulate
// --store` sells with 1, 2, 4, 8… processes at once, against the store's own
// database doing its plainest durable transaction with as many clients, on
// the same server or disk, in one run (issue 12, item 8):
//
//   - PostgreSQL (-store postgres://…): the peer is pgbench, `-c C -j C -T S
//     -n` with a script of the -N kind (a one-row UPDATE of an account and a
//     one-row INSERT of a history row a transaction) on pgbench's own tables;
//   - SQLite (-store sqlite:PATH or PATH.db): the peer is a loop of one-row
//     INSERT transactions through modernc.org/sqlite with tapis's settings
//     (WAL, synchronous=FULL, busy_timeout=10000, BEGIN IMMEDIATE), one child
//     process a client, as tapis runs one process a seller.
//
// Each measure has a store of its own, created by its first `simulate` with
// simulate's default flags (no --open-blocks), so that it measures the
// store a user gets: on PostgreSQL a new database on the server (the user
// needs CREATEDB), dropped after it; on SQLite a new file in a temporary
// directory made in PATH's directory (PATH itself is not touched), removed
// at the end. The tapis side is built once from the module
// (`go build`), and runs only when that build's `simulate` takes --store;
// otherwise its column says so. It prints a markdown table of the medians
// over -runs, and each measure on stderr.
//
// Usage, from the module's root:
//
//	go run ./internal/cmd/throughput -store URL [-clients 1,2,4,8] [-seconds 10] [-runs 3] [-game yams] [-stake 1] [-pgbench pgbench]
//
// Exit status: 0 when every measure ran, 1 when one failed, 2 for bad flags.
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
	"strconv"
	"strings"
	"syscall"
	"tapis/internal/quantile"
	"time"
)

// peerFlag, as the first argument, makes the program one client of the
// SQLite peer (see sqlitePeerChild) instead of the benchmark.
const peerFlag = "-peer-sqlite"

func main() {
	if len(os.Args) > 1 && os.Args[1] == peerFlag {
		os.Exit(sqlitePeerChild(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags ask for.
type config struct {
	store   storeURL
	clients []int
	seconds int
	runs    int
	game    string
	stake   string
	pgbench string
}

// storeURL is a -store value, read.
type storeURL struct {
	raw      string
	postgres bool   // a postgres:// server, where each measure makes a database
	path     string // the SQLite path, whose directory holds the measures' files
}

// parseStore reads a -store value as tapis does: postgres:// (or
// postgresql://), sqlite:PATH, or a path ending in .db.
func parseStore(s string) (storeURL, error) {
	switch {
	case strings.HasPrefix(s, "postgres://"), strings.HasPrefix(s, "postgresql://"):
		if _, err := url.Parse(s); err != nil {
			return storeURL{}, errors.New("-store: the postgres:// URL does not parse")
		}
		return storeURL{raw: s, postgres: true}, nil
	case strings.HasPrefix(s, "sqlite:") && len(s) > len("sqlite:"):
		return checkSQLitePath(s, strings.TrimPrefix(s, "sqlite:"))
	case strings.HasSuffix(s, ".db"):
		return checkSQLitePath(s, s)
	case s == "":
		return storeURL{}, errors.New("-store is required: postgres://user@host:port/db, sqlite:PATH or PATH.db")
	}
	return storeURL{}, fmt.Errorf("-store %q: want postgres://user@host:port/db, sqlite:PATH or PATH.db", s)
}

func checkSQLitePath(raw, path string) (storeURL, error) {
	if strings.ContainsAny(path, "?#") {
		return storeURL{}, fmt.Errorf("-store %q: the SQLite path may not hold ? or #", raw)
	}
	return storeURL{raw: raw, path: path}, nil
}

// parseClients reads a comma-separated list of positive client counts.
func parseClients(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 256 {
			return nil, fmt.Errorf("-clients %q: want counts from 1 to 256 separated by commas", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("throughput", flag.ContinueOnError)
	fs.SetOutput(stderr)
	store := fs.String("store", "", "the store: postgres://user@host:port/db (the user needs CREATEDB), sqlite:PATH or PATH.db")
	clients := fs.String("clients", "1,2,4,8", "the client counts, comma-separated")
	var cfg config
	fs.IntVar(&cfg.seconds, "seconds", 10, "how long each measure runs, in seconds")
	fs.IntVar(&cfg.runs, "runs", 3, "how many times each measure runs (the table gives the median)")
	fs.StringVar(&cfg.game, "game", "yams", "the game tapis sells")
	fs.StringVar(&cfg.stake, "stake", "1", "the stake tapis sells")
	fs.StringVar(&cfg.pgbench, "pgbench", "pgbench", "the pgbench program")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./internal/cmd/throughput -store URL [-clients 1,2,4,8] [-seconds 10] [-runs 3]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	var err error
	if cfg.store, err = parseStore(*store); err != nil {
		return config{}, err
	}
	if cfg.clients, err = parseClients(*clients); err != nil {
		return config{}, err
	}
	if cfg.seconds < 1 || cfg.runs < 1 {
		return config{}, errors.New("-seconds and -runs must be at least 1")
	}
	return cfg, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "throughput:", err)
		return 2
	}
	if err := measureAll(ctx, cfg, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "throughput:", err)
		return 1
	}
	return 0
}

// side measures one column: the throughput of c clients for d.
type side interface {
	measure(ctx context.Context, c int, d time.Duration) (perSecond float64, err error)
	close() error
}

// notInBuild is the tapis column when the built tapis has no simulate --store.
const notInBuild = "tapis simulate --store: not in this build"

func measureAll(ctx context.Context, cfg config, stdout, stderr io.Writer) (err error) {
	var peer side
	var title, peerName string
	if cfg.store.postgres {
		peer, err = newPgbenchPeer(cfg.pgbench, cfg.store.raw)
		title, peerName = "PostgreSQL", "pgbench, a one-row UPDATE and a one-row INSERT a transaction (-N style)"
	} else {
		peer, err = newSQLitePeer(cfg.store.path)
		title, peerName = "SQLite", "a one-row INSERT a transaction, modernc.org/sqlite, WAL, synchronous=FULL, busy_timeout=10000, BEGIN IMMEDIATE, one process a client"
	}
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, peer.close()) }()

	tapis, err := newTapisSide(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	if tapis != nil {
		defer func() { err = errors.Join(err, tapis.close()) }()
	}

	d := time.Duration(cfg.seconds) * time.Second
	rows := make([]row, 0, len(cfg.clients))
	for _, c := range cfg.clients {
		r := row{clients: c}
		for i := range cfg.runs {
			v, err := peer.measure(ctx, c, d)
			if err != nil {
				return fmt.Errorf("%s peer, %d clients: %w", title, c, err)
			}
			fmt.Fprintf(stderr, "%s peer, %d clients, run %d: %.1f tps\n", title, c, i+1, v)
			r.peer = append(r.peer, v)
			if tapis == nil {
				continue
			}
			v, err = tapis.measure(ctx, c, d)
			if err != nil {
				return fmt.Errorf("tapis on %s, %d processes: %w", title, c, err)
			}
			fmt.Fprintf(stderr, "tapis on %s, %d processes, run %d: %.1f purchases/s\n", title, c, i+1, v)
			r.tapis = append(r.tapis, v)
		}
		rows = append(rows, r)
	}
	fmt.Fprintf(stdout, "%s (%s), %d s a measure, median of %d runs; peer: %s\n\n", title, redactStore(cfg.store), cfg.seconds, cfg.runs, peerName)
	writeTable(stdout, rows)
	return nil
}

// redactStore is the store as it may be printed: without a password.
func redactStore(s storeURL) string {
	if !s.postgres {
		return s.raw
	}
	u, err := url.Parse(s.raw) // parseStore parsed it
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}

// row is one client count's measures.
type row struct {
	clients int
	peer    []float64
	tapis   []float64 // empty when the tapis build cannot use a store
}

// writeTable writes the medians as a markdown table.
func writeTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| clients | peer tps (median) | tapis purchases/s (median) | ratio |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|")
	for _, r := range rows {
		p := quantile.Median(r.peer)
		if len(r.tapis) == 0 {
			fmt.Fprintf(w, "| %d | %.0f | %s | — |\n", r.clients, p, notInBuild)
			continue
		}
		t := quantile.Median(r.tapis)
		fmt.Fprintf(w, "| %d | %.0f | %.0f | %.2f |\n", r.clients, p, t, t/p)
	}
}
