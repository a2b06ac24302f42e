package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tapis/internal/pgtest"
)

// tapisSide runs `tapis simulate --store` processes, each selling to its own
// account, on a new store for each measure.
type tapisSide struct {
	bin   string // the tapis built for this run
	dir   string // holds bin, and the SQLite stores
	store storeURL
	game  string
	stake string
	n     int     // measures so far, naming their stores
	rate  float64 // the last purchases a second measured, to size the next
}

// newTapisSide builds tapis from the module and returns its side, or nil
// (having said so on stderr) when that build's simulate takes no --store.
func newTapisSide(ctx context.Context, cfg config, stderr io.Writer) (*tapisSide, error) {
	root, err := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return nil, fmt.Errorf("finding the tapis module (run this from it): %w", err)
	}
	parent := os.TempDir()
	if !cfg.store.postgres {
		parent = filepath.Dir(cfg.store.path)
	}
	dir, err := os.MkdirTemp(parent, "tapis-throughput-tapis-")
	if err != nil {
		return nil, fmt.Errorf("making a directory for tapis: %w", err)
	}
	t := &tapisSide{bin: filepath.Join(dir, "tapis"), dir: dir, store: cfg.store, game: cfg.game, stake: cfg.stake}
	build := exec.CommandContext(ctx, "go", "build", "-o", t.bin, ".")
	build.Dir = strings.TrimSpace(string(root))
	if out, err := build.CombinedOutput(); err != nil {
		return nil, errors.Join(fmt.Errorf("building tapis: %w: %s", err, lastLines(out, 5)), t.close())
	}
	// simulate -h may exit non-zero; its text is what tells.
	help, _ := exec.CommandContext(ctx, t.bin, "simulate", "-h").CombinedOutput()
	if !takesStore(help) {
		fmt.Fprintln(stderr, notInBuild)
		return nil, t.close()
	}
	return t, nil
}

// takesStore tells whether `tapis simulate -h` printed help that offers
// --store.
func takesStore(help []byte) bool {
	return bytes.Contains(help, []byte("-store"))
}

func (t *tapisSide) close() error {
	if err := os.RemoveAll(t.dir); err != nil {
		return fmt.Errorf("removing tapis's directory: %w", err)
	}
	return nil
}

// simulateResult is the part of `simulate --json`'s last line measured here.
type simulateResult struct {
	Units          *int64   `json:"units"`
	Seconds        *float64 `json:"seconds"`
	UnitsPerSecond *float64 `json:"units_per_second"`
}

// parseSimulate reads the JSON object on the last non-empty line of
// simulate's output.
func parseSimulate(out []byte) (units int64, seconds float64, err error) {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	var r simulateResult
	if err := json.Unmarshal([]byte(last), &r); err != nil {
		return 0, 0, fmt.Errorf("simulate's last line %q is not its JSON report: %w", last, err)
	}
	if r.Units == nil || r.Seconds == nil || r.UnitsPerSecond == nil {
		return 0, 0, fmt.Errorf("simulate's report %q lacks units, seconds or units_per_second", last)
	}
	if *r.Units < 1 || *r.Seconds <= 0 {
		return 0, 0, fmt.Errorf("simulate's report %q sold nothing or took no time", last)
	}
	return *r.Units, *r.Seconds, nil
}

// simulate runs one simulate process of count units for account.
func (t *tapisSide) simulate(ctx context.Context, store, account string, count int64) ([]byte, error) {
	cmd := exec.CommandContext(ctx, t.bin, "simulate", "--store", store, "--account", account,
		"--game", t.game, "--stake", t.stake, "--count", strconv.FormatInt(count, 10), "--json")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("tapis simulate --account %s: %w: %s", account, err, lastLines(stderr.Bytes(), 3))
	}
	return out, nil
}

// newStore makes a store for one measure and returns its URL and how to
// remove it.
func (t *tapisSide) newStore(ctx context.Context) (string, func(context.Context) error, error) {
	t.n++
	if t.store.postgres {
		return pgtest.CreateDatabase(ctx, t.store.raw, "tapis_tp_")
	}
	path := filepath.Join(t.dir, fmt.Sprintf("store-%d.db", t.n))
	return "sqlite:" + path, func(context.Context) error { return removeSQLite(path) }, nil
}

// measure opens a new store with one small simulate (the store's creation
// is not measured), then starts c simulate processes at once, each sized to
// run about d at the last rate measured, and returns their purchases over
// the longest one's time.
func (t *tapisSide) measure(ctx context.Context, c int, d time.Duration) (perSecond float64, err error) {
	store, drop, err := t.newStore(ctx)
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, drop(context.WithoutCancel(ctx))) }()
	out, err := t.simulate(ctx, store, "tpwarm", 100)
	if err != nil {
		return 0, fmt.Errorf("opening the store: %w", err)
	}
	if t.rate == 0 {
		units, secs, err := parseSimulate(out)
		if err != nil {
			return 0, err
		}
		t.rate = float64(units) / secs
	}
	count := max(50, int64(math.Ceil(t.rate*d.Seconds()/float64(c))))

	type result struct {
		out []byte
		err error
	}
	results := make(chan result, c)
	for i := range c {
		go func() {
			out, err := t.simulate(ctx, store, "tp"+strconv.Itoa(i), count)
			results <- result{out, err}
		}()
	}
	var total int64
	var longest float64
	var errs []error
	for range c {
		r := <-results
		if r.err != nil {
			errs = append(errs, r.err)
			continue
		}
		units, secs, err := parseSimulate(r.out)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		total += units
		longest = max(longest, secs)
	}
	if len(errs) > 0 {
		return 0, errors.Join(errs...)
	}
	t.rate = float64(total) / longest
	return t.rate, nil
}
