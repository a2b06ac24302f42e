package cli

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/game/vegas"
	"tapis/stats"
	"tapis/ui"
	"tapis/wallet"
)

// statWords are the words of simulate's statistics in one language.
type statWords struct {
	interval, holds, misses string // return, low, high, standard error; payout
	runInterval             string // low, high, standard error
	rare, rares             string // lot(s), expected, units, chance, shift: one lot, more
	rareDrawn               string // lots drawn
	runDiffers              string // run σ, table σ
	tableInterval           string // units, payout, half width
	volatility              string // table σ, stakes, run σ, stakes
	chiSquare               string // statistic, df, p
	pooled                  string // lots pooled
	noTest                  string
	whole                   string // whole blocks only
	fpc                     string // whole blocks, units of others, factor, statistic, corrected
	partBlock               string // share of one block, factor
	partBlocks              string // blocks, factor
	surfaces                string
	surface                 string // name, rate, expected
	splitsHead              string
	lotSplits               string // tickets, seen, catalogue's splits
	splitTest               string // statistic, df, p
	tooFew                  string
}

var statText = map[ui.Lang]statWords{
	ui.English: {
		interval:      "return %s: 95%% interval %s to %s (standard error %s points, by the table's variance)",
		holds:         ", which holds %s",
		misses:        ", which misses %s",
		runInterval:   "by the run's own variance: %s to %s (standard error %s points)",
		rare:          "caution: the intervals lean on the normal law, which the %s lot does not follow: expected %s times in %s (drawn in %s of such runs), one adds %s points to the return by itself",
		rares:         "caution: the intervals lean on the normal law, which the %s lots do not follow: expected %s times in %s (one of them drawn in %s of such runs), one adds %s points to the return by itself",
		rareDrawn:     "; this run drew %s",
		runDiffers:    "; the run's σ %s is far from the table's %s: the rare big lots, which make most of it, came out more or less often than their odds",
		tableInterval: "the table: a run of %s returns %s ± %s points 95 times in 100",
		volatility:    "volatility: σ %s a unit (%s stakes) by the table, %s (%s stakes) in the run",
		chiSquare:     "χ² of the units by lot against the table: %s on %s degrees of freedom, p = %s",
		pooled:        " (%d lots expected under 5 times pooled)",
		noTest:        "χ² of the units by lot: too few units to test",
		whole:         "the run is %s (drawn without replacement): every lot counted as the table has it, the return its payout rate exactly; nothing is left to chance, so no interval and no χ² test",
		fpc:           "drawn without replacement: %s and %s of another block; the variances are %s of independent draws' (finite-population correction), so χ² %s is read as %s",
		partBlock:     "drawn without replacement from one block (%s of it): the variances are %s of independent draws' (finite-population correction, applied)",
		partBlocks:    "drawn without replacement from %s, a part of each: the variances are %s of independent draws' (finite-population correction, applied)",
		surfaces:      "surfaces that paid (against the catalogue):",
		surface:       "%s %s (%s)",
		splitsHead:    "splits of each lot over the surfaces, against its catalogue (each split equally likely):",
		lotSplits:     "%s tickets · %s of %s splits seen",
		splitTest:     " · χ² %s on %s df, p = %s",
		tooFew:        " · too few to test",
	},
	ui.French: {
		interval:      "retour %s : intervalle à 95 %% de %s à %s (erreur type %s points, selon la variance de la table)",
		holds:         ", qui contient %s",
		misses:        ", qui ne contient pas %s",
		runInterval:   "selon la variance de la session : de %s à %s (erreur type %s points)",
		rare:          "attention : les intervalles supposent la loi normale, que le lot de %s ne suit pas : attendu %s fois en %s (tiré dans %s de ces sessions), un seul ajoute %s points au retour",
		rares:         "attention : les intervalles supposent la loi normale, que les lots de %s ne suivent pas : attendus %s fois en %s (l'un d'eux tiré dans %s de ces sessions), un seul ajoute %s points au retour",
		rareDrawn:     " ; cette session en a tiré %s",
		runDiffers:    " ; le σ de la session, %s, est loin de celui de la table, %s : les gros lots rares, qui en font l'essentiel, sont sortis plus ou moins souvent que leur chance",
		tableInterval: "la table : une session de %s rend %s ± %s points 95 fois sur 100",
		volatility:    "volatilité : σ %s par partie (%s mises) selon la table, %s (%s mises) dans la session",
		chiSquare:     "χ² des parties par lot contre la table : %s à %s degrés de liberté, p = %s",
		pooled:        " (%d lots attendus moins de 5 fois regroupés)",
		noTest:        "χ² des parties par lot : trop peu de parties pour un test",
		whole:         "la session compte %s (tirage sans remise) : chaque lot compté comme la table le donne, le retour exactement son taux ; rien n'est laissé au hasard, donc ni intervalle ni test du χ²",
		fpc:           "tirage sans remise : %s et %s d'un autre bloc ; les variances valent %s de celles de tirages indépendants (correction de population finie), le χ² %s se lit donc %s",
		partBlock:     "tirage sans remise dans un bloc (%s de celui-ci) : les variances valent %s de celles de tirages indépendants (correction de population finie, appliquée)",
		partBlocks:    "tirage sans remise dans %s, une part de chacun : les variances valent %s de celles de tirages indépendants (correction de population finie, appliquée)",
		surfaces:      "surfaces gagnantes (contre le catalogue) :",
		surface:       "%s %s (%s)",
		splitsHead:    "répartitions de chaque lot sur les surfaces, contre son catalogue (chacune également probable) :",
		lotSplits:     "%s tickets · %s répartitions vues sur %s",
		splitTest:     " · χ² %s à %s ddl, p = %s",
		tooFew:        " · trop peu pour un test",
	},
}

