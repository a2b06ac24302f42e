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
	n := Number(d.Abs(), 2, lang)
	sign := ""
	if d.IsNegative() {
		sign = "-"
	}
	if lang == "fr" {
		return sign + n + " €"
	}
	return sign + "€" + n
}

// Number writes a number with places decimals as the language writes it:
// thousands grouped by a space and a decimal comma in French ("40 000,5"),
// by a comma with a decimal point otherwise ("40,000.5").
func Number(d decimal.Decimal, places int32, lang string) string {
	s := d.StringFixed(places)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	sep, point := ",", "."
	if lang == "fr" {
		sep, point = " ", ","
	}
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString(point + frac)
	}
	return b.String()
}
