package server

import (
	"slices"
	"sync"
	"tapis/internal/quantile"
	"time"
)

// latencyWindow is how many of the latest purchases' store calls a server
// keeps the duration of: enough for a minute of 200 players buying every
// second, in 512 KiB.
const latencyWindow = 1 << 16

// Latency sums up how long the store took to sell: the time around each
// purchase's store call, as the server measured it, over its latest
// purchases (at most 65 536).
type Latency struct {
	Purchases int           // purchases measured since the server started
	P50, P99  time.Duration // over the latest ones kept
	Max       time.Duration // over the latest ones kept
}

// latencies keeps the durations of the latest store calls, a ring.
type latencies struct {
	mu    sync.Mutex
	ring  []time.Duration
	count int // every call recorded, the ring holding the last of them
}

// record adds one store call's duration.
func (l *latencies) record(d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ring) < latencyWindow {
		l.ring = append(l.ring, d)
	} else {
		l.ring[l.count%latencyWindow] = d
	}
	l.count++
}

// summary returns the percentiles of the durations kept.
func (l *latencies) summary() Latency {
	l.mu.Lock()
	kept := slices.Clone(l.ring)
	count := l.count
	l.mu.Unlock()
	s := Latency{Purchases: count}
	if len(kept) == 0 {
		return s
	}
	slices.Sort(kept)
	s.P50, s.P99, s.Max = quantile.Of(kept, 0.50), quantile.Of(kept, 0.99), kept[len(kept)-1]
	return s
}