// blocksOf writes a count of blocks: "1 block", "2 blocs".
func blocksOf(n int64, lang ui.Lang) string {
	return counted(n, lang, [2][2]string{{"block", "blocks"}, {"bloc", "blocs"}})
}

// wholeBlocks writes a count of whole blocks: "1 whole block", "2 blocs
// entiers".
func wholeBlocks(n int64, lang ui.Lang) string {
	return counted(n, lang, [2][2]string{{"whole block", "whole blocks"}, {"bloc entier", "blocs entiers"}})
}

// counted writes n and its noun, one or more, in English or French.
func counted(n int64, lang ui.Lang, nouns [2][2]string) string {
	noun := nouns[0]
	if lang == ui.French {
		noun = nouns[1]
	}
	if n == 1 {
		return "1 " + noun[0]
	}
	return number(n, lang) + " " + noun[1]
}

// fixed writes a float with places decimals as the language writes them.
func fixed(f float64, places int32, lang ui.Lang) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "-"
	}
	return wallet.Number(decimal.NewFromFloat(f), places, string(lang))
}

// pvalue writes a p-value: three decimals, or "< 0.001".
func pvalue(p float64, lang ui.Lang) string {
	if p < 0.001 {
		return "< " + fixed(0.001, 3, lang)
	}
	return fixed(p, 3, lang)
}

// ratio writes a float ratio as percent does.
func ratio(f float64, lang ui.Lang) string {
	return percent(decimal.NewFromFloat(f).Round(8), lang)
}

// writeStatistics writes what the run's figures say against the table:
// the return's intervals, the volatility, the chi-square, how the blocks
// were drawn and, for Vegas, the surfaces and splits.
func writeStatistics(w io.Writer, o *simOptions, r *simulation, a stats.Analysis) {
	words, l := statText[o.lang], string(o.lang)
	c := a.Confidence
	blocks, whole := int64(len(a.Draws.PerBlock)), a.Draws.WholeBlocks()
	if c.Units == 0 {
		return
	}
	if c.Factor == 0 {
		fmt.Fprintf(w, words.whole+"\n", wholeBlocks(whole, o.lang))
	} else {
		lo, hi := c.Interval()
		line := fmt.Sprintf(words.interval, ratio(c.Return, o.lang), ratio(lo, o.lang), ratio(hi, o.lang), fixed(100*c.SETable, 1, o.lang))
		if lo <= c.Payout && c.Payout <= hi {
			line += fmt.Sprintf(words.holds, ratio(c.Payout, o.lang))
		} else {
			line += fmt.Sprintf(words.misses, ratio(c.Payout, o.lang))
		}
		fmt.Fprintln(w, line)
		lo, hi = c.RunInterval()
		line = fmt.Sprintf(words.runInterval, ratio(lo, o.lang), ratio(hi, o.lang), fixed(100*c.SERun, 1, o.lang))
		if c.SigmaRun < c.SigmaTable/2 || c.SigmaRun > 2*c.SigmaTable {
			line += fmt.Sprintf(words.runDiffers, wallet.Format(decimal.NewFromFloat(c.SigmaRun).Round(2), l),
				wallet.Format(decimal.NewFromFloat(c.SigmaTable).Round(2), l))
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, words.tableInterval+"\n", units(c.Units, o.lang), ratio(c.Payout, o.lang), fixed(100*Z95(c.SETable), 1, o.lang))
		writeRare(w, c, o.lang)
	}
	fmt.Fprintf(w, words.volatility+"\n", wallet.Format(decimal.NewFromFloat(c.SigmaTable).Round(2), l), fixed(c.SigmaTable/c.Stake, 1, o.lang),
		wallet.Format(decimal.NewFromFloat(c.SigmaRun).Round(2), l), fixed(c.SigmaRun/c.Stake, 1, o.lang))
	t := a.Test
	switch {
	case c.Factor == 0:
	case !t.Testable:
		fmt.Fprintln(w, words.noTest)
	default:
		line := fmt.Sprintf(words.chiSquare, fixed(t.Corrected, 2, o.lang), number(int64(t.DF), o.lang), pvalue(t.P, o.lang))
		if t.Pooled > 1 {
			line += fmt.Sprintf(words.pooled, t.Pooled)
		}
		fmt.Fprintln(w, line)
	}
	switch {
	case c.Factor == 0:
	case whole > 0:
		fmt.Fprintf(w, words.fpc+"\n", wholeBlocks(whole, o.lang), units(c.Units-whole*a.Draws.BlockUnits, o.lang),
			fixed(c.Factor, 3, o.lang), fixed(t.Statistic, 2, o.lang), fixed(t.Corrected, 2, o.lang))
	case blocks == 1 && c.Factor < 0.995:
		fmt.Fprintf(w, words.partBlock+"\n", ratio(float64(c.Units)/float64(a.Draws.BlockUnits), o.lang), fixed(c.Factor, 3, o.lang))
	case c.Factor < 0.995:
		fmt.Fprintf(w, words.partBlocks+"\n", blocksOf(blocks, o.lang), fixed(c.Factor, 3, o.lang))
	}
	if o.game.Name == vegas.Name {
		writeTickets(w, &r.tickets, o.lang)
	}
}

