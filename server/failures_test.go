package server

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
)

// TestFailuresHoldBackAFlood: a store that fails every purchase writes
// one line per failureQuiet, each counting those held back, and one when
// purchases sell again; the next failure after that is written at once,
// and those held back when the server stops are counted then.
func TestFailuresHoldBackAFlood(t *testing.T) {
	var buf bytes.Buffer
	l := log.NewWithOptions(&buf, log.Options{})
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	f := newFailures(l, func() time.Time { return now })
	for i := 0; i < 500; i++ { // 50 a second for 10 s, and one more
		f.failed("purchase", i)
		now = now.Add(20 * time.Millisecond)
	}
	f.failed("purchase", 500)
	f.sold()
	f.sold() // nothing held: nothing written
	f.failed("purchase", 501)
	f.failed("purchase", 502)
	f.flush()
	f.flush() // nothing held: nothing written
	want := []string{
		`ERROR purchase failed purchase=0`,
		`ERROR purchase failed purchase=500 held_back=499`,
		`INFO  purchases sell again held_back=0 since=10:00:10`,
		`ERROR purchase failed purchase=501`,
		`ERROR purchases failed, not written one by one held_back=1`,
	}
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
