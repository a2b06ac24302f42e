package board

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tapis/ui"
)

// TestBoardStand: the host's announcement shows on the board's bottom
// line until its time, by the readings' clock; then "Paused" while sales
// are, and the keys' help once they resume.
func TestBoardStand(t *testing.T) {
	src := fixed{b: sample(t), ok: true}
	at := src.b.At
	m := New(Options{Lang: ui.English, Source: src, Location: time.UTC})
	m.Update(m.read())
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	bottom := func() string {
		lines := strings.Split(ansi.Strip(m.View().Content), "\n")
		return lines[len(lines)-1]
	}
	m.Update(StandMsg{Paused: true, Announcement: "Free coffee at the bar", Until: at.Add(time.Minute)})
	if got := bottom(); !strings.Contains(got, "Free coffee at the bar") {
		t.Errorf("the announcement: the bottom line is %q", got)
	}
	m.Update(StandMsg{Paused: true, Announcement: "Free coffee at the bar", Until: at})
	if got := bottom(); !strings.Contains(got, "Paused: sales are stopped by the stand") {
		t.Errorf("paused, the announcement over: the bottom line is %q", got)
	}
	m.Update(StandMsg{})
	if got := bottom(); !strings.Contains(got, "q quit") {
		t.Errorf("resumed: the bottom line is %q", got)
	}
	fits(t, ansi.Strip(m.View().Content), 80, 24)
}
