// Package report makes the host's figures of an emission: sales, stakes
// and prizes paid, the return so far against each table's payout rate, by
// game and stake, block and hour; the units by lot against the table; the
// accounts; the lots left in each block on sale, top prizes first (« lots
// restants », as the FDJ publishes them). tapis report prints it, the
// operator's ssh report command and the board read the same code: Read
// gives the report as a Go value, LotsLeft the lots left of a block.
//
// It reads the store through one snapshot (store.SQL.Figures): its sums
// agree with each other while sellers go on selling.
package report

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/store"
)

// Report is an emission's money at one moment.
type Report struct {
	At      time.Time // the snapshot's time, by the store's clock
	Since   time.Time // the purchases counted are those from then; zero: all
	Created time.Time // when the emission was made
	QA      bool      // a staging emission, which may sell forced units
	// HouseKey is the fingerprint of the key the emission is sealed with.
	HouseKey string
	Head     *store.BoardHead // the store's last signed head; nil before the first

	Total    Money    // every purchase counted, forced units among them
	Forced   Money    // of which forced units (QA, demo), from no block
	Stakes   []Stake  // by game and stake, in the emission's order
	Blocks   []Block  // by game, stake and block: the blocks sold from
	Hours    []Hour   // by hour, oldest first
	Accounts Accounts // every account, whatever Since
	OnSale   []OnSale // the blocks on sale, by game, stake and number
}

// Money is what some purchases came to.
type Money struct {
	Units  int64
	Staked decimal.Decimal // the stakes paid (mises)
	Paid   decimal.Decimal // the prizes won (gains)
}

// Return is the share of the stakes paid back in prizes, to four places
// (0.7012 is 70.12 %); zero when nothing was staked.
func (m Money) Return() decimal.Decimal {
	if m.Staked.IsZero() {
		return decimal.Zero
	}
	return m.Paid.DivRound(m.Staked, 4)
}

// Net is what the house kept: the stakes less the prizes.
func (m Money) Net() decimal.Decimal { return m.Staked.Sub(m.Paid) }

func (m *Money) add(r store.SalesRow) {
	m.Units += r.Units
	m.Staked = m.Staked.Add(r.Staked.Decimal())
	m.Paid = m.Paid.Add(r.Paid.Decimal())
}

// Stake is a game and stake's figures: the units sold from its blocks,
// against its table (forced units apart: they follow no table).
type Stake struct {
	Seq    game.SeqKey
	Money                  // units sold from blocks
	Forced Money           // forced units of this game and stake
	Payout decimal.Decimal // the table's payout rate (taux de retour), 0.70 for the regulations'
	Lots   []Lot           // by lot, highest prize first, the losing lot last
}

// Lot is the units of one lot sold, against what the table expects of as
// many units.
type Lot struct {
	Prize    decimal.Decimal // zero for the losing lot
	Losing   bool
	Units    int64
	Expected decimal.Decimal // the table's share of the units sold, to one place
}

// Block is the units sold from one block in the period.
type Block struct {
	ID game.BlockID
	Money
}

// Hour is an hour's sales, in all and by game and stake.
type Hour struct {
	Start time.Time // UTC
	Money
	Stakes []HourStake // the games and stakes sold in it, in the emission's order
}

// HourStake is a game and stake's sales in an hour, forced units among them.
type HourStake struct {
	Seq game.SeqKey
	Money
}

// Accounts counts the accounts and sums their balances.
type Accounts struct {
	Count, Guests, Playing int64
	Balance                decimal.Decimal // what they hold now
	Deposited              decimal.Decimal // what was deposited into them
	Largest                decimal.Decimal // the largest balance
}

// OnSale is a block on sale: its units sold and the lots left in it.
type OnSale struct {
	ID          game.BlockID
	Units, Sold int64
	Revealing   int64  // sold, still being revealed: counted as left until seen
	Commitment  string // published before its first sale, in hex
	Left        []LotLeft
}

// LotLeft is a winning lot still in a block: its prize, how many of it
// are left, how many the block had.
type LotLeft struct {
	Prize         decimal.Decimal
	Left, Initial int64
}

// LotsLeft returns the winning lots still in a block (or in blocks),
// highest prize first, given each tier's prize, the losing tier, and the
// units left and initially in it by tier (initial may be nil); lots none
// of which is left are dropped. The board and the report name the top
// prizes left with it.
func LotsLeft(prizes []decimal.Decimal, losing int, left, initial []int64) []LotLeft {
	var out []LotLeft
	for tier, p := range prizes {
		if tier != losing && tier < len(left) && left[tier] > 0 {
			l := LotLeft{Prize: p, Left: left[tier]}
			if tier < len(initial) {
				l.Initial = initial[tier]
			}
			out = append(out, l)
		}
	}
	slices.SortStableFunc(out, func(a, b LotLeft) int { return b.Prize.Cmp(a.Prize) })
	return out
}

