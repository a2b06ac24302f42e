package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"tapis/chart"
	"tapis/game/vegas"
	"tapis/stats"
	"tapis/store"
	"tapis/text"
	"tapis/ui"
	"tapis/wallet"
)

// simWords are the words of simulate's report in one language.
type simWords struct {
	unit, units string // one unit, and more
	head        string // game, stake, seed, units
	storeHead   string // game, stake, account, units: a store's seed is the house's
	journal     string
	store       string
	earlier     string // units of an earlier run revealed first
	short       string // the wallet could not pay
	losing      string
	lot         string // counted, share, table's share
	ret, versus string // the return's gauge
	mismatches  string
	speed       string
}

// simText holds the report's words in each language.
var simText = map[ui.Lang]simWords{
	ui.English: {
		unit:       "unit",
		units:      "units",
		head:       "%s at %s · seed %s · %s",
		storeHead:  "%s at %s · account %s · %s",
		journal:    "journal %s",
		store:      "store %s",
		earlier:    "revealed first: %s bought by an earlier run and never shown (won %s)",
		short:      "stopped after %s: the balance %s does not pay a stake of %s",
		losing:     "losing",
		lot:        "%s · %s (table %s)",
		ret:        "return",
		versus:     "%s against %s",
		mismatches: "units whose layout does not score to their prize: %s",
		speed:      "%s in %s s: %s units per second",
	},
	ui.French: {
		unit:       "partie",
		units:      "parties",
		head:       "%s à %s · graine %s · %s",
		storeHead:  "%s à %s · compte %s · %s",
		journal:    "journal %s",
		store:      "magasin %s",
		earlier:    "révélées d'abord : %s achetées par une session précédente et jamais montrées (gagné %s)",
		short:      "arrêt après %s : le solde de %s ne paie pas une mise de %s",
		losing:     "perdant",
		lot:        "%s · %s (table %s)",
		ret:        "retour",
		versus:     "%s contre %s",
		mismatches: "parties dont le tirage ne paie pas son lot : %s",
		speed:      "%s en %s s : %s parties par seconde",
	},
}

// simChartWidth is how wide the report's charts are drawn, as wide as the
// stats screen draws them, or wider when a lot's text needs it: a bar
// chart gives its texts a third of its width.
const simChartWidth = 96

// shortLine says why a simulation stopped before its count.
func (r *simulation) shortLine(o *simOptions, lang ui.Lang) string {
	l := string(lang)
	return fmt.Sprintf(simText[lang].short, units(int64(r.totals.Played), lang), wallet.Format(r.balance, l), wallet.Format(o.stake, l))
}

// writeSimulation writes the report: the summary line, what the run was,
// the units by lot against the table as bars, the return against the
// table's payout rate, and the speed.
func writeSimulation(w io.Writer, o *simOptions, r *simulation) error {
	words, l := simText[o.lang], string(o.lang)
	fmt.Fprintln(w, ui.SummaryLine(o.lang, r.totals, r.won(), r.balance))
	if r.short {
		fmt.Fprintln(w, r.shortLine(o, o.lang))
	}
	if r.earlier > 0 {
		fmt.Fprintf(w, words.earlier+"\n", units(int64(r.earlier), o.lang), wallet.Format(r.earlierWon, l))
	}
	head := fmt.Sprintf(words.head, o.game.Name, wallet.Format(o.stake, l), r.seed, units(int64(r.totals.Played), o.lang))
	if o.journal != "" {
		head += " · " + fmt.Sprintf(words.journal, text.Printable(o.journal))
	}
	if o.store != "" {
		head = fmt.Sprintf(words.storeHead, o.game.Name, wallet.Format(o.stake, l), text.Printable(r.account), units(int64(r.totals.Played), o.lang)) +
			" · " + fmt.Sprintf(words.store, text.Printable(store.Redact(o.store)))
	}
	fmt.Fprintf(w, "%s\n\n", head)
	if fig, ok := r.figures.Figures(o.game.Seq(o.stake)); ok {
		fmt.Fprintf(w, "%s\n\n", lotChart(fig, o.lang))
		writeStatistics(w, o, r, stats.Analyse(fig, r.draws(fig.Block.Units)))
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, words.mismatches+"\n", number(r.mismatches, o.lang))
	_, err := fmt.Fprintf(w, words.speed+"\n", units(int64(r.totals.Played), o.lang),
		wallet.Number(decimal.NewFromFloat(r.elapsed.Seconds()), 3, l), number(unitsPerSec(int64(r.totals.Played), r.elapsed.Seconds()), o.lang))
	return err
}

