package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/session"
)

// secondsAwayModel is a model whose caller moves its header's time on
// (DrawsSeconds), started at start on a test clock, sized w×h.
func secondsAwayModel(t *testing.T, screen Screen, start time.Time, w, h int, qa bool) *Model {
	t.Helper()
	c := newTestClock()
	c.t = start
	return open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: screen, Clock: c, DrawsSeconds: true, QA: qa},
		w, h, session.Options{Seed: game.SeedFrom(42)})
}

// headerAt is the header row the model draws itself at now: its clock set
// there, and a message that changes nothing (a wait replaced) given.
func headerAt(m *Model, now time.Time) string {
	clockOf(m).t = now
	send(m, clockMsg{gen: -1})
	_, rows := m.Lines()
	return rows[0]
}

// TestHeaderTimeIsTheModelsOwnRow: the row a server's screen writes at
// each second between the model's frames (HeaderTime.At) is the very row
// the model draws itself at that second, on every screen that shows the
// time, and never a second the model's next frame (its minute) lays out:
// the model asks to be woken then, not each second.
func TestHeaderTimeIsTheModelsOwnRow(t *testing.T) {
	start := fixedTime.Add(700 * time.Millisecond) // a session starts between two seconds
	for _, screen := range []Screen{MenuScreen, YamsScreen, VegasScreen, HistoryScreen, RulesScreen, StatsScreen} {
		m := secondsAwayModel(t, screen, start, 100, 30, false)
		_, rows := m.Lines()
		first, h := rows[0], m.HeaderTime()
		if !strings.Contains(ansi.Strip(first), "Time 00:00") {
			t.Fatalf("screen %v: the header %q, want the time played 00:00", screen, ansi.Strip(first))
		}
		if got, want := clockOf(m).clockWait, fixedTime.Add(time.Minute).Sub(start); got != want {
			t.Errorf("screen %v: the model asks to be woken in %s, want %s (its minute)", screen, got, want)
		}
		twin := secondsAwayModel(t, screen, start, 100, 30, false)
		minute := fixedTime.Add(time.Minute)
		moved := 0
		for now := start; now.Before(minute.Add(2 * time.Second)); now = now.Add(250 * time.Millisecond) {
			row, ok := h.At(now)
			own := headerAt(twin, now)
			switch {
			case !now.Before(minute):
				// Past the model's next frame (a frame written late), the
				// last second its layout holds.
				if last := headerAt(secondsAwayModel(t, screen, start, 100, 30, false), minute.Add(-time.Nanosecond)); !ok || row != last {
					t.Fatalf("screen %v at %s: the screen writes %q (%v) past the model's next frame, want %q", screen, now.Sub(start),
						ansi.Strip(row), ok, ansi.Strip(last))
				}
			case own == first:
				if ok {
					t.Fatalf("screen %v at %s: the screen writes %q, the model's row is the frame's", screen, now.Sub(start), ansi.Strip(row))
				}
			case !ok || row != own:
				t.Fatalf("screen %v at %s: the screen writes %q (%v), the model draws %q", screen, now.Sub(start),
					ansi.Strip(row), ok, ansi.Strip(own))
			default:
				moved++
			}
		}
		// 20:00:00.7 is 00:00 played until 20:00:02, 00:58 at 20:00:59.
		if moved != 58*4 {
			t.Errorf("screen %v: the time moved at %d quarter seconds, want %d", screen, moved, 58*4)
		}
	}
}

// TestHeaderTimeLeavesTheHourToTheModel: the time played growing a digit
// ("59:59" to "1:00:00") moves the header's layout, which the model draws:
// it asks to be woken at that second, and the screen writes nothing then.
func TestHeaderTimeLeavesTheHourToTheModel(t *testing.T) {
	start := fixedTime.Add(700 * time.Millisecond)
	m := secondsAwayModel(t, YamsScreen, start, 100, 30, false)
	c := clockOf(m)
	wake := func(now time.Time) string { // the model's wait ends at now
		c.t = now
		send(m, c.clockAsked)
		_, rows := m.Lines()
		return ansi.Strip(rows[0])
	}
	wake(fixedTime.Add(time.Minute))
	minute := fixedTime.Add(time.Hour) // 21:00:00, 59:59 played
	if got := wake(minute); !strings.Contains(got, "Time 59:59") {
		t.Fatalf("at 21:00:00: %q, want 59:59 played", got)
	}
	grows := minute.Add(time.Second)
	if got := c.clockWait; got != time.Second {
		t.Errorf("at 59:59 played the model asks to be woken in %s, want 1s (the hour)", got)
	}
	if row, ok := m.HeaderTime().At(grows); ok {
		t.Errorf("at the hour the screen writes %q, want the model's frame", ansi.Strip(row))
	}
	if got := wake(grows); !strings.Contains(got, "Time 1:00:00") {
		t.Errorf("the model's frame at the hour: %q, want 1:00:00", got)
	}
	if got, want := c.clockWait, fixedTime.Add(time.Hour+time.Minute).Sub(grows); got != want {
		t.Errorf("after the hour the model asks to be woken in %s, want %s (its minute)", got, want)
	}
	if _, ok := m.HeaderTime().At(grows.Add(time.Second)); !ok {
		t.Error("after the hour the screen moves the time on no more")
	}
}

