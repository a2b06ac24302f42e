package ui

import "testing"

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
					if got, want := pair.s.wrap(text), pair.r(text); got != want {
						t.Errorf("plain %v, dark %v: %s span writes %q as %q, lipgloss %q", plain, dark, name, text, got, want)
					}
				}
			}
		}
	}
}