// lotChart draws the units of a game and stake by lot against the lot
// table's shares, the top lot first, on a log scale so that the rare lots
// show, as the stats screen does, and the return so far against the
// table's payout rate under them.
func lotChart(f stats.Figures, lang ui.Lang) string {
	words := simText[lang]
	rows := make([]chart.Bar, 0, len(f.Lots))
	labelW, width := 0, simChartWidth
	// The count, the share and the table's share of each lot, each padded
	// to its column's width: every text is as wide, so the columns line up
	// and every bar has the same room.
	cols := make([][3]string, len(f.Lots))
	var colW [3]int
	for i, lot := range f.Lots {
		cols[i] = [3]string{number(lot.Share.Num, lang), percent(lot.Share.Decimal(8), lang), percent(lot.Expected.Decimal(8), lang)}
		for j, c := range cols[i] {
			colW[j] = max(colW[j], ansi.StringWidth(c))
		}
	}
	pad := func(s string, w int) string { return strings.Repeat(" ", max(0, w-ansi.StringWidth(s))) }
	for i, lot := range f.Lots {
		label := wallet.Format(lot.Prize, string(lang))
		if lot.Prize.IsZero() {
			label = words.losing
		}
		labelW = max(labelW, ansi.StringWidth(label))
		c := cols[i]
		rows = append(rows, chart.Bar{
			Label: label, Value: lot.Share.Float64(), Expected: lot.Expected.Float64(),
			Text: fmt.Sprintf(words.lot, pad(c[0], colW[0])+c[0], c[1]+pad(c[1], colW[1]), pad(c[2], colW[2])+c[2]),
		})
		width = max(width, 3*ansi.StringWidth(rows[len(rows)-1].Text))
	}
	bars := chart.Bars(rows, chart.BarsOptions{Width: width, Height: len(rows), Max: 1, Log: true})
	payout := f.Payout(4)
	ret, err := f.Return(4)
	if err != nil {
		ret = decimal.Zero
	}
	label := words.ret + strings.Repeat(" ", max(0, labelW-ansi.StringWidth(words.ret)))
	gauge := chart.Gauge(ret.InexactFloat64(), payout.InexactFloat64(), chart.GaugeOptions{
		Width: width, Label: label, Text: fmt.Sprintf(words.versus, percent(ret, lang), percent(payout, lang)),
	})
	return bars + "\n" + gauge
}

// percent writes a ratio as a percentage, "12.5%" or "12,5 %": one decimal
// at most, two significant digits under 1 % (a top lot's 0.00014%),
// trailing zeros dropped.
func percent(r decimal.Decimal, lang ui.Lang) string {
	p := r.Shift(2)
	places := int32(1)
	if f := p.InexactFloat64(); f > 0 && f < 1 {
		places = int32(1 - math.Floor(math.Log10(f)))
	}
	p = p.Round(places)
	for places > 0 && p.Equal(p.Truncate(places-1)) {
		places--
	}
	n := wallet.Number(p, places, string(lang))
	if lang == ui.French {
		return n + " %"
	}
	return n + "%"
}

// units writes a number of units: "1 unit", "10,000 units", "10 000
// parties".
func units(n int64, lang ui.Lang) string {
	w := simText[lang]
	if n == 1 {
		return "1 " + w.unit
	}
	return number(n, lang) + " " + w.units
}

// number writes a count as the language groups it: "10,000", "10 000".
func number(n int64, lang ui.Lang) string {
	return wallet.Number(decimal.NewFromInt(n), 0, string(lang))
}

// unitsPerSec is how many units a second n units in seconds make, 0 for no
// time.
func unitsPerSec(n int64, seconds float64) int64 {
	if seconds <= 0 {
		return 0
	}
	return int64(float64(n) / seconds)
}

type simTierJSON struct {
	Prize    string  `json:"prize"`
	Counted  int64   `json:"counted"`
	Expected float64 `json:"expected"`
}

type simulationJSON struct {
	Game           string        `json:"game"`
	Stake          *string       `json:"stake"`
	Seed           *string       `json:"seed"` // null on a store: its seed is the house's
	Store          string        `json:"store,omitempty"`
	Account        string        `json:"account,omitempty"`
	Units          int64         `json:"units"`
	Staked         string        `json:"staked"`
	Won            string        `json:"won"`
	RTP            string        `json:"rtp"`
	Tiers          []simTierJSON `json:"tiers"`
	Mismatches     int64         `json:"mismatches"`
	Balance        string        `json:"balance"`
	Short          bool          `json:"short"`
	Seconds        float64       `json:"seconds"`
	UnitsPerSecond int64         `json:"units_per_second"`
	Statistics     *statsJSON    `json:"statistics"` // null when no unit was bought
}

// writeSimulationJSON writes the report as one JSON object on one line.
// Units, staked, won, the return and the tiers are the units this run
// bought; expected is the lot's share of them by the table, units × its
// count / the block's units.
func writeSimulationJSON(w io.Writer, o *simOptions, r *simulation) error {
	n := int64(r.totals.Played)
	out := simulationJSON{
		Game: o.game.Name, Units: n,
		Staked: r.totals.Staked.String(), Won: r.totals.Won.String(), RTP: "0",
		Mismatches: r.mismatches, Balance: r.balance.String(), Short: r.short,
		Seconds:        math.Round(r.elapsed.Seconds()*1000) / 1000,
		UnitsPerSecond: unitsPerSec(n, r.elapsed.Seconds()),
		Tiers:          []simTierJSON{},
	}
	if o.game.Name != vegas.Name {
		s := o.stake.String()
		out.Stake = &s
	}
	if o.store == "" {
		seed := r.seed.String()
		out.Seed = &seed
	} else {
		out.Store, out.Account = store.Redact(o.store), r.account
	}
	if fig, ok := r.figures.Figures(o.game.Seq(o.stake)); ok {
		if ret, err := fig.Return(6); err == nil {
			out.RTP = ret.String()
		}
		out.Statistics = statisticsJSON(r, stats.Analyse(fig, r.draws(fig.Block.Units)), o.game.Name == vegas.Name)
		for _, lot := range fig.Lots {
			expected := float64(n*lot.Expected.Num) / float64(lot.Expected.Den)
			out.Tiers = append(out.Tiers, simTierJSON{lot.Prize.String(), lot.Share.Num, expected})
		}
	} else if table, err := o.game.Table(o.stake); err == nil {
		for tier := range table.Tiers() {
			out.Tiers = append(out.Tiers, simTierJSON{Prize: table.Prize(tier).String()})
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
