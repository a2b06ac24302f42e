package board

import "time"

// StandMsg tells the board what the stand's host set with tapis serve's
// operator commands: sales paused, an announcement for the room. The
// board's bottom line shows the announcement until Until (by the
// readings' clock), else "Paused" while sales are.
type StandMsg struct {
	Paused bool
	// Announcement is one line from the host, printable already (the
	// server escapes it); "" for none.
	Announcement string
	Until        time.Time
}

// standLine is the bottom line's message from the host, "" for none: the
// announcement, or that sales are paused, cut to w cells.
func (m *Model) standLine(w int) string {
	text := ""
	switch {
	case m.stand.Announcement != "" && m.board.At.Before(m.stand.Until):
		text = m.stand.Announcement
	case m.stand.Paused:
		text = m.t.get("stand.paused")
	}
	if text == "" {
		return ""
	}
	return m.st.note.MaxWidth(w).Render(" " + text)
}
