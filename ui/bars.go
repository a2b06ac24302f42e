package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/shopspring/decimal"
)

// The bars around every screen: the header on top, the keys' help (or a
// notice) at the bottom, and the QA status line above it in QA mode. Each
// is drawn once for what it shows, and taken from the memo while that
// stays the same.

// qaStatusKey is the QA status line, as written.
type qaStatusKey struct{ text string }

// footerKey is the bottom line: the keys' help of bindings, or a notice,
// in a width.
type footerKey struct {
	w        int
	bindings string    // the key map's name, or bindingsKey of the bindings shown when it has none (or past 4 buttons)
	buttons  [4]string // the buttons' labels: the bindings they take out of the named map
	notice   string
}

// footer is the bottom line right of its buttons bs, w cells: the
// screen's keys, or a notice until the next key.
func (m *Model) footer(w int, bs []footButton) *drawing {
	if n := m.noticeLine(); n != "" {
		return drawn(m.common, footerKey{w: w, notice: n}, func() string {
			return m.st.note.Render(truncated(n, w-1))
		})
	}
	km := m.current().keyMap()
	short := km.ShortHelp()
	k := footerKey{w: w, bindings: km.name}
	if len(bs) > 0 {
		// A button says what its key does: the key stays on the help
		// screen. A named key map and the buttons' labels name what is
		// left, found without taking the buttons' keys out each frame.
		for i, b := range bs {
			if i == len(k.buttons) {
				k.bindings = ""
				break
			}
			k.buttons[i] = b.label
		}
		if k.bindings == "" {
			short = withoutButtons(short, bs)
			k = footerKey{w: w, bindings: bindingsKey(short)}
		}
	} else if k.bindings == "" {
		k.bindings = bindingsKey(short)
	}
	return drawn(m.common, k, func() string {
		if len(bs) > 0 {
			short = withoutButtons(short, bs)
		}
		h := m.help
		h.SetWidth(w)
		return m.st.help.Render(h.ShortHelpView(short))
	})
}

// headerKey is what the header shows: the screen whose title it shows,
// and the right side's figures, as written, in a width.
type headerKey struct {
	w            int
	screen       Screen
	demo         bool
	balance, net string // headMoney's
	sign         int
	secs         int    // the time played
	right        string // a screen's own right side (replay)
	headed       bool   // right is the screen's
}

// header shows the balance, the session's net result and the time played:
// both leave out the prizes of units not shown yet, so they always agree
// with each other and with what the player has seen. It is kept apart from
// the memo, and drawn again only when what it shows changes (each second
// for the time), from the bar's styles written once as spans.
func (m *Model) header() *drawing {
	if b := m.banner(); b != nil {
		return b
	}
	s := m.nav.screen
	if s == HelpScreen {
		s = m.nav.from()
	}
	k := headerKey{w: m.width, screen: m.nav.screen, demo: m.demo.on}
	if h, ok := m.screens[s].(headed); ok {
		k.right, k.headed = h.header(), true
		return m.kept.header.get(k, func() *drawing {
			return m.headerWith(m.screenTitle(), cellWidth(k.right), len(k.right), func(b *strings.Builder) { b.WriteString(k.right) })
		})
	}
	m.headMoney.of(m.till.shownBalance(), m.till.origin(), m.t)
	k.balance, k.net, k.sign = m.headMoney.balanceText, m.headMoney.netText, m.headMoney.sign
	k.secs = played(m.start, m.shownAt)
	return m.kept.header.get(k, func() *drawing {
		if d := m.headerTimed(k); d != nil {
			return d
		}
		return m.headerWhole(k)
	})
}

// banner is what the header shows in place of the balance and the time:
// the closing server's countdown, or the host's announcement or pause;
// nil when neither.
func (m *Model) banner() *drawing {
	if m.closing.on {
		return m.closingBanner()
	}
	return m.standBanner()
}

// timeEnd is what ends the header after its time played, as headerRight
// writes it: the time's style closed, then the rest. It is worked out once
// a look.
func (m *Model) timeEnd() string {
	if m.kept.timeEnd == "" { // never "" once worked out: the bar's blank ends it
		parts := m.headerRight(headerKey{}, "")
		var b strings.Builder
		b.WriteString(parts[headerTime].sp.close)
		for _, p := range parts[headerTime+1:] {
			p.sp.put(&b, p.text)
		}
		m.kept.timeEnd = b.String()
	}
	return m.kept.timeEnd
}

