package session

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/text"
	"tapis/wallet"
)

// Tables gives the lot table of a game at a stake: the regulation's, or
// smaller blocks in tests.
type Tables func(g lottery.Game, stake decimal.Decimal) (*game.Table, error)

// RegulationTables are the lot tables of the regulations.
func RegulationTables(g lottery.Game, stake decimal.Decimal) (*game.Table, error) {
	return g.Table(stake)
}

// Problem is something wrong in a journal, at a line.
type Problem struct {
	Line int
	Msg  string
}

// Error writes the problem as "line N: what is wrong".
func (p Problem) Error() string { return fmt.Sprintf("line %d: %s", p.Line, p.Msg) }

// Played is a purchase as the journal recorded it.
type Played struct {
	Op     wallet.Operation
	Layout lottery.Layout
	Line   int
}

// Sold returns the purchase as the shop sold it, to be shown again.
func (p Played) Sold() lottery.Sold {
	s := lottery.Sold{Layout: p.Layout, Unit: game.Unit{Prize: p.Op.Prize}}
	if id, err := game.ParseUnitID(p.Op.Unit); err == nil {
		s.Unit.ID = id
		return s
	}
	parts := strings.Split(p.Op.Unit, ":")
	if len(parts) == 4 {
		n, _ := strconv.ParseInt(parts[3], 10, 64)
		stake, _ := decimal.NewFromString(parts[1])
		s.Unit.ID = game.UnitID{Game: parts[0], Stake: stake}
		s.Forced = &lottery.Forced{Label: parts[2], Serial: n}
	}
	return s
}

// sold is a unit of a block, kept to check the block once its seed is out.
type sold struct {
	line   int
	prize  decimal.Decimal
	layout json.RawMessage
}

// State is a session as its journal leaves it.
type State struct {
	Seed    game.Seed
	Start   decimal.Decimal // the first session's starting balance
	Balance decimal.Decimal
	Ops     []wallet.Operation
	Recent  []Played                  // the last purchases, with their layouts
	Pending *Played                   // the last unit bought and never shown
	Last    map[string]game.UnitID    // the last unit of each sequence (GAME:STAKE)
	Forced  map[string]int64          // forced units of each game and stake
	Commits map[string]string         // block (GAME:STAKE:N) → commitment
	Reveals map[string]string         // block → its seed, once exhausted
	units   map[string]map[int64]sold // block → serial → unit, when verifying
	reveals map[string]int            // block → the line revealing it
	cache   map[string]*game.Table    // the tables asked for, by GAME:STAKE
	seen    map[string]bool           // unit names
	tables  Tables
	recent  int
}

// scan applies the journal's lines in order, checking each against what
// came before; problems gathers what is wrong. It keeps the last recent
// purchases with their layouts, and every unit of every block only when
// verifying, which draws closed blocks again.
func scan(lines []Line, tables Tables, recent int, verifying bool, problems *[]Problem) *State {
	st := &State{
		Last: map[string]game.UnitID{}, Forced: map[string]int64{}, Commits: map[string]string{},
		Reveals: map[string]string{}, reveals: map[string]int{}, seen: map[string]bool{},
		tables: tables, cache: map[string]*game.Table{}, recent: recent,
	}
	if verifying {
		st.units = map[string]map[int64]sold{}
	}
	defer func() {
		if len(st.Recent) > recent {
			st.Recent = st.Recent[len(st.Recent)-recent:]
		}
	}()
	bad := func(n int, format string, args ...any) {
		*problems = append(*problems, Problem{n, text.Printable(fmt.Sprintf(format, args...))})
	}
	if len(lines) == 0 || lines[0].Record.Kind != KindStart {
		bad(1, "the journal does not begin with its start record")
		return st
	}
	for i, l := range lines {
		r := l.Record
		switch r.Kind {
		case KindStart:
			if i > 0 {
				bad(l.N, "a second start record")
				continue
			}
			st.start(l, bad)
		case KindCommit:
			if _, ok := st.Commits[r.Block]; ok {
				bad(l.N, "block %s is committed twice", r.Block)
			}
			if len(r.Commitment) != 64 {
				bad(l.N, "block %s: commitment %q is not a SHA-256 in hex", r.Block, r.Commitment)
			}
			st.Commits[r.Block] = r.Commitment
		case KindBuy:
			st.buy(l, bad)
		case KindShown:
			if !st.seen[r.Unit] {
				bad(l.N, "unit %s is shown but was never bought", r.Unit)
			}
			if st.Pending != nil && st.Pending.Op.Unit == r.Unit {
				st.Pending = nil
			}
		case KindReveal:
			st.reveal(l, bad)
		case KindDeposit:
			amount, err1 := decimal.NewFromString(r.Amount)
			after, err2 := decimal.NewFromString(r.Balance)
			if err1 != nil || err2 != nil || !amount.IsPositive() || !after.Equal(st.Balance.Add(amount)) {
				bad(l.N, "deposit of %s: balance %s does not follow %s", r.Amount, r.Balance, st.Balance)
			}
			st.Balance = st.Balance.Add(amount)
		default:
			bad(l.N, "unknown record kind %q", r.Kind)
		}
	}
	return st
}