// Read reads a store's report: the purchases made from since (all when
// since is zero), in one snapshot of the store.
func Read(ctx context.Context, st *store.SQL, since time.Time) (*Report, error) {
	f, err := st.Figures(ctx, since)
	if err != nil {
		return nil, err
	}
	return Make(f)
}

// Make makes the report of a store's figures.
func Make(f store.Figures) (*Report, error) {
	e := f.Emission
	r := &Report{At: f.At, Since: f.Since, Created: e.Created, QA: e.QA, HouseKey: e.Key().Fingerprint(), Head: f.Head}
	seqs := e.Sequences()
	order := map[string]int{}
	for i, seq := range seqs {
		table, err := e.Table(seq)
		if err != nil {
			return nil, err
		}
		order[seq.String()] = i
		units := decimal.NewFromInt(table.Units)
		s := Stake{Seq: seq, Payout: table.Payout().Div(units.Mul(seq.Stake)).Round(4)}
		for tier := range table.Tiers() {
			s.Lots = append(s.Lots, Lot{Prize: table.Prize(tier), Losing: tier == table.Losing()})
		}
		r.Stakes = append(r.Stakes, s)
	}
	blocks := map[string]int{}
	hours := map[int64]int{}
	for _, row := range f.Sales {
		i, ok := order[row.Seq.String()]
		if !ok {
			return nil, fmt.Errorf("the store holds purchases of %s, which its emission does not sell", row.Seq)
		}
		s := &r.Stakes[i]
		r.Total.add(row)
		if row.Block == 0 {
			s.Forced.add(row)
			r.Forced.add(row)
		} else {
			s.add(row)
			if row.Tier < 0 || row.Tier >= len(s.Lots) {
				return nil, fmt.Errorf("the store holds units of %s of lot %d, its table has %d", row.Seq, row.Tier, len(s.Lots))
			}
			s.Lots[row.Tier].Units += row.Units
			id := row.Seq.Block(row.Block)
			b, ok := blocks[id.String()]
			if !ok {
				b = len(r.Blocks)
				blocks[id.String()] = b
				r.Blocks = append(r.Blocks, Block{ID: id})
			}
			r.Blocks[b].add(row)
		}
		h, ok := hours[row.Hour.Unix()]
		if !ok {
			h = len(r.Hours)
			hours[row.Hour.Unix()] = h
			r.Hours = append(r.Hours, Hour{Start: row.Hour})
		}
		hr := &r.Hours[h]
		hr.add(row)
		j := slices.IndexFunc(hr.Stakes, func(x HourStake) bool { return x.Seq.String() == row.Seq.String() })
		if j < 0 {
			j = len(hr.Stakes)
			hr.Stakes = append(hr.Stakes, HourStake{Seq: row.Seq})
		}
		hr.Stakes[j].add(row)
	}
	for i := range r.Stakes {
		s := &r.Stakes[i]
		table, _ := e.Table(s.Seq)
		for tier := range s.Lots {
			expected := decimal.NewFromInt(table.Count(tier)).Mul(decimal.NewFromInt(s.Units))
			s.Lots[tier].Expected = expected.DivRound(decimal.NewFromInt(table.Units), 1)
		}
	}
	slices.SortFunc(r.Blocks, func(a, b Block) int {
		return cmp.Or(cmp.Compare(order[a.ID.Seq().String()], order[b.ID.Seq().String()]), cmp.Compare(a.ID.Block, b.ID.Block))
	})
	slices.SortFunc(r.Hours, func(a, b Hour) int { return a.Start.Compare(b.Start) })
	for i := range r.Hours {
		slices.SortFunc(r.Hours[i].Stakes, func(a, b HourStake) int {
			return cmp.Compare(order[a.Seq.String()], order[b.Seq.String()])
		})
	}
	a := f.Accounts
	r.Accounts = Accounts{Count: a.Count, Guests: a.Guests, Playing: a.Playing,
		Balance: a.Balance.Decimal(), Deposited: a.Deposited.Decimal(), Largest: a.Largest.Decimal()}
	for _, b := range f.Blocks {
		table, err := e.Table(b.ID.Seq())
		if err != nil {
			return nil, err
		}
		o := OnSale{ID: b.ID, Units: b.Units, Sold: b.Sold, Commitment: b.Commitment}
		prizes, left, initial := make([]decimal.Decimal, table.Tiers()), make([]int64, table.Tiers()), make([]int64, table.Tiers())
		for tier := range left {
			prizes[tier], initial[tier] = table.Prize(tier), table.Count(tier)
			left[tier] = table.Count(tier) - b.SoldByTier[tier] + b.Revealing[tier]
			o.Revealing += b.Revealing[tier]
		}
		o.Left = LotsLeft(prizes, table.Losing(), left, initial)
		r.OnSale = append(r.OnSale, o)
	}
	slices.SortStableFunc(r.OnSale, func(a, b OnSale) int {
		return cmp.Or(cmp.Compare(order[a.ID.Seq().String()], order[b.ID.Seq().String()]), cmp.Compare(a.ID.Block, b.ID.Block))
	})
	return r, nil
}
