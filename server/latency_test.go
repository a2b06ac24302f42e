package server

import (
	"testing"
	"time"
)

// TestLatencies checks the percentiles of the store calls kept, and that
// the ring keeps the latest ones once full.
func TestLatencies(t *testing.T) {
	var l latencies
	if s := l.summary(); s != (Latency{}) {
		t.Fatalf("no purchase: %+v", s)
	}
	for i := 1; i <= 100; i++ {
		l.record(time.Duration(i) * time.Millisecond)
	}
	s := l.summary()
	if s.Purchases != 100 || s.P50 != 50*time.Millisecond || s.P99 != 99*time.Millisecond || s.Max != 100*time.Millisecond {
		t.Fatalf("1..100 ms: %+v", s)
	}
	for range latencyWindow {
		l.record(time.Second)
	}
	s = l.summary()
	if s.Purchases != 100+latencyWindow || s.P50 != time.Second || s.Max != time.Second {
		t.Fatalf("a window of 1 s after 1..100 ms: %+v", s)
	}
}