func (st *State) start(l Line, bad func(int, string, ...any)) {
	r := l.Record
	if r.Version != Version {
		bad(l.N, "journal format %d, this program writes %d", r.Version, Version)
	}
	seed, err := game.ParseSeed(r.Seed)
	if err != nil {
		bad(l.N, "seed: %v", err)
	}
	b, err := game.ParsePlainAmount(r.Balance)
	if err != nil {
		bad(l.N, "balance: %v", err)
	}
	st.Seed, st.Start, st.Balance = seed, b, b
}

func (st *State) buy(l Line, bad func(int, string, ...any)) {
	r := l.Record
	last := 0
	if n := len(st.Ops); n > 0 {
		last = st.Ops[n-1].Seq
	}
	if r.Seq != last+1 {
		bad(l.N, "purchase %d follows purchase %d: a purchase is missing or doubled", r.Seq, last)
	}
	if st.seen[r.Unit] {
		bad(l.N, "unit %s is bought twice", r.Unit)
	}
	st.seen[r.Unit] = true
	stake, e1 := decimal.NewFromString(r.Stake)
	prize, e2 := decimal.NewFromString(r.Prize)
	before, e3 := decimal.NewFromString(r.Before)
	after, e4 := decimal.NewFromString(r.After)
	if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
		bad(l.N, "unit %s: an amount does not read", r.Unit)
		return
	}
	if !before.Equal(st.Balance) {
		bad(l.N, "unit %s: balance before %s, but the journal's balance is %s", r.Unit, before, st.Balance)
	}
	if !after.Equal(before.Sub(stake).Add(prize)) || after.IsNegative() {
		bad(l.N, "unit %s: balance after %s is not %s − %s + %s", r.Unit, after, before, stake, prize)
	}
	st.Balance = after
	layout, err := lottery.Parse(r.Layout)
	if err != nil {
		bad(l.N, "unit %s: layout: %v", r.Unit, err)
	} else if p := layout.Score().Prize(); !p.Equal(prize) {
		bad(l.N, "unit %s: its layout pays %s, the journal says %s", r.Unit, p, prize)
	}
	op := wallet.Operation{Seq: r.Seq, Time: r.Time, Unit: r.Unit, Forced: r.Forced, Stake: stake, Prize: prize, Before: before, After: after}
	st.Ops = append(st.Ops, op)
	p := Played{Op: op, Layout: layout, Line: l.N}
	st.Pending = &p
	if err == nil {
		st.Recent = append(st.Recent, p)
		if len(st.Recent) >= 2*st.recent+1 { // trimmed in batches, and at the end
			st.Recent = append(st.Recent[:0:0], st.Recent[len(st.Recent)-st.recent:]...)
		}
	}
	if r.Forced {
		st.forced(l, bad)
		return
	}
	st.real(l, prize, bad)
}

