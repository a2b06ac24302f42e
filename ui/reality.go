package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/store"
)

// The reality check: every so long of play, a modal over the game shows the
// time played and the net result of the session, to continue or quit. It
// never interrupts a reveal: due while a unit is being bought or revealed,
// it waits for the unit to be fully shown, and no purchase starts
// meanwhile. While it shows, only its keys and buttons act.

// realityTickMsg is the reality check's timer, of a generation: a check
// answered starts a new one, and the ticks of the old are dropped.
type realityTickMsg struct{ gen int }

// realityKeys answer the reality check.
type realityKeys struct {
	Continue, Quit key.Binding
}

// realityCheck is the reality check's state, and its modal when open.
type realityCheck struct {
	*common
	every time.Duration // how much play between two checks; 0: never
	next  time.Time     // when the next check is due
	gen   int           // the timer's generation
	due   bool          // the time came: it opens once no unit is being revealed
	open  bool          // the modal shows
	keys  realityKeys
	// What the modal says, as of its opening: the time played, what was
	// staked and won (prizes seen), and their difference.
	played      time.Duration
	staked, won decimal.Decimal
	under       func() screen // the screen the modal shows over
	opened      int           // the openings: what it says changes only then
	last        realityDrawn
}

// realityDrawn is the modal as last drawn: in which body, at which
// opening, in which look, over which layers of the screen under it. A
// frame with all the same (a second of the header's clock) takes it as it
// is.
type realityDrawn struct {
	body   area
	opened int
	look   int
	under  []layer
	out    []layer
}

// modalScreen names the reality check's keys for keyMapOf.
const modalScreen Screen = -1

// newRealityCheck returns the reality check of a session, every so long
// of play (never when 0).
func newRealityCheck(c *common, every time.Duration, under func() screen) *realityCheck {
	esc := c.t.get("key.esc")
	return &realityCheck{common: c, every: every, under: under, keys: realityKeys{
		Continue: key.NewBinding(key.WithKeys("enter", "c", "esc"), key.WithHelp(c.t.get("key.enter")+"/c/"+esc, c.t.get("k.continue"))),
		Quit:     key.NewBinding(key.WithKeys("q"), key.WithHelp("q", c.t.get("k.quit"))),
	}}
}

// start starts the timer: the first check is due every from now.
func (r *realityCheck) start() tea.Cmd {
	if r.every <= 0 {
		return nil
	}
	r.gen++
	r.next = r.clock.Now().Add(r.every)
	return r.clock.After(r.every, realityTickMsg{r.gen})
}

// tick is the timer's tick: the check is due once its time has come (a
// tick early waits for the rest).
func (r *realityCheck) tick(msg realityTickMsg) tea.Cmd {
	if msg.gen != r.gen || r.due || r.open {
		return nil
	}
	if left := r.next.Sub(r.clock.Now()); left > 0 {
		return r.clock.After(left, msg)
	}
	r.due = true
	r.till.paused = true
	return nil
}

// waiting reports whether a check is due and not shown yet: only then
// may show open it (its arguments cost a look at the session).
func (r *realityCheck) waiting() bool { return r != nil && r.due && !r.open }

// show opens the modal once it is due and no unit is being revealed, or a
// purchase was asked meanwhile (the unit left covered is on another
// screen): with the time played since start and the session's net result
// as the player has seen it.
func (r *realityCheck) show(start time.Time, revealing bool, staked decimal.Decimal) {
	if !r.due || r.open || (revealing && !r.till.pausedAsk) {
		return
	}
	r.open, r.opened = true, r.opened+1
	r.played = r.clock.Now().Sub(start)
	r.staked, r.won = staked, r.till.seenWon
}

// goOn closes the modal: play goes on, and the next check is due every
// from now.
func (r *realityCheck) goOn() tea.Cmd {
	r.open, r.due = false, false
	r.till.paused, r.till.pausedAsk = false, false
	return r.start()
}

// update handles the keys and clicks while the modal shows: nothing else
// acts.
func (r *realityCheck) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, r.keys.Continue):
			return r.goOn()
		case key.Matches(msg, r.keys.Quit):
			return tea.Quit
		}
	case clickMsg:
		if msg.drag { // a button is clicked, not dragged over
			return nil
		}
		switch msg.target.kind {
		case goOnTarget:
			return r.goOn()
		case leaveTarget:
			return tea.Quit
		}
	}
	return nil
}

// keyMap is the modal's keys, for the bottom line.
func (r *realityCheck) keyMap() keyMap {
	return r.keyMapOf(keyMapKey{s: modalScreen}, func() keyMap {
		own := []key.Binding{r.keys.Continue, r.keys.Quit}
		return keyMap{short: own, full: [][]key.Binding{own}}
	})
}

// layers draws the modal over the screen under it: what that screen draws
// around the box stays, and the mouse hits only the buttons.
func (r *realityCheck) layers(body area) []layer {
	under := r.under().layers(body)
	if l := &r.last; l.out != nil && l.body == body && l.opened == r.opened && l.look == r.look && slices.Equal(l.under, under) {
		return l.out
	}
	out := r.draw(body, under)
	r.last = realityDrawn{body: body, opened: r.opened, look: r.look, under: append(r.last.under[:0], under...), out: out}
	return out
}

