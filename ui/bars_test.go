package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestSpans checks that the header's styles written as spans read exactly
// as lipgloss renders them, in every look.
func TestSpans(t *testing.T) {
	texts := []string{"", " ", "   ", brand, "· Yam's !", "Solde ", "1 000,50 €", "-12,00 €", "€1,000.50", "01:02:03"}
	for _, plain := range []bool{false, true} {
		for _, dark := range []bool{false, true} {
			st := newStyles(plain, dark)
			sp := newBarSpans(&st)
			for name, pair := range map[string]struct {
				s span
				r func(...string) string
			}{
				"bar": {sp.bar, st.header.Render}, "brand": {sp.brand, st.brand.Render}, "label": {sp.label, st.label.Render},
				"value": {sp.value, st.value.Render}, "good": {sp.good, st.good.Render}, "bad": {sp.bad, st.bad.Render},
			} {
				for _, text := range texts {
					var b strings.Builder
					pair.s.put(&b, text)
					if got, want := b.String(), pair.r(text); got != want {
						t.Errorf("plain %v, dark %v: %s span writes %q as %q, lipgloss %q", plain, dark, name, text, got, want)
					}
				}
			}
		}
	}
}

// TestElapsed checks the header's time played against the format it
// writes: minutes and seconds, hours from the first.
func TestElapsed(t *testing.T) {
	for _, s := range []int{0, 1, 59, 60, 61, 599, 600, 3599, 3600, 3601, 35999, 36000, 86399, 360000, 1 << 31} {
		want := fmt.Sprintf("%02d:%02d", s/60, s%60)
		if s >= 3600 {
			want = fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
		}
		for _, d := range []time.Duration{time.Duration(s) * time.Second, time.Duration(s)*time.Second + 999*time.Millisecond} {
			if got := elapsed(d); got != want {
				t.Errorf("elapsed(%v) = %q, want %q", d, got, want)
			}
		}
	}
}