// forced checks the name of a forced unit, GAME:STAKE:LABEL:N, N counting
// the forced units of its game and stake.
func (st *State) forced(l Line, bad func(int, string, ...any)) {
	parts := strings.Split(l.Record.Unit, ":")
	n, err := strconv.ParseInt(parts[len(parts)-1], 10, 64)
	if len(parts) != 4 || err != nil {
		bad(l.N, "forced unit %q is not GAME:STAKE:LABEL:N", l.Record.Unit)
		return
	}
	key := parts[0] + ":" + parts[1]
	if n != st.Forced[key]+1 {
		bad(l.N, "forced unit %s follows forced unit %d", l.Record.Unit, st.Forced[key])
	}
	st.Forced[key] = n
}

// real checks a unit sold from a block: its block is committed and it
// follows the last unit of its sequence.
func (st *State) real(l Line, prize decimal.Decimal, bad func(int, string, ...any)) {
	id, err := game.ParseUnitID(l.Record.Unit)
	if err != nil {
		bad(l.N, "%v", err)
		return
	}
	g, err := lottery.Find(id.Game)
	if err != nil {
		bad(l.N, "unit %s: %v", id, err)
		return
	}
	table, err := st.table(g, id)
	if err != nil {
		bad(l.N, "unit %s: %v", id, err)
		return
	}
	seq := id.Game + ":" + id.Stake.String()
	want := game.UnitID{Game: id.Game, Stake: id.Stake, Block: 1, Serial: 1}
	if prev, ok := st.Last[seq]; ok {
		want = prev
		want.Serial++
		if prev.Serial == table.Units {
			want.Block, want.Serial = prev.Block+1, 1
		}
	}
	if id.Block != want.Block || id.Serial != want.Serial {
		bad(l.N, "unit %s, where %s comes next: a purchase is missing or doubled", id, want)
	}
	block := blockName(id)
	if _, ok := st.Commits[block]; !ok {
		bad(l.N, "unit %s: block %s was sold before its commitment", id, block)
	}
	if _, ok := table.Tier(prize); !ok {
		bad(l.N, "unit %s: prize %s is no lot of its table", id, prize)
	}
	st.Last[seq] = id
	if st.units == nil {
		return
	}
	if st.units[block] == nil {
		st.units[block] = map[int64]sold{}
	}
	st.units[block][id.Serial] = sold{line: l.N, prize: prize, layout: l.Record.Layout}
}

// table returns the lot table of a unit's game and stake, built once.
func (st *State) table(g lottery.Game, id game.UnitID) (*game.Table, error) {
	key := id.Game + ":" + id.Stake.String()
	if t, ok := st.cache[key]; ok {
		return t, nil
	}
	t, err := st.tables(g, id.Stake)
	if err == nil {
		st.cache[key] = t
	}
	return t, err
}

func (st *State) reveal(l Line, bad func(int, string, ...any)) {
	r := l.Record
	c, ok := st.Commits[r.Block]
	if !ok {
		bad(l.N, "block %s is revealed but was never committed", r.Block)
		return
	}
	raw, err := hex.DecodeString(r.BlockSeed)
	if err != nil || len(raw) != 32 {
		bad(l.N, "block %s: seed %q is not 32 bytes in hex", r.Block, r.BlockSeed)
		return
	}
	if game.BlockSeed(raw).CommitmentHex() != c {
		bad(l.N, "block %s: its seed does not match its commitment", r.Block)
	}
	st.Reveals[r.Block] = r.BlockSeed
	st.reveals[r.Block] = l.N
}

// blockName names the block of a unit: GAME:STAKE:BLOCK.
func blockName(id game.UnitID) string {
	return fmt.Sprintf("%s:%s:%d", id.Game, id.Stake, id.Block)
}