// draw draws the modal in body over the screen's layers under.
func (r *realityCheck) draw(body area, under []layer) []layer {
	t := r.t
	played := t.f("rc.played", duration(t.lang, r.played))
	staked := t.f("rc.staked", t.money(r.staked), t.money(r.won))
	net := t.f("rc.net", t.signed(r.won.Sub(r.staked)))
	help := t.get("helpline")
	goOn, quit := r.st.button.Render(t.get("rc.continue")), r.st.button.Render(t.get("quit"))
	gw, qw := ansi.StringWidth(goOn), ansi.StringWidth(quit)
	const gap = 4
	inner := min(max(ansi.StringWidth(played), ansi.StringWidth(staked), ansi.StringWidth(net), ansi.StringWidth(help), gw+gap+qw)+6, body.w-2)
	lines := []string{"", "  " + played, "  " + staked, "  " + r.st.win.Render(net), "  " + r.st.dim.Render(help), "", "", ""}
	const buttonRow = 6 // the row of lines the buttons are on
	for i, l := range lines {
		lines[i] = l + spaces(inner-ansi.StringWidth(l))
	}
	box := measure(framed(r.st.box, inner, t.get("rc.title"), "", strings.Join(lines, "\n")))
	a := body.centered(box.w, box.height())
	cut := cutOut(under, a)
	out := append(cut[:len(cut):len(cut)], place(a, box.rows(0, buttonRow+1)),
		place(area{a.x, a.y + buttonRow + 2, a.w, a.h}, box.rows(buttonRow+2, box.height())))
	// The buttons' row: the frame's edges, the two buttons centered.
	row := area{a.x, a.y + buttonRow + 1, box.w, 1}
	edges := measure(box.lines[buttonRow+1])
	left := (box.w - gw - gap - qw) / 2
	out = append(out,
		place(row, cutLine(edges, 0, left)),
		named(target{kind: goOnTarget}, area{row.x + left, row.y, gw, 1}, measure(goOn)),
		place(area{row.x + left + gw, row.y, gap, 1}, measure(spaces(gap))),
		named(target{kind: leaveTarget}, area{row.x + left + gw + gap, row.y, qw, 1}, measure(quit)),
		place(area{row.x + left + gw + gap + qw, row.y, 0, 1}, cutLine(edges, left+gw+gap+qw, box.w)))
	return out
}

// cutLine returns the cells from, to of a one-line drawing.
func cutLine(d *drawing, from, to int) *drawing {
	s := ansi.Cut(d.lines[0], from, to)
	return measure(s)
}

// cutOut returns layers as they show around a box drawn over them: the
// lines that cross it are cut at its edges, and none is hit by the mouse.
func cutOut(layers []layer, box area) []layer {
	out := make([]layer, 0, len(layers)+2*box.h)
	for _, l := range layers {
		d := l.d
		if l.x >= box.x+box.w || l.x+d.w <= box.x || l.y >= box.y+box.h || l.y+d.height() <= box.y {
			out = append(out, layer{x: l.x, y: l.y, d: d})
			continue
		}
		for i, line := range d.lines {
			y, w := l.y+i, d.widths[i]
			if y < box.y || y >= box.y+box.h || l.x >= box.x+box.w || l.x+w <= box.x {
				out = append(out, layer{x: l.x, y: y, d: &drawing{lines: []string{line}, widths: []int{w}, w: w}})
				continue
			}
			if l.x < box.x {
				out = append(out, layer{x: l.x, y: y, d: measure(ansi.Cut(line, 0, box.x-l.x))})
			}
			if end := box.x + box.w; l.x+w > end {
				out = append(out, layer{x: end, y: y, d: measure(ansi.Cut(line, end-l.x, w))})
			}
		}
	}
	return out
}

// duration writes a time played as people say it: "45 s", "30 min",
// "1 h 05".
func duration(l Lang, d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		return fmt.Sprintf("%d min", s/60)
	}
	if l == English {
		return fmt.Sprintf("%d h %02d min", s/3600, s/60%60)
	}
	return fmt.Sprintf("%d h %02d", s/3600, s/60%60)
}

// limitKeys are a loss limit line's texts: a time today, or tomorrow.
type limitKeys struct{ today, tomorrow string }

// lossLimitLine says that the loss limit refused a purchase, and from when
// one is possible again: the minute it is, in the clock's time zone (the
// server's local time), tomorrow's said so; when no stake of any game is
// possible, when the first purchase will be; on a game of one price, "a
// ticket"; then the help line, Joueurs Info Service.
func (c *common) lossLimitLine(e *store.LossLimitError, ticket bool) string {
	now := c.clock.Now()
	until, keys := e.Until, limitKeys{"limit.today", "limit.tomorrow"}
	switch {
	case e.None: // no stake of any game: when the first purchase will be
		until, keys = e.First, limitKeys{"nostake.today", "nostake.tomorrow"}
	case ticket: // one price: a ticket, not "this stake"
		keys = limitKeys{"ticket.today", "ticket.tomorrow"}
	}
	until = until.In(now.Location())
	if t := until.Truncate(time.Minute); !t.Equal(until) {
		until = t.Add(time.Minute)
	}
	at := until.Format("15:04")
	key := keys.today
	if y, m, d := until.Date(); y != now.Year() || m != now.Month() || d != now.Day() {
		key = keys.tomorrow
	}
	// The limit and the help line named in full where they fit; on a
	// narrow screen the limit's amount goes, and the help line's name:
	// its number stays.
	label := c.t.f("limit.label", c.euros(e.Limit))
	for _, l := range [...]string{
		c.t.f(key, label, at) + " · " + c.t.get("helpline"),
		c.t.f(key, label, at) + " · " + c.t.get("helpline.short"),
	} {
		if ansi.StringWidth(l) <= c.width-2 {
			return l
		}
	}
	return c.t.f(key, c.t.get("limit.label.short"), at) + " · " + c.t.get("helpline.short")
}
