package report

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// The JSON form of a report: amounts and shares are strings of decimals
// ("1234.50", "0.7012"), as every tapis --json writes money; times are
// RFC 3339, UTC.

type moneyJSON struct {
	Units  int64  `json:"units"`
	Staked string `json:"staked"`
	Paid   string `json:"paid"`
	Return string `json:"return"`
}

func (m Money) json() moneyJSON {
	return moneyJSON{m.Units, m.Staked.StringFixed(2), m.Paid.StringFixed(2), m.Return().StringFixed(4)}
}

type lotJSON struct {
	Prize    string `json:"prize"`
	Units    int64  `json:"units"`
	Expected string `json:"expected"`
}

type stakeJSON struct {
	Game   string `json:"game"`
	Stake  string `json:"stake"`
	Payout string `json:"payout"`
	moneyJSON
	Forced moneyJSON `json:"forced"`
	Lots   []lotJSON `json:"lots"`
}

type blockJSON struct {
	Game  string `json:"game"`
	Stake string `json:"stake"`
	Block int64  `json:"block"`
	moneyJSON
}

type hourStakeJSON struct {
	Game  string `json:"game"`
	Stake string `json:"stake"`
	moneyJSON
}

type hourJSON struct {
	Hour string `json:"hour"`
	moneyJSON
	Stakes []hourStakeJSON `json:"stakes"`
}

type accountsJSON struct {
	Count     int64  `json:"count"`
	Guests    int64  `json:"guests"`
	Playing   int64  `json:"playing"`
	Balance   string `json:"balance"`
	Deposited string `json:"deposited"`
	Largest   string `json:"largest"`
}

type leftJSON struct {
	Prize   string `json:"prize"`
	Left    int64  `json:"left"`
	Initial int64  `json:"initial"`
}

type onSaleJSON struct {
	Game       string     `json:"game"`
	Stake      string     `json:"stake"`
	Block      int64      `json:"block"`
	Units      int64      `json:"units"`
	Sold       int64      `json:"sold"`
	Revealing  int64      `json:"revealing"`
	Commitment string     `json:"commitment"`
	Left       []leftJSON `json:"left"`
}

type headJSON struct {
	N    int64  `json:"n"`
	Hash string `json:"hash"`
	At   string `json:"at"`
}