// writeRare warns of the lots too rare for the run's intervals.
func writeRare(w io.Writer, c stats.Confidence, lang ui.Lang) {
	if len(c.Rare) == 0 {
		return
	}
	words, l := statText[lang], string(lang)
	prizes, expected, shifts := make([]string, len(c.Rare)), make([]string, len(c.Rare)), make([]string, len(c.Rare))
	var drawn int64
	for i, r := range c.Rare {
		prizes[i] = wallet.Format(r.Prize, l)
		expected[i] = fixed(r.Expected, 2, lang)
		if r.Expected < 0.01 {
			expected[i] = fixed(r.Expected, 4, lang)
		}
		shifts[i] = fixed(100*r.Shift, 1, lang)
		drawn += r.Drawn
	}
	sep := " / "
	format := words.rare
	if len(c.Rare) > 1 {
		format = words.rares
	}
	line := fmt.Sprintf(format, strings.Join(prizes, sep), strings.Join(expected, sep), units(c.Units, lang),
		ratio(c.RareChance, lang), strings.Join(shifts, sep))
	if drawn > 0 {
		line += fmt.Sprintf(words.rareDrawn, number(drawn, lang))
	}
	fmt.Fprintln(w, line)
}

// Z95 returns the half width of a 95 % interval of standard error se.
func Z95(se float64) float64 { return stats.Z95 * se }

// writeTickets writes the hit rate of each Vegas surface and the splits of
// each lot against its catalogue.
func writeTickets(w io.Writer, t *stats.Tickets, lang ui.Lang) {
	words, l := statText[lang], string(lang)
	hits := t.Hits()
	parts := make([]string, len(hits))
	for i, h := range hits {
		parts[i] = fmt.Sprintf(words.surface, h.Surface, ratio(h.Rate, lang), ratio(h.Expected, lang))
	}
	fmt.Fprintf(w, "%s %s\n%s\n", words.surfaces, strings.Join(parts, " · "), words.splitsHead)
	lots := t.Lots()
	width := 0
	for _, lot := range lots {
		width = max(width, ansi.StringWidth(wallet.Format(lot.Prize, l)))
	}
	for _, lot := range lots[:len(lots)-1] { // the losing tickets have one split
		prize := wallet.Format(lot.Prize, l)
		line := "  " + prize + strings.Repeat(" ", width-ansi.StringWidth(prize)) + "  " +
			fmt.Sprintf(words.lotSplits, number(lot.Tickets, lang), number(int64(lot.Seen), lang), number(int64(len(lot.Splits)), lang))
		if lot.Test.Testable {
			line += fmt.Sprintf(words.splitTest, fixed(lot.Test.Statistic, 1, lang), number(int64(lot.Test.DF), lang), pvalue(lot.Test.P, lang))
		} else if lot.Tickets > 0 {
			line += words.tooFew
		}
		fmt.Fprintln(w, line)
	}
}

type statsJSON struct {
	Return     returnJSON     `json:"return"`
	Volatility volatilityJSON `json:"volatility"`
	Draws      drawsJSON      `json:"draws"`
	ChiSquare  chiSquareJSON  `json:"chi_square"`
	Surfaces   []surfaceJSON  `json:"surfaces,omitempty"`
	Splits     []lotSplitJSON `json:"splits,omitempty"`
}