// headerPart is a piece of the header's right side, in its style.
type headerPart struct {
	sp   *span
	text string
}

// headerTime is where the time played is among headerRight's parts: the
// labels and figures before it, the bar's end after.
const headerTime = 7

// headerRight is the header's right side for k, the time played written
// at: the balance, the net and the time, each after its label.
func (m *Model) headerRight(k headerKey, at string) [9]headerPart {
	sp := &m.bar
	netSpan := &sp.value
	switch {
	case k.sign > 0:
		netSpan = &sp.good
	case k.sign < 0:
		netSpan = &sp.bad
	}
	const sep = "   "
	balance, net, played := m.t.get("balance")+" ", m.t.get("net")+" ", m.t.get("time")+" "
	return [...]headerPart{{&sp.label, balance}, {&sp.value, k.balance}, {&sp.bar, sep}, {&sp.label, net}, {netSpan, k.net},
		{&sp.bar, sep}, {&sp.label, played}, {&sp.value, at}, {&sp.bar, " "}}
}

// headerWhole writes the header of k whole.
func (m *Model) headerWhole(k headerKey) *drawing {
	all := m.headerRight(k, elapsed(time.Duration(k.secs)*time.Second))
	parts := all[:]
	width := func() int {
		rw := 0
		for _, p := range parts {
			rw += cellWidth(p.text)
		}
		return rw
	}
	if m.demo.on && cellWidth(brand)+cellWidth(m.screenTitle())+width() >= m.width {
		// The kiosk's invitation to play matters more than the time
		// its loop has played: the time gives way first.
		parts = append(all[:5:5], all[headerTime+1])
	}
	rw, n := width(), 0
	for _, p := range parts {
		n += len(p.sp.open) + len(p.text) + len(p.sp.close)
	}
	return m.headerWith(m.screenTitle(), rw, n, func(b *strings.Builder) {
		for _, p := range parts {
			p.sp.put(b, p.text)
		}
	})
}

// headerAround is the header's line around its time played, as written for
// a key but its seconds: a second moved writes the time between them, and
// copies the rest (a clock's second is most of what a session sitting on
// a screen draws).
type headerAround struct {
	key  headerKey // secs 0
	made bool      // written for key
	ok   bool      // the time shows, and the line is written around it
	head string    // the brand and the title, then the bar's opening: the gap follows
	lw   int       // head's width
	tail string    // from the gap's end to the time's opening
	tw   int       // tail's width
	end  string    // after the time
	ew   int       // end's width
}

// headerTimed is the header of k written around its time (headerAround),
// or nil where the whole header is written: in the kiosk's loop, or when
// the title gives way.
func (m *Model) headerTimed(k headerKey) *drawing {
	a := &m.kept.around
	base := k
	base.secs = 0
	if !a.made || a.key != base {
		*a = m.around(base)
	}
	if !a.ok {
		return nil
	}
	at := elapsed(time.Duration(k.secs) * time.Second)
	rw := a.tw + cellWidth(at) + a.ew
	if a.lw+rw >= m.width {
		return nil
	}
	gap := max(1, m.width-a.lw-rw)
	var b strings.Builder
	b.Grow(len(a.head) + gap + len(a.tail) + len(at) + len(a.end))
	b.WriteString(a.head)
	b.WriteString(spaces(gap))
	b.WriteString(a.tail)
	b.WriteString(at)
	b.WriteString(a.end)
	return lineDrawing(b.String(), a.lw+gap+rw)
}

// around writes the header of k around its time, as header writes it
// whole: not in the kiosk's loop, where the time may give way.
func (m *Model) around(k headerKey) headerAround {
	a := headerAround{key: k, made: true}
	if m.demo.on {
		return a
	}
	sp := &m.bar
	title := m.screenTitle()
	var b strings.Builder
	sp.brand.put(&b, brand)
	sp.label.put(&b, title)
	b.WriteString(sp.bar.open)
	a.head, a.lw = b.String(), cellWidth(brand)+cellWidth(title)
	b.Reset()
	b.WriteString(sp.bar.close)
	parts := m.headerRight(k, "")
	for _, p := range parts[:headerTime] {
		p.sp.put(&b, p.text)
		a.tw += cellWidth(p.text)
	}
	b.WriteString(parts[headerTime].sp.open)
	a.tail = b.String()
	for _, p := range parts[headerTime+1:] {
		a.ew += cellWidth(p.text)
	}
	a.end, a.ok = m.timeEnd(), true
	return a
}