type reportJSON struct {
	At       string       `json:"at"`
	Since    string       `json:"since,omitempty"`
	Created  string       `json:"created"`
	QA       bool         `json:"qa"`
	HouseKey string       `json:"house_key"`
	Head     *headJSON    `json:"head"`
	Total    moneyJSON    `json:"total"`
	Forced   moneyJSON    `json:"forced"`
	Stakes   []stakeJSON  `json:"stakes"`
	Blocks   []blockJSON  `json:"blocks"`
	Hours    []hourJSON   `json:"hours"`
	Accounts accountsJSON `json:"accounts"`
	OnSale   []onSaleJSON `json:"on_sale"`
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func stakeText(seq game.SeqKey) string { return seq.Stake.String() }

// WriteJSON writes the report as one JSON object on one line.
func (r *Report) WriteJSON(w io.Writer) error {
	out := reportJSON{At: stamp(r.At), Created: stamp(r.Created), QA: r.QA, HouseKey: r.HouseKey,
		Total: r.Total.json(), Forced: r.Forced.json(), Stakes: []stakeJSON{}, Blocks: []blockJSON{}, Hours: []hourJSON{}, OnSale: []onSaleJSON{}}
	if !r.Since.IsZero() {
		out.Since = stamp(r.Since)
	}
	if h := r.Head; h != nil {
		out.Head = &headJSON{h.N, h.Hash.String(), stamp(h.At)}
	}
	for _, s := range r.Stakes {
		js := stakeJSON{Game: s.Seq.Game, Stake: stakeText(s.Seq), Payout: s.Payout.StringFixed(4), moneyJSON: s.json(), Forced: s.Forced.json()}
		for _, l := range s.Lots {
			js.Lots = append(js.Lots, lotJSON{l.Prize.StringFixed(2), l.Units, l.Expected.StringFixed(1)})
		}
		out.Stakes = append(out.Stakes, js)
	}
	for _, b := range r.Blocks {
		out.Blocks = append(out.Blocks, blockJSON{b.ID.Game, stakeText(b.ID.Seq()), b.ID.Block, b.json()})
	}
	for _, h := range r.Hours {
		jh := hourJSON{Hour: stamp(h.Start), moneyJSON: h.json()}
		for _, s := range h.Stakes {
			jh.Stakes = append(jh.Stakes, hourStakeJSON{s.Seq.Game, stakeText(s.Seq), s.json()})
		}
		out.Hours = append(out.Hours, jh)
	}
	a := r.Accounts
	out.Accounts = accountsJSON{a.Count, a.Guests, a.Playing, a.Balance.StringFixed(2), a.Deposited.StringFixed(2), a.Largest.StringFixed(2)}
	for _, o := range r.OnSale {
		jo := onSaleJSON{Game: o.ID.Game, Stake: stakeText(o.ID.Seq()), Block: o.ID.Block, Units: o.Units, Sold: o.Sold,
			Revealing: o.Revealing, Commitment: o.Commitment, Left: []leftJSON{}}
		for _, l := range o.Left {
			jo.Left = append(jo.Left, leftJSON{l.Prize.StringFixed(2), l.Left, l.Initial})
		}
		out.OnSale = append(out.OnSale, jo)
	}
	return json.NewEncoder(w).Encode(out)
}

// CSVHeader is the first line of the CSV form: one table whose first
// column says what a row counts (README, tapis report).
var CSVHeader = []string{"section", "game", "stake", "block", "hour", "lot", "units", "staked", "paid", "return", "expected", "left", "initial", "amount"}

// WriteCSV writes the report as one CSV table, CSVHeader first: a row
// for the total, the forced units, each game and stake, each of its lots,
// each block, each hour and each game and stake in it, the accounts, and
// each lot left in each block on sale.
func (r *Report) WriteCSV(w io.Writer) error {
	c := csv.NewWriter(w)
	put := func(section string, seq *game.SeqKey, block int64, hour time.Time, lot string, units int64, m *Money, rest ...string) {
		row := make([]string, len(CSVHeader))
		row[0], row[5], row[6] = section, lot, strconv.FormatInt(units, 10)
		if seq != nil {
			row[1], row[2] = seq.Game, stakeText(*seq)
		}
		if block > 0 {
			row[3] = strconv.FormatInt(block, 10)
		}
		if !hour.IsZero() {
			row[4] = stamp(hour)
		}
		if m != nil {
			row[7], row[8], row[9] = m.Staked.StringFixed(2), m.Paid.StringFixed(2), m.Return().StringFixed(4)
		}
		copy(row[10:], rest)
		c.Write(row)
	}
	c.Write(CSVHeader)
	put("total", nil, 0, time.Time{}, "", r.Total.Units, &r.Total)
	put("forced", nil, 0, time.Time{}, "", r.Forced.Units, &r.Forced)
	for _, s := range r.Stakes {
		put("stake", &s.Seq, 0, time.Time{}, "", s.Units, &s.Money, s.Payout.StringFixed(4))
		for _, l := range s.Lots {
			put("lot", &s.Seq, 0, time.Time{}, l.Prize.StringFixed(2), l.Units, nil, l.Expected.StringFixed(1))
		}
	}
	for _, b := range r.Blocks {
		seq := b.ID.Seq()
		put("block", &seq, b.ID.Block, time.Time{}, "", b.Units, &b.Money)
	}
	for _, h := range r.Hours {
		put("hour", nil, 0, h.Start, "", h.Units, &h.Money)
		for _, s := range h.Stakes {
			put("hour_stake", &s.Seq, 0, h.Start, "", s.Units, &s.Money)
		}
	}
	a := r.Accounts
	for _, n := range []struct {
		name string
		n    int64
	}{{"count", a.Count}, {"guests", a.Guests}, {"playing", a.Playing}} {
		put("accounts", nil, 0, time.Time{}, n.name, n.n, nil)
	}
	for _, m := range []struct {
		name string
		d    decimal.Decimal
	}{{"balance", a.Balance}, {"deposited", a.Deposited}, {"largest", a.Largest}} {
		put("accounts", nil, 0, time.Time{}, m.name, 0, nil, "", "", "", m.d.StringFixed(2))
	}
	for _, o := range r.OnSale {
		seq := o.ID.Seq()
		for _, l := range o.Left {
			put("left", &seq, o.ID.Block, time.Time{}, l.Prize.StringFixed(2), o.Sold, nil, "", strconv.FormatInt(l.Left, 10), strconv.FormatInt(l.Initial, 10))
		}
	}
	c.Flush()
	return c.Error()
}
