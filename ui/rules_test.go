package ui

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game/vegas"
	"tapis/game/yams"
)

// tableAmounts returns every amount the games' tables hold, as strings
// ("0.5", "10000"): the Yam's stakes and prizes at each stake, the Vegas
// price, lots, and the prizes of the poker combinations and jackpot cases.
func tableAmounts(t *testing.T) map[string]bool {
	t.Helper()
	all := map[string]bool{}
	for _, d := range append(yamsNamed(), vegasNamed()...) {
		all[d] = true
	}
	for _, s := range yams.Stakes() {
		table, err := yams.Table(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range table.Lots {
			all[l.Prize.String()] = true
		}
	}
	for _, l := range vegas.Table().Lots {
		all[l.Prize.String()] = true
	}
	return all
}

// yamsNamed are the amounts the Yam's rules name, in their order: the
// stakes.
func yamsNamed() (out []string) {
	for _, s := range yams.Stakes() {
		out = append(out, s.String())
	}
	return out
}

// vegasNamed are the amounts the Vegas rules name, in their order: the
// price, the poker combinations' prizes from the pair up, the jackpot
// cases' from three 7 down.
func vegasNamed() []string {
	out := []string{vegas.Price().String()}
	for c := vegas.PokerPair; c <= vegas.PokerFourOfAKind; c++ {
		out = append(out, c.Prize().String())
	}
	for c := vegas.SevenCase; c >= vegas.CherryCase; c-- {
		out = append(out, c.Prize().String())
	}
	return out
}

// amountPattern finds an amount as each language writes it: "€10,000",
// "€0.50"; "10 000 €", "0,50 €" (with plain or non-breaking spaces).
var amountPattern = map[Lang]*regexp.Regexp{
	English: regexp.MustCompile(`€(\d{1,3}(?:,\d{3})*(?:\.\d+)?)`),
	French:  regexp.MustCompile(`(\d{1,3}(?:[ \x{a0}]\d{3})*(?:,\d+)?)[ \x{a0}]€`),
}

// readAmount reads an amount the pattern found back.
func readAmount(t *testing.T, lang Lang, s string) string {
	t.Helper()
	if lang == French {
		s = strings.NewReplacer(" ", "", "\u00a0", "", ",", ".").Replace(s)
	} else {
		s = strings.ReplaceAll(s, ",", "")
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	return d.String()
}

// TestRulesAmountsFromTables checks that the in-game rules take their
// amounts from the lot tables: the texts of the rules hold no amount and
// no number but the 7 of Craps and of the Jackpot's reels (the stakes,
// price, prizes and points come in as arguments), and every amount the
// rules screen shows, read from the screen in both languages and both
// sizes, is one of the tables', each stake, price and prize the rules name
// among them.
func TestRulesAmountsFromTables(t *testing.T) {
	verb := regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)
	number := regexp.MustCompile(`\d+`)
	currency := regexp.MustCompile(`€|\$|(?i)\beuros?\b|\bEUR\b`)
	for lang, texts := range map[Lang]map[string]string{English: english(), French: french()} {
		for _, k := range []string{"rules.yams", "rules.vegas"} {
			text := verb.ReplaceAllString(texts[k], "")
			if currency.MatchString(text) {
				t.Errorf("%s %s writes an amount itself:\n%s", lang, k, texts[k])
			}
			for _, n := range number.FindAllString(text, -1) {
				if n != "7" {
					t.Errorf("%s %s writes the number %s itself: it belongs to the tables", lang, k, n)
				}
			}
		}
	}
	all := tableAmounts(t)
	for _, lang := range []Lang{French, English} {
		for _, s := range sizes {
			m := newModel(t, lang, MenuScreen, s[0], s[1])
			press(m, "4")
			yamsText := readRules(t, m)
			press(m, "tab")
			vegasText := readRules(t, m)
			rules := strings.Join(append(yamsText, vegasText...), "\n")
			for _, match := range amountPattern[lang].FindAllStringSubmatch(rules, -1) {
				if a := readAmount(t, lang, match[1]); !all[a] {
					t.Errorf("%s %s: the rules show %q, no amount of the tables", lang, sizeName(s), match[0])
				}
			}
			for game, text := range map[string][]string{"yams": yamsText, "vegas": vegasText} {
				want := map[string][]string{"yams": yamsNamed(), "vegas": vegasNamed()}[game]
				var got []string
				for _, match := range amountPattern[lang].FindAllStringSubmatch(paragraph(text), -1) {
					got = append(got, readAmount(t, lang, match[1]))
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s %s: the %s rules name the amounts %v, the tables %v", lang, sizeName(s), game, got, want)
				}
			}
			// The points of the Yam's brackets are the tables' too.
			b, yamsRules := yams.Brackets(yams.Stakes()[0]), strings.Join(strings.Fields(paragraph(yamsText)), " ")
			top, lowest := strconv.Itoa(b[0].High), strconv.Itoa(b[len(b)-1].Low)
			for _, want := range map[Lang][]string{
				English: {"exactly " + top + " pays the top lot", "below " + lowest + " or above " + top},
				French:  {top + " tout juste le gros lot", "moins de " + lowest + " ou plus de " + top},
			}[lang] {
				if !strings.Contains(yamsRules, want) {
					t.Errorf("%s %s: the Yam's rules do not say %q", lang, sizeName(s), want)
				}
			}
		}
	}
}

// paragraph returns the rules in short from a game's rules as the screen
// shows them: the lines under the title, to the first blank one.
func paragraph(lines []string) string {
	end := 2
	for end < len(lines) && strings.TrimSpace(lines[end]) != "" {
		end++
	}
	return strings.Join(lines[2:end], "\n")
}
