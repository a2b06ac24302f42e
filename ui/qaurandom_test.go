package ui

import (
	"strings"
	"testing"
)

// TestQAFileNotLayouts: /dev/urandom given to the File panel is read one
// line, named once "not a layout file", and the panel stops reading and
// says so: it does not spin until esc.
func TestQAFileNotLayouts(t *testing.T) {
	const path = "/dev/urandom"
	m := newQA(t, YamsScreen)
	press(m, "f", "tab", "tab", "tab")
	typeText(m, path)
	_, cmd := m.Update(keyMsg("enter"))
	msg := cmd().(layoutsMsg) // returns: the reading stopped by itself
	if len(msg.problems) != 1 || msg.more != 0 || !strings.Contains(msg.problems[0], "not a layout file, reading stopped there") {
		t.Fatalf("%d problems (%q), %d more", len(msg.problems), msg.problems, msg.more)
	}
	send(m, msg)
	if s := plain(m); strings.Count(s, "not a layout file") != 1 || strings.Contains(s, "reading the file…") {
		t.Errorf("the panel:\n%s", s)
	}
}
