package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// HeaderTime is a frame's header row laid out around the time played it
// shows, for a server's screen to move the time on by itself between the
// model's frames (Options.DrawsSeconds). A session sitting on a screen
// then costs its server a row written each second, where the model's
// second was a timer, a message, an Update and a frame of its program.
// The zero HeaderTime moves nothing.
type HeaderTime struct {
	before, after string    // the row around the time
	start         time.Time // what the time played counts from
	shown         int       // the seconds the frame shows
	until         time.Time // the model's next frame, which moves the time itself (wholeFrameAt)
}

// At returns the header row at now, and whether it is not the frame's:
// the time played moved on. Past the model's next frame (a frame of the
// screen's written late, behind a client slow to read), it is the row of
// the second before it, the last the frame's layout holds.
func (h HeaderTime) At(now time.Time) (string, bool) {
	if h.until.IsZero() {
		return "", false
	}
	if !now.Before(h.until) {
		now = h.until.Add(-time.Nanosecond)
	}
	secs := played(h.start, now)
	if secs <= h.shown {
		return "", false
	}
	var buf [24]byte
	at := appendPlayed(buf[:0], secs) // as wide as the frame's: until is at the latest where it grows (wholeFrameAt)
	var b strings.Builder
	b.Grow(len(h.before) + len(at) + len(h.after))
	b.WriteString(h.before)
	b.Write(at)
	b.WriteString(h.after)
	return b.String(), true
}

// played is the time played the header shows at now, in whole seconds:
// the seconds since start, moving on at each of the wall clock's seconds,
// so that the sessions of a server wake together and a frame of the
// model's reads the time as its screen's second does. It is counted on
// the monotonic clock where both times have its reading: a wall clock set
// meanwhile moves nothing.
func played(start, now time.Time) int {
	frac := start.Sub(start.Truncate(time.Second)) // where start is in its wall second
	x := frac + now.Sub(start)
	if x < 0 {
		return 0
	}
	return int((x - x%time.Second - frac) / time.Second)
}

// HeaderTime is the last frame's header row around its time played, when
// the caller moves the time on (Options.DrawsSeconds) and nothing else on
// the screen needs the model each second; else the zero HeaderTime.
func (m *Model) HeaderTime() HeaderTime { return m.headerTime }

// secondsAway reports whether the caller moves the header's time on and
// nothing else the screen shows changes by the second: the model then
// wakes at its minute (wholeFrameAt). The QA line reads the blocks each
// second, the kiosk's loop starts after an idle second, and a banner in
// the header's place (a closing server's countdown, the host's
// announcement until it ends) is the model's to draw.
func (m *Model) secondsAway() bool {
	return m.drawsSeconds && !m.qa && !m.demo.enabled && m.banner() == nil
}

// wholeFrameAt is when the model draws its next frame of a screen whose
// seconds are moved on away: the wall clock's next minute, when what the
// body shows of the time may change (a loss limit's "until 14:05", the
// history's day), or the second the time played grows a digit, when the
// header is laid out again.
func (m *Model) wholeFrameAt(now time.Time) time.Time {
	next := now.Truncate(time.Minute).Add(time.Minute)
	secs := played(m.start, now)
	width := 3600 // "mm:ss" is "h:mm:ss" from an hour, and so on
	for width <= secs {
		width *= 10
	}
	grows := m.start.Add(time.Duration(width) * time.Second)
	if s := grows.Truncate(time.Second); !s.Equal(grows) {
		grows = s.Add(time.Second)
	}
	if grows.Before(next) {
		return grows
	}
	return next
}

// armClock sets the model's next clockMsg where the caller moves the
// header's seconds on: at a closing server's countdown's next number
// (countdownStep), at wholeFrameAt while the seconds are away, else at
// the next second. A wait set for later than wanted now (the server
// began closing) is replaced: its clockMsg, of an older generation, is
// dropped when it comes. The wait's time keeps now's monotonic reading,
// as HeaderTime's until: a wall clock set meanwhile moves neither.
func (m *Model) armClock() tea.Cmd {
	if !m.drawsSeconds {
		return nil
	}
	now := m.clock.Now()
	want := now.Truncate(time.Second).Add(time.Second)
	at, countdown := m.countdownStep(now)
	switch {
	case countdown:
		want = at
	case m.secondsAway():
		want = m.wholeFrameAt(now)
	}
	want = now.Add(want.Sub(now)) // on the monotonic clock
	if !m.tickDue.IsZero() && !want.Before(m.tickDue) {
		return nil
	}
	m.tickGen++
	m.tickDue = want
	return m.clock.After(want.Sub(now), clockMsg{gen: m.tickGen, countdown: countdown})
}

// timeOf is the HeaderTime of a frame's rows: their first row as the
// header wrote it, ending with the time played and the bar's end; zero
// where the seconds are not away, or the time does not end the row (a
// banner, a screen's own header, the title given way to it).
func (m *Model) timeOf(rows []string) HeaderTime {
	if !m.secondsAway() || len(rows) == 0 || m.tickDue.IsZero() {
		return HeaderTime{}
	}
	secs := played(m.start, m.shownAt)
	var buf [24]byte
	at := appendPlayed(buf[:0], secs) // as elapsed writes it, without a string a frame
	row, end := rows[0], m.timeEnd()
	n := len(row) - len(end) - len(at)
	if n < 0 || row[n:n+len(at)] != string(at) || row[n+len(at):] != end {
		return HeaderTime{}
	}
	return HeaderTime{before: row[:n], after: end, start: m.start, shown: secs, until: m.tickDue}
}
