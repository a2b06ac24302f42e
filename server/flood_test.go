package server

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestFloodedSessionAnswersAtOnce: a client sending keys far faster than
// a person types (5 000 at once) is not made to wait behind them: the
// keys past the input's rate are dropped, counted in the metrics, and a
// key pressed a moment later is answered at once.
func TestFloodedSessionAnswersAtOnce(t *testing.T) {
	ts := startServer(t, nil)
	ops := httptest.NewServer(ts.Ops())
	defer ops.Close()
	term := open(t, ts.dial(t, newKey(t)), 100, 30, map[string]string{"LANG": "en_US.UTF-8"}, "")
	term.waitFor(t, "Choose a game")
	term.press(t, strings.Repeat("x", 5000)) // no key of the menu's
	time.Sleep(200 * time.Millisecond)       // the rate gives a key again
	start := time.Now()
	term.press(t, "1")
	term.waitFor(t, "enter play")
	// At the rate, the 4 800 keys past the burst would have taken 48 s.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the key after the flood answered in %s", d)
	}
	if dropped := sample(t, scrape(t, ops.URL), "tapis_input_dropped_total", nil); dropped < 4000 {
		t.Errorf("%v keys dropped of 5 000 sent at once, want the most past the burst of %d", dropped, eventBurst)
	}
}
