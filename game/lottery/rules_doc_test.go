package lottery

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
)

var update = flag.Bool("update", false, "rewrite the generated parts of RULES.md")

const rulesPath = "../../RULES.md"

// TestRulesDocument checks the lot tables, chances and split catalogue in
// RULES.md are exactly what the code uses; -update rewrites them.
func TestRulesDocument(t *testing.T) {
	b, err := os.ReadFile(rulesPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	parts := map[string]string{"tables": tablesDoc(), "catalogue": catalogueDoc()}
	for name, want := range parts {
		begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("RULES.md has no %q section", name)
		}
		if got := doc[i+len(begin) : j]; got != want {
			if !*update {
				t.Errorf("RULES.md: the %s section is not what the code does; run go test ./game/lottery -run RulesDocument -update", name)
				continue
			}
			doc = doc[:i+len(begin)] + want + doc[j:]
		}
	}
	if *update {
		if err := os.WriteFile(rulesPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func euros(d decimal.Decimal) string {
	s := d.StringFixed(2)
	whole, cents, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(" ")
		}
		b.WriteRune(c)
	}
	if cents != "00" {
		b.WriteString("," + cents)
	}
	return b.String() + " €"
}

func chance(units, count int64) string {
	x := float64(units) / float64(count)
	switch {
	case x < 10:
		return fmt.Sprintf("1 in %.2f", x)
	case x < 100:
		return fmt.Sprintf("1 in %.1f", x)
	}
	return "1 in " + strings.TrimSuffix(euros(decimal.NewFromInt(int64(x+0.5))), " €")
}

func tableDoc(b *strings.Builder, tb *game.Table, stake decimal.Decimal, rows []string) {
	fmt.Fprintf(b, "| %s | lots per block | lot | chance per unit |\n|---|--:|--:|--:|\n", rows[0])
	for i, l := range tb.Lots {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", rows[i+1], group(l.Count), euros(l.Prize), chance(tb.Units, l.Count))
	}
	lose := tb.Count(tb.Losing())
	fmt.Fprintf(b, "| %s | %s | 0 € | %s |\n", rows[len(rows)-1], group(lose), chance(tb.Units, lose))
	sales := stake.Mul(decimal.NewFromInt(tb.Units))
	fmt.Fprintf(b, "\nA block of %s units sells for %s and pays %s: %s winners (%s), return to player %s %%.\n",
		group(tb.Units), euros(sales), euros(tb.Payout()), group(tb.Winners()), chance(tb.Units, tb.Winners()),
		tb.Payout().Div(sales).Shift(2))
}

func group(n int64) string { return strings.TrimSuffix(euros(decimal.NewFromInt(n)), " €") }

func tablesDoc() string {
	var b strings.Builder
	for _, stake := range yams.Stakes() {
		tb, _ := yams.Table(stake)
		fmt.Fprintf(&b, "\n#### Yam's at %s\n\n", euros(stake))
		rows := []string{"points"}
		for _, br := range yams.Brackets(stake) {
			if br.Low == br.High {
				rows = append(rows, fmt.Sprint(br.Low))
			} else {
				rows = append(rows, fmt.Sprintf("%d to %d", br.Low, br.High))
			}
		}
		rows = append(rows, "0 to 4, 101 to 150 (losing)")
		tableDoc(&b, tb, stake, rows)
	}
	b.WriteString("\n#### Vegas\n\n")
	rows := []string{"lot"}
	for _, l := range vegas.Table().Lots {
		rows = append(rows, euros(l.Prize))
	}
	tableDoc(&b, vegas.Table(), vegas.Price(), append(rows, "losing"))
	b.WriteString("\n")
	return b.String()
}

func catalogueDoc() string {
	var b strings.Builder
	amounts := vegas.AmountSet()
	s := make([]string, len(amounts))
	for i, a := range amounts {
		s[i] = euros(decimal.NewFromInt(a))
	}
	fmt.Fprintf(&b, "\nAmount set (ruling V6): %s.\n\n", strings.Join(s, ", "))
	b.WriteString("Each split reads roulette + craps + poker + jackpot, in euros.\n\n")
	tb := vegas.Table()
	for tier := range tb.Tiers() {
		e := tb.Prize(tier).IntPart()
		splits := vegas.Splits(e)
		name := euros(tb.Prize(tier))
		if e == 0 {
			name = "losing ticket"
		}
		fmt.Fprintf(&b, "<details><summary>%s: %d split%s</summary>\n\n```\n", name, len(splits), plural(len(splits)))
		for _, sp := range splits {
			fmt.Fprintf(&b, "%d + %d + %d + %d\n", sp[0], sp[1], sp[2], sp[3])
		}
		b.WriteString("```\n</details>\n")
	}
	b.WriteString("\n")
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
