package ui

import (
	"fmt"
	"slices"
	"testing"
)

// The header written around its time (a second moved) is the header
// written whole, at every width, screen, language and result, across
// the time's widths (an hour played, ten), and it is what a second
// writes wherever the title keeps its place.
func TestHeaderAroundItsTimeIsTheWholeHeader(t *testing.T) {
	for _, lang := range []Lang{English, French} {
		for _, w := range []int{80, 81, 100, 120, 200} {
			m := open(t, Options{Lang: lang}, w, 30)
			for _, keys := range [][]string{nil, {"1"}, {"esc", "2"}, {"esc", "h"}} {
				press(m, keys...)
				for _, money := range []struct {
					balance, net string
					sign         int
				}{{"50,00 €", "+0,00 €", 0}, {"1 234 567,89 €", "+1 234 517,89 €", 1}, {"0,00 €", "−50,00 €", -1}} {
					for _, secs := range []int{0, 59, 60, 3599, 3600, 35999, 36000, 359999} {
						k := headerKey{w: w, screen: m.nav.screen, balance: money.balance, net: money.net, sign: money.sign, secs: secs}
						name := fmt.Sprintf("%v %d %v %+d %ds", lang, w, m.nav.screen, money.sign, secs)
						whole, timed := m.headerWhole(k), m.headerTimed(k)
						if timed == nil {
							if w >= 100 {
								t.Fatalf("%s: the header is written whole", name)
							}
							continue
						}
						if !slices.Equal(timed.lines, whole.lines) || !slices.Equal(timed.widths, whole.widths) || timed.w != whole.w {
							t.Fatalf("%s:\naround %q (%v)\nwhole  %q (%v)", name, timed.lines, timed.widths, whole.lines, whole.widths)
						}
					}
				}
			}
		}
	}
}