// headMoney is the header's balance and net as last written: a frame
// writes them again only once the balance or the wallet's start changed.
type headMoney struct {
	balance, origin      decimal.Decimal
	balanceText, netText string
	sign                 int
}

// of writes balance, and the net since origin, when either changed.
func (h *headMoney) of(balance, origin decimal.Decimal, t text) {
	if h.balanceText != "" && balance.Equal(h.balance) && origin.Equal(h.origin) {
		return
	}
	net := balance.Sub(origin)
	h.balance, h.origin = balance, origin
	h.balanceText, h.netText, h.sign = t.money(balance), t.signed(net), net.Sign()
}

// brand is the header's left end.
const brand = " ♦ tapis "

// headerWith draws the header bar with a title and a right side rw cells
// wide, which right writes in n bytes. The money on the right always
// shows; the title gives way when both do not fit.
func (m *Model) headerWith(title string, rw, n int, right func(*strings.Builder)) *drawing {
	sp := &m.bar
	lw := cellWidth(brand) + cellWidth(title)
	if lw+rw >= m.width {
		title = ""
		if m.demo.on {
			title = "· " + m.t.get("demo.mark")
		}
		lw = cellWidth(brand) + cellWidth(title)
	}
	gap := max(1, m.width-lw-rw)
	var b strings.Builder
	b.Grow(len(sp.brand.open) + len(brand) + len(sp.brand.close) + len(sp.label.open) + len(title) + len(sp.label.close) +
		len(sp.bar.open) + gap + len(sp.bar.close) + n)
	sp.brand.put(&b, brand)
	sp.label.put(&b, title)
	sp.bar.put(&b, spaces(gap))
	right(&b)
	return lineDrawing(b.String(), lw+gap+rw)
}

// lineDrawing returns a drawing of one line w cells wide, made at once.
func lineDrawing(s string, w int) *drawing {
	l := &struct {
		d drawing
		s [1]string
		w [1]int
	}{s: [1]string{s}, w: [1]int{w}}
	l.d = drawing{lines: l.s[:], widths: l.w[:], w: w}
	return &l.d
}

// span is a style as the escape codes that open and close it: a line of
// text without tabs written between them reads as the style renders it
// (TestSpans checks), without a Render each time.
type span struct{ open, close string }

func spanOf(st lipgloss.Style) span {
	open, close, _ := strings.Cut(st.Render("\x00"), "\x00")
	return span{open, close}
}

// put writes a line of text in the span's style to b.
func (s span) put(b *strings.Builder, text string) {
	b.WriteString(s.open)
	b.WriteString(text)
	b.WriteString(s.close)
}

// barSpans are the header's styles as spans.
type barSpans struct{ bar, brand, label, value, good, bad span }

func newBarSpans(st *styles) barSpans {
	return barSpans{bar: spanOf(st.header), brand: spanOf(st.brand), label: spanOf(st.label),
		value: spanOf(st.value), good: spanOf(st.good), bad: spanOf(st.bad)}
}

// screenTitles are the screens' names in the header, as text keys.
var screenTitles = map[Screen]string{YamsScreen: "yams", VegasScreen: "vegas", HistoryScreen: "history",
	RulesScreen: "rules", HelpScreen: "help", StatsScreen: "stats", ReplayScreen: "replay.title"}

func (m *Model) screenTitle() string {
	if m.demo.on {
		return "· " + m.t.get("demo.on")
	}
	if k, ok := screenTitles[m.nav.screen]; ok {
		return "· " + m.t.get(k)
	}
	return ""
}

// elapsed writes a time played: "mm:ss", or "h:mm:ss" from an hour.
func elapsed(d time.Duration) string {
	s := int(d.Seconds())
	if s < 0 {
		return fmt.Sprintf("%02d:%02d", s/60, s%60)
	}
	var buf [24]byte
	return string(appendPlayed(buf[:0], s))
}

// appendPlayed appends a time played of s ≥ 0 seconds, as elapsed writes
// it.
func appendPlayed(out []byte, s int) []byte {
	two := func(n int) { out = append(out, byte('0'+n/10), byte('0'+n%10)) }
	if s >= 3600 {
		out = strconv.AppendInt(out, int64(s/3600), 10)
		out = append(out, ':')
		two(s / 60 % 60)
	} else {
		two(s / 60)
	}
	out = append(out, ':')
	two(s % 60)
	return out
}
