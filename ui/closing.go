package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/shopspring/decimal"
)

// ClosingMsg tells the game that its server is closing (tapis serve got
// SIGTERM): from then on nothing is bought (the buy keys say why), the
// header says so until the end, and the game quits itself as soon as no
// unit is being revealed and every unit shown is recorded: at once when
// none is, after the player's reveal otherwise. The server quits it
// anyway at Deadline; what is bought and not shown waits in the store for
// the player's next visit.
type ClosingMsg struct {
	// Deadline is when the server quits the game anyway; zero when it
	// waits for the reveal however long it takes.
	Deadline time.Time
	// Tampered says why: the server found its store changed under it, and
	// stopped selling (the header and the buy keys say so).
	Tampered bool
}

// closingState is what the game knows of its server closing.
type closingState struct {
	on       bool      // ClosingMsg came
	deadline time.Time // ClosingMsg's
	tampered bool      // ClosingMsg's
	ended    bool      // the game quit itself for it
}

// closingStarts takes the server's closing in: purchases stop, and the
// game quits at once when nothing is being revealed.
func (m *Model) closingStarts(msg ClosingMsg) tea.Cmd {
	m.closing = closingState{on: true, deadline: msg.Deadline, tampered: msg.Tampered}
	m.shownAt = m.clock.Now() // the countdown starts from now, not from the last second's tick
	m.till.closed, m.till.tampered = true, msg.Tampered
	m.panel = nil // a force set now would play nothing
	return nil
}

// quitIfClosed returns tea.Quit once the server is closing and the player
// has nothing left to see: no unit being bought or revealed, no unit
// shown still being recorded. It is asked after every message.
func (m *Model) quitIfClosed() tea.Cmd {
	c := &m.closing
	if !c.on || c.ended || m.Revealing() || m.till.recording > 0 {
		return nil
	}
	c.ended = true
	return tea.Quit
}

// EndedByClosing reports whether the game quit itself because its server
// is closing (ClosingMsg), rather than because the player quit.
func (m *Model) EndedByClosing() bool { return m.closing.ended }

// closingBannerKey is the header's closing banner, as written.
type closingBannerKey struct {
	w    int
	text string
}

// closingBanner is the header while the server closes: how long the
// reveal under way has, and that the purchases are kept; or, its store
// changed under it, that sales are stopped for that (with the countdown
// when it fits).
func (m *Model) closingBanner() *drawing {
	text := m.t.get("closing")
	if m.closing.tampered {
		text = m.t.get("stopped")
	}
	if d := m.closing.deadline; !d.IsZero() {
		left := max(0, m.countdownEnd().Sub(m.clock.Now()))
		secs := max(1, int((left+time.Second-1)/time.Second)) // what is left, rounded up: 1 s until the end
		if !m.closing.tampered {
			text = m.t.f("closing.in", secs)
		} else if in := m.t.f("stopped.in", secs); lipgloss.Width(in) <= m.width {
			text = in
		}
	}
	return drawn(m.common, closingBannerKey{m.width, text}, func() string {
		st := m.st.replay.Width(m.width).MaxWidth(m.width).MaxHeight(1).Align(lipgloss.Center)
		return st.Render(text)
	})
}

// countdownEnd is the closing server's deadline on the animations' 10 ms
// beat, where the model's waits end (onBeat): the countdown's numbers
// change where its waits end (countdownStep), each shown a whole second.
// It is the beat before the deadline: a countdown of 10 s starts at 10.
func (m *Model) countdownEnd() time.Time { return m.closing.deadline.Truncate(beatFine) }

// countdownStep is when the closing countdown shows its next number: the
// next whole second before its end, after now; false where there is no
// countdown, or its last second has come (it shows 1 s until the end).
// A model whose server moves its header's seconds (a closing server's:
// DrawsSeconds) waits there rather than on the wall clock's second
// (armClock), where a number showed from a cup's step to the next second,
// some 1.2 s one and 0.8 s the next.
func (m *Model) countdownStep(now time.Time) (time.Time, bool) {
	if !m.closing.on || m.closing.deadline.IsZero() {
		return time.Time{}, false
	}
	end := m.countdownEnd()
	left := end.Sub(now)
	if left <= time.Second {
		return time.Time{}, false
	}
	return end.Add(-((left - 1) / time.Second) * time.Second), true
}

// Outcome is what a player's session came to, as its end tells it: the
// units the player saw to their end during the session (units of an
// earlier visit included), as the stats screen counts them; a unit bought
// and not shown yet is counted once it is shown, and Pending until then.
type Outcome struct {
	Units   int             // units shown during the session
	Staked  decimal.Decimal // what they cost
	Won     decimal.Decimal // their prizes
	Net     decimal.Decimal // Won less Staked
	Pending int             // units bought and not shown yet: offered at the next visit
	// Bought is the units the game bought during the session, shown or
	// not (the server's log counts the purchases).
	Bought int
}

// Outcome returns what the session has come to so far.
func (m *Model) Outcome() Outcome {
	t := m.till.seen
	return Outcome{Units: t.Played, Staked: t.Staked, Won: t.Won, Net: t.Net, Pending: m.till.unrevealed(),
		Bought: m.Totals().Played}
}

// Line writes the outcome in a language, as the summary line does:
// "played 2 · staked €2.00 · won €0.50 · net -€1.50 · unrevealed 1".
func (o Outcome) Line(lang Lang) string {
	t := newText(lang)
	s := t.f("outcome", o.Units, t.money(o.Staked), t.money(o.Won), t.signed(o.Net))
	if o.Pending > 0 {
		s += " · " + t.count("summary.unrevealed", o.Pending, o.Pending)
	}
	return s
}
