package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"tapis/report"
	"tapis/server"
	"tapis/store"
)

// reportFlags are tapis report's flags, as they are read.
type reportFlags struct {
	store     string
	since     time.Time
	json, csv bool
}

// reportTimeout bounds the reading of a report: one snapshot of the
// store, its purchases summed by the database.
const reportTimeout = 2 * time.Minute

// showReport runs tapis report: the money of a store's emission (package
// report), as text for a host, --json or --csv. It opens the store that
// exists to read it, creates nothing, and reads one snapshot while sellers
// go on. Exit 2 for a bad flag or a store that cannot be opened, 1 when
// the reading fails.
func showReport(env Env, args []string) int {
	f, err := reportArgs(env, args, time.Now, true)
	if err != nil {
		return fail(env, "report", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), reportTimeout)
	defer cancel()
	st, err := store.Open(ctx, f.store, store.Options{Existing: true})
	if err != nil {
		return fail(env, "report", usagef("%v", err))
	}
	defer st.Close()
	r, err := report.Read(ctx, st, f.since)
	if err != nil {
		return fail(env, "report", err)
	}
	if err := f.write(env.Stdout, r); err != nil {
		return fail(env, "report", err)
	}
	return ExitOK
}

// write writes r as f asks: text for a host, JSON or CSV.
func (f reportFlags) write(w io.Writer, r *report.Report) error {
	var err error
	switch {
	case f.json:
		err = r.WriteJSON(w)
	case f.csv:
		err = r.WriteCSV(w)
	default:
		err = r.WriteText(w, time.Local)
	}
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// standReport is ssh HOST report on tapis serve, for the stand's
// operators: tapis report's flags but --store, on the store the server
// sells from (no argument picks another).
func standReport(st *store.SQL) server.Reporter {
	return func(ctx context.Context, w io.Writer, args []string) error {
		f, err := reportArgs(Env{Stdout: io.Discard, Stderr: io.Discard}, args, time.Now, false)
		if err != nil {
			return &server.ArgsError{Err: err}
		}
		r, err := report.Read(ctx, st, f.since)
		if err != nil {
			return err
		}
		return f.write(w, r)
	}
}

// reportArgs reads tapis report's flags; now is the clock --since counts
// back from.
func reportArgs(env Env, args []string, now func() time.Time, withStore bool) (reportFlags, error) {
	var f reportFlags
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	if withStore {
		fs.StringVar(&f.store, "store", server.DefaultStore, "the store `URL` to report on (sqlite:PATH, PATH.db, postgres://…); it must exist")
	}
	since := fs.String("since", "", "count the purchases from `D` on: a duration back from now (2h, 30m), today, or a local date and time (2026-12-02, 2026-12-02T14:00)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object")
	fs.BoolVar(&f.csv, "csv", false, "print one CSV table")
	pos, err := parse(env, fs, args)
	if err != nil {
		return f, err
	}
	if len(pos) > 0 {
		return f, usagef("unexpected argument %q", pos[0])
	}
	if f.json && f.csv {
		return f, usagef("--json and --csv: one output at a time")
	}
	if *since != "" {
		if f.since, err = parseSince(*since, now()); err != nil {
			return f, usagef("--since %q: %v", *since, err)
		}
	}
	if !withStore {
		return f, nil
	}
	if err := checkStoreURL(f.store); err != nil {
		return f, err
	}
	return f, nil
}

// parseSince reads --since: a duration back from now, "today" (since
// midnight, local time), or a local date, with or without a time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if s == "today" {
		y, m, d := now.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, now.Location()), nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d <= 0 {
			return time.Time{}, fmt.Errorf("want a duration above zero")
		}
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, now.Location()); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("want a duration (2h), today, or a date and time (2026-12-02T14:00)")
}
