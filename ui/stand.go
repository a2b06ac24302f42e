package ui

import (
	"errors"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// StandMsg tells the game what the stand's host set with tapis serve's
// operator commands: sales paused (nothing more is bought, the reveals
// under way finish), and an announcement every player reads. The header
// shows the announcement until Until, else that sales are paused.
type StandMsg struct {
	Paused bool
	// Announcement is one line from the host, printable already (the
	// server escapes it); "" for none.
	Announcement string
	Until        time.Time // when the announcement is taken down
}

// ErrSalesPaused is a purchase the server refused because its host paused
// sales: the buy keys say so, and nothing was bought.
var ErrSalesPaused = errors.New("sales are paused by the stand")

// announced returns the announcement showing now, if any.
func (m *Model) announced() string {
	if m.stand.Announcement == "" || !m.clock.Now().Before(m.stand.Until) {
		return ""
	}
	return m.stand.Announcement
}

// standSet follows what the stand's host set: a pause holds the till,
// and once sales resume the refusal a pause gave goes.
func (m *Model) standSet(msg StandMsg) {
	m.stand, m.till.halted = msg, msg.Paused
	if !msg.Paused {
		for _, g := range m.games {
			g.salesResumed()
		}
	}
}

// standBannerKey is the header's stand banner, as written.
type standBannerKey struct {
	w    int
	text string
}

// standBanner is the header while the host has something to say: the
// announcement, or that sales are paused; nil when neither.
func (m *Model) standBanner() *drawing {
	text := m.announced()
	if text == "" && m.stand.Paused {
		text = m.t.get("paused")
	}
	if text == "" {
		return nil
	}
	return drawn(m.common, standBannerKey{m.width, text}, func() string {
		if room := m.width - 2; ansi.StringWidth(text) > room {
			// Cut where it must be, and seen cut: an announcement of up
			// to maxAnnounce characters on a screen narrower than it.
			text = ansi.Truncate(text, room, "…")
		}
		st := m.st.replay.Width(m.width).MaxWidth(m.width).MaxHeight(1).Align(lipgloss.Center)
		return st.Render(text)
	})
}