// TestSecondsComeBackToTheModel: where something else on the screen
// changes by the second (the host's announcement, a closing server's
// countdown, the kiosk's idle wait, the QA line), the model
// wakes each second again at once and the screen moves nothing; the wait
// for the minute it had set is dropped when it comes; once the
// announcement is down, the model wakes at its minute again.
func TestSecondsComeBackToTheModel(t *testing.T) {
	start := fixedTime.Add(700 * time.Millisecond)
	m := secondsAwayModel(t, YamsScreen, start, 100, 30, false)
	c := clockOf(m)
	minuteWait := c.clockAsked
	c.t = start.Add(10 * time.Second)
	send(m, StandMsg{Announcement: "Tirage à 18 h", Until: start.Add(12 * time.Second)})
	if c.clockWait != 300*time.Millisecond || c.clockAsked == minuteWait {
		t.Fatalf("an announcement up: the model asks %+v in %s, want a new wait at the next second", c.clockAsked, c.clockWait)
	}
	m.Lines()
	if h := m.HeaderTime(); h != (HeaderTime{}) {
		t.Errorf("an announcement up: the screen is given %+v to move", h)
	}
	asked := c.clockAsked
	c.t = start.Add(11 * time.Second)
	send(m, minuteWait) // the minute's wait, replaced, comes anyway
	if c.clockAsked != asked {
		t.Errorf("the replaced wait asked %+v, want it dropped", c.clockAsked)
	}
	for i := 11; i <= 13; i++ {
		c.t = fixedTime.Add(time.Duration(i) * time.Second)
		send(m, c.clockAsked)
	}
	if got, want := c.clockWait, time.Minute-13*time.Second; got != want {
		t.Errorf("the announcement down: the model asks to be woken in %s, want %s (its minute)", got, want)
	}
	m.Lines()
	if _, ok := m.HeaderTime().At(c.t.Add(time.Second)); !ok {
		t.Error("the announcement down: the screen moves the time on no more")
	}

	closing := secondsAwayModel(t, YamsScreen, start, 100, 30, false)
	clockOf(closing).t = start.Add(5 * time.Second)
	send(closing, ClosingMsg{Deadline: start.Add(15 * time.Second)})
	if got := clockOf(closing).clockWait; got != time.Second { // 10 s left: 9 in a second
		t.Errorf("the server closing: the model asks to be woken in %s, want its countdown's next number", got)
	}

	c = newTestClock()
	c.t = start
	kiosk := open(t, Options{Lang: English, Balance: decimal.NewFromInt(100), Start: YamsScreen, Clock: c, DrawsSeconds: true,
		Demo: true, Idle: time.Minute}, 100, 30, session.Options{Seed: game.SeedFrom(42)})
	if got := clockOf(kiosk).clockWait; got != 300*time.Millisecond {
		t.Errorf("the kiosk: the model asks to be woken in %s, want each second (its idle wait)", got)
	}

	qa := secondsAwayModel(t, YamsScreen, start, 100, 30, true)
	if got := clockOf(qa).clockWait; got != 300*time.Millisecond {
		t.Errorf("the QA line: the model asks to be woken in %s, want each second", got)
	}
	qa.Lines()
	if h := qa.HeaderTime(); h != (HeaderTime{}) {
		t.Errorf("the QA line: the screen is given %+v to move", h)
	}
}

// TestHeaderTimeWhereverTheTimeShows: on every screen and size where the
// header ends with the time played, the screen is given it to move: no
// time shows frozen until the model's minute.
func TestHeaderTimeWhereverTheTimeShows(t *testing.T) {
	start := fixedTime.Add(700 * time.Millisecond)
	for _, screen := range []Screen{MenuScreen, YamsScreen, VegasScreen, HistoryScreen, RulesScreen, StatsScreen} {
		m := secondsAwayModel(t, screen, start, 100, 30, false)
		for w := MinWidth; w <= 200; w += 13 {
			for h := MinHeight; h <= 60; h += 11 {
				send(m, sizeMsg(w, h))
				_, rows := m.Lines()
				shows := strings.HasSuffix(strings.TrimRight(ansi.Strip(rows[0]), " "), "00:00")
				_, moves := m.HeaderTime().At(start.Add(2 * time.Second))
				if shows != moves {
					t.Errorf("screen %v at %dx%d: the time shows %v, the screen moves it %v: %q", screen, w, h, shows, moves, ansi.Strip(rows[0]))
				}
			}
		}
	}
}

// TestModelWithoutDrawsSecondsTicksEachSecond: a model whose caller does
// not move its time on (a local terminal) wakes each second, and gives
// no HeaderTime.
func TestModelWithoutDrawsSecondsTicksEachSecond(t *testing.T) {
	m := newModel(t, English, YamsScreen, 100, 30)
	m.Init()
	if got := clockOf(m).clockWait; got != time.Second {
		t.Errorf("the model asks to be woken in %s, want 1s", got)
	}
	m.Lines()
	if h := m.HeaderTime(); h != (HeaderTime{}) {
		t.Errorf("HeaderTime %+v, want none", h)
	}
}
