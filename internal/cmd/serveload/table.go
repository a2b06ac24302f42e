package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"tapis/internal/quantile"
)

// row is one figure of the table: what it is, its goal, and how it is
// read from a measure (NaN: not measured).
type row struct {
	what, goal string
	unit       string
	digits     int
	of         func(figures) float64
	tapisOnly  bool
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func nan() float64 { return math.NaN() }

// tableRows are the table's figures, in order.
func tableRows() []row {
	return []row{
		{what: "purchase latency around the store call, p99 (the server's log)", goal: "≤ 50 ms", unit: "ms", digits: 1,
			of: func(f figures) float64 { return ms(f.buyP99) }, tapisOnly: true},
		{what: "first frame after connecting, p99 (the client)", goal: "≤ 300 ms", unit: "ms", digits: 1,
			of: func(f figures) float64 { return ms(f.firstFrame.P99) }},
		{what: "a key's answer, p99 (the client)", goal: "measured", unit: "ms", digits: 1,
			of: func(f figures) float64 { return ms(f.answer.P99) }},
		{what: "server CPU per session-second", goal: "≤ 1 ms", unit: "ms", digits: 3,
			of: func(f figures) float64 { return f.cpuMs }},
		{what: "memory per session (peak RSS − RSS at 1 session)", goal: "≤ 1 MB", unit: "MB", digits: 2,
			of: func(f figures) float64 { return f.memMB }},
		{what: "bytes sent per session-second", goal: "measured", unit: "B", digits: 0,
			of: func(f figures) float64 { return f.bytesPerSec }},
		{what: "a session that only sits on a screen with a clock, CPU a second", goal: "≤ 0.05 ms", unit: "ms", digits: 4,
			of: func(f figures) float64 { return f.idleMs }},
	}
}

// writeTable writes each figure's median over the runs for each side (the
// first is tapis, the second its peer, a third an earlier build of tapis)
// as a markdown table.
func writeTable(w io.Writer, cfg config, sides []side, got [][]figures) {
	runs := make([]string, len(got))
	for i := range got {
		runs[i] = fmt.Sprint(len(got[i]))
	}
	fmt.Fprintf(w, "%d sessions pressing a every %s for %s, %d sitting for %s, %s, %d server(s) a side, %dx%d PTYs; medians of %s runs\n\n",
		cfg.sessions, cfg.every, cfg.load, cfg.idleSessions, cfg.idle, cfg.storeName(), cfg.servers, cfg.width, cfg.height, strings.Join(runs, " and "))
	before := len(sides) > 2
	if before {
		fmt.Fprintf(w, "| figure | goal | %s | %s (peer) | ratio | %s | ratio to it |\n", sides[0].name, sides[1].name, sides[2].name)
		fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|")
	} else {
		fmt.Fprintf(w, "| figure | goal | %s | %s (peer) | ratio |\n", sides[0].name, sides[1].name)
		fmt.Fprintln(w, "|---|---|---:|---:|---:|")
	}
	ratio := func(t, p float64) string {
		if math.IsNaN(t) || math.IsNaN(p) || p <= 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", t/p)
	}
	for _, r := range tableRows() {
		t, p := medianOf(got[0], r.of), medianOf(got[1], r.of)
		peer, ps := ratio(t, p), r.format(p)
		if r.tapisOnly {
			peer, ps = "—", "— (no purchases)"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |", r.what, r.goal, r.format(t), ps, peer)
		if before {
			b := medianOf(got[2], r.of)
			fmt.Fprintf(w, " %s | %s |", r.format(b), ratio(t, b))
		}
		fmt.Fprintln(w)
	}
}

// format writes a figure with its unit, or "not measured".
func (r row) format(v float64) string {
	if math.IsNaN(v) {
		return "not measured"
	}
	return fmt.Sprintf("%.*f %s", r.digits, v, r.unit)
}

// medianOf is the median of a figure over measures, NaN for none.
func medianOf(fs []figures, of func(figures) float64) float64 {
	var xs []float64
	for _, f := range fs {
		if v := of(f); !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	return quantile.Median(xs)
}
