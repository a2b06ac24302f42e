package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestProgressBar: the bar is drawn in place (\r, never a new line), at
// most every redrawEvery of its clock, and its line is cleared at the end.
func TestProgressBar(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)
	p := newProgressBar(&out, 100, func() time.Time { return clock })
	for i, step := range []time.Duration{0, 40 * time.Millisecond, 40 * time.Millisecond, 40 * time.Millisecond, time.Second} {
		clock = clock.Add(step)
		p.update(int64(i+1)*10, 50)
	}
	draws := strings.Count(out.String(), "\r")
	// Drawn at 0, then 120 ms (80 ms is too soon), then 1.12 s.
	if draws != 3 {
		t.Errorf("%d drawings, want 3:\n%q", draws, out.String())
	}
	lines := strings.Split(out.String(), "\r")[1:]
	if last := ansi.Strip(lines[len(lines)-1]); !strings.Contains(last, "100%") || !strings.Contains(last, "50/50 units") {
		t.Errorf("last drawing %q", last)
	}
	for _, l := range lines {
		if strings.Contains(l, "\n") || ansi.StringWidth(l) >= 100 {
			t.Errorf("a drawing that is not one line of the terminal: %q", l)
		}
	}
	p.clear()
	if !strings.HasSuffix(out.String(), "\r"+ansi.EraseEntireLine) {
		t.Errorf("the line is not cleared: %q", out.String())
	}

	out.Reset()
	narrow := newProgressBar(&out, 24, time.Now)
	narrow.update(1, 30_000_000)
	if s := ansi.Strip(out.String()); strings.Contains(s, "units") || ansi.StringWidth(s) >= 24 {
		t.Errorf("on 24 columns: %q", s)
	}

	var none *progressBar // stderr is no terminal
	none.update(1, 2)
	none.clear()
	if none.callback() != nil {
		t.Error("a nil bar asks for progress")
	}
}

// TestAuditQuietWhenPiped: with standard error a pipe or a buffer, the
// audit writes nothing there, and its report on stdout is whole.
func TestAuditQuietWhenPiped(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code := Run(Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: w}, []string{"audit", "--game", "yams", "--stake", "0.5", "--seed", "3"})
	w.Close()
	piped, _ := io.ReadAll(r)
	if code != ExitOK || len(piped) != 0 || !strings.Contains(out.String(), "return to player: 70 %") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, piped, out.String())
	}
	if progressOnTerminal(Env{Stderr: &out}) != nil {
		t.Error("a progress bar on a buffer")
	}
}
