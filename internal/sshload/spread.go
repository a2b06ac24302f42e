package sshload

import (
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"tapis/internal/quantile"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// maxSamples bounds the durations a load keeps of one kind (first frames,
// key answers): 8 MiB. Past it, a uniform sample of them is kept.
const maxSamples = 1 << 20

// Spread sums up durations measured by the client: how many, and their
// percentiles (nearest rank) over all of them, or over a uniform sample
// of 1 048 576 when there were more.
type Spread struct {
	N             int64
	P50, P99, Max time.Duration
}

// String writes the spread as "p50 1.2ms p99 30ms max 41ms".
func (s Spread) String() string {
	if s.N == 0 {
		return "none"
	}
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	return "p50 " + r(s.P50).String() + " p99 " + r(s.P99).String() + " max " + r(s.Max).String()
}

// samples keeps durations, at most limit of them: past it each new one
// replaces a random one kept with the probability that keeps the sample
// uniform (reservoir sampling, Algorithm R).
type samples struct {
	mu    sync.Mutex
	kept  []time.Duration
	n     int64 // every duration added
	limit int
}

func newSamples(limit int) *samples { return &samples{limit: limit} }

// add records one duration.
func (s *samples) add(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	if len(s.kept) < s.limit {
		s.kept = append(s.kept, d)
		return
	}
	if i := mrand.Int64N(s.n); i < int64(s.limit) {
		s.kept[i] = d
	}
}

// spread returns the percentiles of the durations kept.
func (s *samples) spread() Spread {
	s.mu.Lock()
	kept := slices.Clone(s.kept)
	n := s.n
	s.mu.Unlock()
	return spreadOf(kept, n)
}

// spreadOf sums up durations (sorted in place) out of n measured.
func spreadOf(d []time.Duration, n int64) Spread {
	if len(d) == 0 {
		return Spread{N: n}
	}
	slices.Sort(d)
	return Spread{N: n, P50: quantile.Of(d, 0.50), P99: quantile.Of(d, 0.99), Max: d[len(d)-1]}
}

// drawsText tells whether a terminal's output shows something: a
// character other than a space once escape sequences are taken out. A
// program's first bytes may be only queries and modes (Bubble Tea v2
// asks about synchronized output first); its first frame draws text.
func drawsText(p []byte) bool {
	return strings.ContainsFunc(ansi.Strip(string(p)), func(r rune) bool {
		return !unicode.IsSpace(r) && unicode.IsPrint(r)
	})
}

// counter counts what a session receives and times it: its first frame
// (closing first), and the first answer to each key pressed.
type counter struct {
	n      *atomic.Int64
	first  chan struct{}
	dialed time.Time // when the session began to connect
	frames *samples  // time to the first frame
	// answers time each press to the first write after it of at least
	// answerMin bytes.
	answers   *samples
	answerMin int

	mu      sync.Mutex
	seen    bool      // the first frame came
	pressed time.Time // the press waiting for its answer; zero when none
}

func (c *counter) Write(p []byte) (int, error) {
	now := time.Now()
	c.n.Add(int64(len(p)))
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.seen {
		if drawsText(p) {
			c.seen = true
			c.frames.add(now.Sub(c.dialed))
			close(c.first)
		}
		return len(p), nil
	}
	if !c.pressed.IsZero() && len(p) >= c.answerMin {
		c.answers.add(now.Sub(c.pressed))
		c.pressed = time.Time{}
	}
	return len(p), nil
}

// press notes a key about to be sent. A press still waiting for its
// answer keeps its time: the answer that comes is timed from the earlier
// press, the longer wait.
func (c *counter) press() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pressed.IsZero() {
		c.pressed = time.Now()
	}
}
