package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/wallet"
)

// eur writes an amount as a host reads it: €1,234.50.
func eur(d decimal.Decimal) string { return wallet.Format(d, "en") }

// prize writes a lot's prize as players read it: €5,000, €2.50.
func prize(d decimal.Decimal) string {
	if d.IsInteger() {
		return "€" + num(d.IntPart())
	}
	return eur(d)
}

// num writes a whole number with its thousands grouped: 1,234.
func num(n int64) string { return wallet.Number(decimal.NewFromInt(n), 0, "en") }

// percent writes a share (0.7012) as 70.12 %.
func percent(d decimal.Decimal) string { return d.Shift(2).StringFixed(2) + " %" }

// seqName names a game and stake as a host reads it: yams €0.50.
func seqName(seq game.SeqKey) string { return seq.Game + " " + eur(seq.Stake) }

// lotName names a lot: its prize, or "no prize".
func lotName(l Lot) string {
	if l.Losing {
		return "no prize"
	}
	return prize(l.Prize)
}

// LeftLine writes the lots left of a block as the FDJ publishes them:
// "1 × €5,000, 2 × €500", the top n lots at most (all when n ≤ 0), their
// counts and prizes written by count and money (a language's).
func LeftLine(left []LotLeft, n int, count func(int64) string, money func(decimal.Decimal) string) string {
	if n > 0 && len(left) > n {
		left = left[:n]
	}
	parts := make([]string, len(left))
	for i, l := range left {
		parts[i] = count(l.Left) + " × " + money(l.Prize)
	}
	return strings.Join(parts, ", ")
}

// topLots is how many of a block's lots left the text names, top first.
const topLots = 5

// WriteText writes the report as a host reads it, its times in loc.
func (r *Report) WriteText(w io.Writer, loc *time.Location) error {
	if loc == nil {
		loc = time.Local
	}
	clock := func(t time.Time) string { return t.In(loc).Format("2006-01-02 15:04:05 MST") }
	var b strings.Builder
	since := "since the emission was made"
	if !r.Since.IsZero() {
		since = "since " + clock(r.Since)
	}
	fmt.Fprintf(&b, "tapis report at %s, %s (%s)\n", clock(r.At), since, clock(r.Created))
	head := "no head signed yet"
	if r.Head != nil {
		head = fmt.Sprintf("last signed head %s (%s, %s)", num(r.Head.N), r.Head.Hash.String()[:16], clock(r.Head.At))
	}
	kind := "the house's emission"
	if r.QA {
		kind = "a QA emission (forced units allowed)"
	}
	fmt.Fprintf(&b, "%s · house key %s · %s\n\n", kind, r.HouseKey, head)

	t := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(cells ...string) { fmt.Fprintln(t, strings.Join(cells, "\t")+"\t") }
	money := func(name string, m Money, table string) {
		ret := "-"
		if m.Units > 0 {
			ret = percent(m.Return())
		}
		row(name, num(m.Units), eur(m.Staked), eur(m.Paid), ret, table, eur(m.Net()))
	}
	row("Sales", "units", "staked", "paid", "return", "table", "kept")
	money("all", r.Total, "")
	if r.Forced.Units > 0 {
		money("forced units", r.Forced, "")
	}
	for _, s := range r.Stakes {
		money(seqName(s.Seq), s.Money, percent(s.Payout))
		if s.Forced.Units > 0 {
			money(seqName(s.Seq)+" forced", s.Forced, "")
		}
	}
	fmt.Fprintln(t)
	row("By block", "units", "staked", "paid", "return", "", "kept")
	for _, bl := range r.Blocks {
		money(seqName(bl.ID.Seq())+" block "+num(bl.ID.Block), bl.Money, "")
	}
	if len(r.Blocks) == 0 {
		row("none sold")
	}
	fmt.Fprintln(t)
	row("By hour (" + r.At.In(loc).Format("MST") + ")")
	for _, h := range r.Hours {
		money(h.Start.In(loc).Format("2006-01-02 15:04"), h.Money, "")
		for _, s := range h.Stakes {
			money(seqName(s.Seq), s.Money, "")
		}
	}
	if len(r.Hours) == 0 {
		row("none sold")
	}
	if err := t.Flush(); err != nil {
		return err
	}

	b.WriteString("\nUnits by lot against the table (units sold from blocks)\n")
	t = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, s := range r.Stakes {
		if s.Units == 0 {
			continue
		}
		row(seqName(s.Seq), "units", "expected")
		for _, l := range s.Lots {
			row(lotName(l), num(l.Units), l.Expected.StringFixed(1))
		}
	}
	if err := t.Flush(); err != nil {
		return err
	}

	a := r.Accounts
	fmt.Fprintf(&b, "\nAccounts: %s (%s guests, %s who bought) · balances %s · deposited %s · largest %s\n",
		num(a.Count), num(a.Guests), num(a.Playing), eur(a.Balance), eur(a.Deposited), eur(a.Largest))

	b.WriteString("\nLots left in the blocks on sale (« lots restants », as players have seen them)\n")
	for _, o := range r.OnSale {
		fmt.Fprintf(&b, "%s block %s: sold %s of %s", seqName(o.ID.Seq()), num(o.ID.Block), num(o.Sold), num(o.Units))
		if o.Revealing > 0 {
			fmt.Fprintf(&b, " (%s being revealed)", num(o.Revealing))
		}
		fmt.Fprintf(&b, " · commitment %s\n", o.Commitment)
		if line := LeftLine(o.Left, topLots, num, prize); line != "" {
			if len(o.Left) > topLots {
				line += fmt.Sprintf(" and %d smaller lots", len(o.Left)-topLots)
			}
			fmt.Fprintf(&b, "  %s left\n", line)
		} else {
			b.WriteString("  no winning lot left\n")
		}
	}
	if len(r.OnSale) == 0 {
		b.WriteString("no block on sale\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
