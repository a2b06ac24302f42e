package ui

import (
	"strings"
	"testing"
)

// TestQAFileNotLayouts: /dev/urandom given to the File panel is named once
// "not a layout file", at the first line holding a byte no text holds (the
// first, unless random bytes made a short line of text before it, which is
// then only bad JSON), and the panel stops reading and says so: it does
// not spin until esc.
func TestQAFileNotLayouts(t *testing.T) {
	const path = "/dev/urandom"
	m := newQA(t, YamsScreen)
	press(m, "f", "tab", "tab", "tab")
	typeText(m, path)
	_, cmd := m.Update(keyMsg("enter"))
	msg := cmd().(layoutsMsg) // returns: the reading stopped by itself
	n := len(msg.problems)
	if n == 0 || n > 3 || msg.more != 0 || !strings.Contains(msg.problems[n-1], "not a layout file, reading stopped there") ||
		strings.Contains(strings.Join(msg.problems[:n-1], "\n"), "not a layout file") {
		t.Fatalf("%d problems (%q), %d more; want the last, alone, to say the reading stopped", n, msg.problems, msg.more)
	}
	send(m, msg)
	if s := plain(m); strings.Count(s, "not a layout file") != 1 || strings.Contains(s, "reading the file…") {
		t.Errorf("the panel:\n%s", s)
	}
}
