package wallet

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Format writes an amount as players expect it, to the cent: "2,50 €" in
// French (lang "fr") and "€2.50" in English (any other lang), with thousands
// grouped ("40 000,00 €", "€40,000.00"). French uses plain spaces, as the
// summary line of interface.md does, so that scripts can match it.
func Format(d decimal.Decimal, lang string) string {
	neg := d.IsNegative()
	s := d.Abs().StringFixed(2)
	whole, cents, _ := strings.Cut(s, ".")
	sep, point := ",", "."
	if lang == "fr" {
		sep, point = " ", ","
	}
	var b strings.Builder
	if neg {
		b.WriteString("-")
	}
	if lang != "fr" {
		b.WriteString("€")
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	b.WriteString(point + cents)
	if lang == "fr" {
		b.WriteString(" €")
	}
	return b.String()
}