type returnJSON struct {
	Value         float64    `json:"value"`
	Payout        float64    `json:"payout"`
	SETable       float64    `json:"se_table"`
	SERun         float64    `json:"se_run"`
	IntervalTable [2]float64 `json:"interval_table"`
	IntervalRun   [2]float64 `json:"interval_run"`
	TableRange    [2]float64 `json:"table_range"`
	RareLots      []rareJSON `json:"rare_lots"`
	RareChance    float64    `json:"rare_chance"`
}

type rareJSON struct {
	Prize    string  `json:"prize"`
	Expected float64 `json:"expected"`
	Shift    float64 `json:"shift"`
	Drawn    int64   `json:"drawn"`
}

type volatilityJSON struct {
	TableEuros  float64 `json:"table_euros"`
	TableStakes float64 `json:"table_stakes"`
	RunEuros    float64 `json:"run_euros"`
	RunStakes   float64 `json:"run_stakes"`
}

type drawsJSON struct {
	Blocks      int     `json:"blocks"`
	WholeBlocks int64   `json:"whole_blocks"`
	FPC         float64 `json:"fpc"`
}

type chiSquareJSON struct {
	Statistic float64  `json:"statistic"`
	Corrected *float64 `json:"corrected"`
	DF        int      `json:"df"`
	P         *float64 `json:"p"`
	Cells     int      `json:"cells"`
	Pooled    int      `json:"pooled"`
}

type surfaceJSON struct {
	Surface  string  `json:"surface"`
	Hits     int64   `json:"hits"`
	Rate     float64 `json:"rate"`
	Expected float64 `json:"expected"`
}

type lotSplitJSON struct {
	Prize     string           `json:"prize"`
	Tickets   int64            `json:"tickets"`
	Seen      int              `json:"seen"`
	ChiSquare chiSquareJSON    `json:"chi_square"`
	Splits    []splitCountJSON `json:"splits"`
}

type splitCountJSON struct {
	Split    [4]int64 `json:"split"`
	Counted  int64    `json:"counted"`
	Expected float64  `json:"expected"`
}

// round6 rounds a statistic to 6 decimal places for the JSON report.
func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

func chiJSON(t stats.ChiSquare) chiSquareJSON {
	out := chiSquareJSON{Statistic: round6(t.Statistic), DF: t.DF, Cells: t.Cells, Pooled: t.Pooled}
	if t.Testable {
		c, p := round6(t.Corrected), round6(t.P)
		out.Corrected, out.P = &c, &p
	}
	return out
}

// statisticsJSON returns the statistics of simulate --json.
func statisticsJSON(r *simulation, a stats.Analysis, vegasGame bool) *statsJSON {
	c := a.Confidence
	tlo, thi := c.Interval()
	rlo, rhi := c.RunInterval()
	plo, phi := c.TableRange()
	out := &statsJSON{
		Return: returnJSON{Value: round6(c.Return), Payout: round6(c.Payout), SETable: round6(c.SETable), SERun: round6(c.SERun),
			IntervalTable: [2]float64{round6(tlo), round6(thi)}, IntervalRun: [2]float64{round6(rlo), round6(rhi)},
			TableRange: [2]float64{round6(plo), round6(phi)}},
		Volatility: volatilityJSON{TableEuros: round6(c.SigmaTable), TableStakes: round6(c.SigmaTable / c.Stake),
			RunEuros: round6(c.SigmaRun), RunStakes: round6(c.SigmaRun / c.Stake)},
		Draws:     drawsJSON{Blocks: len(a.Draws.PerBlock), WholeBlocks: a.Draws.WholeBlocks(), FPC: round6(c.Factor)},
		ChiSquare: chiJSON(a.Test),
	}
	out.Return.RareLots = []rareJSON{}
	for _, r := range c.Rare {
		out.Return.RareLots = append(out.Return.RareLots, rareJSON{r.Prize.String(), round6(r.Expected), round6(r.Shift), r.Drawn})
	}
	out.Return.RareChance = round6(c.RareChance)
	if !vegasGame {
		return out
	}
	for _, h := range r.tickets.Hits() {
		out.Surfaces = append(out.Surfaces, surfaceJSON{h.Surface.String(), h.Hits, round6(h.Rate), round6(h.Expected)})
	}
	for _, lot := range r.tickets.Lots() {
		l := lotSplitJSON{Prize: lot.Prize.String(), Tickets: lot.Tickets, Seen: lot.Seen, ChiSquare: chiJSON(lot.Test),
			Splits: make([]splitCountJSON, len(lot.Splits))}
		for i, s := range lot.Splits {
			l.Splits[i] = splitCountJSON{Split: s.Split, Counted: s.Counted, Expected: round6(s.Expected)}
		}
		out.Splits = append(out.Splits, l)
	}
	return out
}
