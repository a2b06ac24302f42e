package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

// The bars around every screen: the header on top, the keys' help (or a
// notice) at the bottom, and the QA status line above it in QA mode. Each
// is drawn once for what it shows, and taken from the memo while that
// stays the same.

// qaStatusKey is the QA status line, as written.
type qaStatusKey struct{ text string }

// footerKey is the bottom line: the keys' help of bindings, or a notice.
type footerKey struct {
	w        int
	bindings string // bindingsKey's
	notice   string
}

// footer is the bottom line: the screen's keys, or a notice until the next
// key.
func (m *Model) footer() *drawing {
	if n := m.noticeLine(); n != "" {
		return m.drawn(footerKey{w: m.width, notice: n}, func() string {
			return m.st.note.Render(ansi.Truncate(n, m.width-2, "…"))
		})
	}
	short := m.current().keyMap().ShortHelp()
	return m.drawn(footerKey{w: m.width, bindings: bindingsKey(short)}, func() string {
		return m.st.help.Render(m.help.ShortHelpView(short))
	})
}

// headerKey is what the header shows: the screen's title and the right
// side's figures, as written, in a width.
type headerKey struct {
	w                int
	title            string
	demo             bool
	balance, net, at string
	sign             int
	right            string // a screen's own right side (replay)
}

// header shows the balance, the session's net result and the time played:
// both leave out the prizes of units not shown yet, so they always agree
// with each other and with what the player has seen. It is drawn again
// only when what it shows changes (each second for the time), from the
// bar's styles written once as spans.
func (m *Model) header() *drawing {
	if m.closing.on {
		return m.closingBanner()
	}
	s := m.nav.screen
	if s == HelpScreen {
		s = m.nav.from()
	}
	title := m.screenTitle()
	if h, ok := m.screens[s].(headed); ok {
		right := h.header()
		return memo(m.common, headerKey{w: m.width, title: title, demo: m.demo.on, right: right}, func() *drawing {
			return m.headerWith(title, right, lipgloss.Width(right))
		})
	}
	balance := m.till.shownBalance()
	net := balance.Sub(m.till.origin())
	k := headerKey{w: m.width, title: title, demo: m.demo.on, balance: m.headBalance.of(balance, m.t.money),
		net: m.headNet.of(net, m.t.signed), at: elapsed(m.shownAt.Sub(m.start)), sign: net.Sign()}
	return memo(m.common, k, func() *drawing {
		sp := &m.bar
		netSpan := sp.value
		switch {
		case k.sign > 0:
			netSpan = sp.good
		case k.sign < 0:
			netSpan = sp.bad
		}
		const sep = "   "
		balance, net, at := m.t.get("balance")+" ", m.t.get("net")+" ", m.t.get("time")+" "
		right := sp.label.wrap(balance) + sp.value.wrap(k.balance) + sp.bar.wrap(sep) +
			sp.label.wrap(net) + netSpan.wrap(k.net) + sp.bar.wrap(sep) +
			sp.label.wrap(at) + sp.value.wrap(k.at) + sp.bar.wrap(" ")
		return m.headerWith(title, right, ansi.StringWidth(balance+k.balance+sep+net+k.net+sep+at+k.at+" "))
	})
}

// written is an amount and how it was written, kept from frame to frame:
// a frame writes an amount again only once it changed.
type written struct {
	d decimal.Decimal
	s string
}

// of returns d written by write.
func (w *written) of(d decimal.Decimal, write func(decimal.Decimal) string) string {
	if w.s == "" || !d.Equal(w.d) {
		w.d, w.s = d, write(d)
	}
	return w.s
}

// brand is the header's left end.
const brand = " ♦ tapis "

// headerWith draws the header bar with a title and the given right side,
// rw cells wide. The money on the right always shows; the title gives way
// when both do not fit.
func (m *Model) headerWith(title, right string, rw int) *drawing {
	sp := &m.bar
	lw := ansi.StringWidth(brand + title)
	if lw+rw >= m.width {
		title = ""
		if m.demo.on {
			title = "· " + demoLabel
		}
		lw = ansi.StringWidth(brand + title)
	}
	gap := max(1, m.width-lw-rw)
	w := lw + gap + rw
	line := sp.brand.wrap(brand) + sp.label.wrap(title) + sp.bar.wrap(spaces(gap)) + right
	return &drawing{lines: []string{line}, widths: []int{w}, w: w}
}

// span is a style as the escape codes that open and close it: a line of
// text without tabs written between them reads as the style renders it
// (TestSpans checks), without a Render each time.
type span struct{ open, close string }

func spanOf(st lipgloss.Style) span {
	open, close, _ := strings.Cut(st.Render("\x00"), "\x00")
	return span{open, close}
}

// wrap writes a line of text in the span's style.
func (s span) wrap(text string) string { return s.open + text + s.close }

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

func elapsed(d time.Duration) string {
	s := int(d.Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}
