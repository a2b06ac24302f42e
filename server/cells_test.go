package server

import (
	"bytes"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCursorMovesAsAnsiWritesThem: the cursor moves drawRow writes are
// ansi's, byte for byte.
func TestCursorMovesAsAnsiWritesThem(t *testing.T) {
	for _, n := range []int{1, 2, 9, 10, 99, 100, 1000, 12345} {
		for _, m := range []int{1, 2, 10, 300} {
			var b bytes.Buffer
			putCursorPosition(&b, n, m)
			if want := ansi.CursorPosition(n, m); b.String() != want {
				t.Errorf("position %d,%d: %q, want %q", n, m, b.String(), want)
			}
		}
		var b bytes.Buffer
		putCursorForward(&b, n)
		if want := ansi.CursorForward(n); b.String() != want || cursorForwardLen(n) != len(want) {
			t.Errorf("forward %d: %q (%d), want %q", n, b.String(), cursorForwardLen(n), want)
		}
	}
}
