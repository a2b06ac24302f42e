package session

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
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

// State is a session as its journal leaves it.
type State struct {
	Seed    game.Seed
	Start   decimal.Decimal // the first session's starting balance
	Balance decimal.Decimal
	Ops     []wallet.Operation
	Recent  []Played               // the last purchases, with their layouts
	Pending []Played               // the units bought and never shown, oldest first
	Last    map[string]game.UnitID // the last unit of each sequence (GAME:STAKE)
	Forced  map[string]int64       // forced (QA) units of each game and stake
	Commits map[string]string      // block (GAME:STAKE:N) → commitment
	Reveals map[string]string      // block → its seed, once exhausted
	Checked int64                  // units dealt again from the seed and found as recorded
	seqs    map[string]*game.Sequence
	broken  map[string]bool        // sequences out of step: their units are not dealt again
	cache   map[string]*game.Table // the tables asked for, by GAME:STAKE
	seen    map[string]bool        // unit names
	waiting map[string]int         // unit name → its index in Pending
	seeded  bool                   // the start record's seed read
	wrong   bool                   // a commitment the seed does not give was found
	tables  Tables
	recent  int
}

// scan applies the journal's lines in order, checking each against what
// came before and against the journal's seed: the seed gives every block's
// commitment, and every unit sold from a block, open or closed, is dealt
// again and compared, lot and layout. problems gathers what is wrong. It
// keeps the last recent purchases with their layouts.
func scan(lines []Line, tables Tables, recent int, problems *[]Problem) *State {
	st := &State{
		Last: map[string]game.UnitID{}, Forced: map[string]int64{}, Commits: map[string]string{},
		Reveals: map[string]string{}, seen: map[string]bool{}, waiting: map[string]int{},
		seqs: map[string]*game.Sequence{}, broken: map[string]bool{},
		tables: tables, cache: map[string]*game.Table{}, recent: recent,
	}
	defer func() {
		if len(st.Recent) > recent {
			st.Recent = st.Recent[len(st.Recent)-recent:]
		}
		st.Pending = slices.DeleteFunc(st.Pending, func(p Played) bool { return p.Op.Unit == "" })
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
			st.commit(l, bad)
		case KindBuy:
			st.buy(l, bad)
		case KindShown:
			if !st.seen[r.Unit] {
				bad(l.N, "unit %s is shown but was never bought", r.Unit)
			}
			if i, ok := st.waiting[r.Unit]; ok {
				st.Pending[i] = Played{} // dropped at the end: each shown record costs O(1)
				delete(st.waiting, r.Unit)
			}
		case KindReveal:
			st.reveal(l, bad)
		case KindDeposit:
			bad(l.N, "a deposit: a journal holds none (the kiosk's play money is not journaled)")
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
	st.seeded = err == nil // the units are dealt again from a seed that reads
	b, err := game.ParsePlainAmount(r.Balance)
	if err != nil {
		bad(l.N, "balance: %v", err)
	}
	st.Seed, st.Start, st.Balance = seed, b, b
}

// commit checks a block's commitment: 64 lowercase hexadecimal digits, the
// SHA-256 of the seed that the journal's seed gives the block.
func (st *State) commit(l Line, bad func(int, string, ...any)) {
	r := l.Record
	if _, ok := st.Commits[r.Block]; ok {
		bad(l.N, "block %s is committed twice", r.Block)
	}
	if !isHex(r.Commitment, 64) {
		bad(l.N, "block %s: commitment %q is not a SHA-256 in lowercase hex", r.Block, r.Commitment)
	}
	st.Commits[r.Block] = r.Commitment
	g, id, err := st.blockOf(r.Block)
	if err != nil {
		bad(l.N, "%v", err)
		return
	}
	if want := st.Seed.Block(g.Name, id.Stake, id.Block).CommitmentHex(); st.seeded && r.Commitment != want && isHex(r.Commitment, 64) {
		bad(l.N, "block %s: its commitment is not the one the journal's seed gives", r.Block)
		if !st.wrong {
			st.wrong = true
			bad(1, "seed %d does not give this journal's commitments (the first at line %d): another seed?", uint64(st.Seed), l.N)
		}
	}
}

// blockOf reads a block's name, GAME:STAKE:BLOCK, of a known game and one
// of its stakes, written as tapis writes it; the identity returned is the
// block's first unit.
func (st *State) blockOf(name string) (lottery.Game, game.UnitID, error) {
	parts := strings.Split(name, ":")
	if len(parts) != 3 {
		return lottery.Game{}, game.UnitID{}, fmt.Errorf("block %q is not GAME:STAKE:BLOCK", name)
	}
	g, stake, err := gameStake(parts[0], parts[1])
	if err != nil {
		return g, game.UnitID{}, fmt.Errorf("block %s: %w", name, err)
	}
	n, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || n < 1 || strconv.FormatInt(n, 10) != parts[2] {
		return g, game.UnitID{}, fmt.Errorf("block %s: %q is not a block number", name, parts[2])
	}
	return g, game.UnitID{Game: g.Name, Stake: stake, Block: n, Serial: 1}, nil
}

// gameStake reads a game's name and one of its stakes, written as tapis
// writes them ("yams", "0.5").
func gameStake(name, stake string) (lottery.Game, decimal.Decimal, error) {
	g, err := lottery.Find(name)
	if err != nil || g.Name != name {
		return g, decimal.Decimal{}, fmt.Errorf("game %q is not yams or vegas", name)
	}
	d, err := decimal.NewFromString(stake)
	if err != nil || g.StakeIndex(d) < 0 || d.String() != stake {
		return g, decimal.Decimal{}, fmt.Errorf("%s is no stake of %s", stake, g.Name)
	}
	return g, d, nil
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
	if !stake.IsPositive() {
		bad(l.N, "unit %s: stake %s is not positive", r.Unit, stake)
	}
	if prize.IsNegative() {
		bad(l.N, "unit %s: prize %s is negative", r.Unit, prize)
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
	} else {
		if p := layout.Score().Prize(); !p.Equal(prize) {
			bad(l.N, "unit %s: its layout pays %s, the journal says %s", r.Unit, p, prize)
		}
		if !layout.Stake().Equal(stake) {
			bad(l.N, "unit %s: stake %s, but its layout is played at %s", r.Unit, stake, layout.Stake())
		}
	}
	op := wallet.Operation{Seq: r.Seq, Time: r.Time, Unit: r.Unit, Forced: r.Forced, Stake: stake, Prize: prize, Before: before, After: after}
	st.Ops = append(st.Ops, op)
	p := Played{Op: op, Layout: layout, Line: l.N}
	st.waiting[r.Unit] = len(st.Pending)
	st.Pending = append(st.Pending, p)
	if err == nil {
		st.Recent = append(st.Recent, p)
		if len(st.Recent) >= 2*st.recent+1 { // trimmed in batches, and at the end
			st.Recent = append(st.Recent[:0:0], st.Recent[len(st.Recent)-st.recent:]...)
		}
	}
	if r.Forced {
		st.forced(l, stake, bad)
		return
	}
	st.real(l, stake, prize, layout, err == nil, bad)
}

// forcedLabel marks the forced units a journal may hold: QA's (ruling
// G6). The kiosk's DEMO units are never journaled.
const forcedLabel = "QA"

// forced checks the name of a forced unit, GAME:STAKE:LABEL:N of a known
// game and stake, N counting the forced units of its game and stake.
func (st *State) forced(l Line, stake decimal.Decimal, bad func(int, string, ...any)) {
	name := l.Record.Unit
	parts := strings.Split(name, ":")
	if len(parts) != 4 || parts[2] != forcedLabel {
		bad(l.N, "forced unit %q is not GAME:STAKE:%s:N", name, forcedLabel)
		return
	}
	g, unitStake, err := gameStake(parts[0], parts[1])
	n, nerr := strconv.ParseInt(parts[3], 10, 64)
	switch {
	case err != nil:
		bad(l.N, "forced unit %q: %v", name, err)
		return
	case nerr != nil || n < 1 || strconv.FormatInt(n, 10) != parts[3]:
		bad(l.N, "forced unit %q: %q is not a number from 1", name, parts[3])
		return
	case !unitStake.Equal(stake):
		bad(l.N, "forced unit %s: bought at %s, not at its stake %s", name, stake, unitStake)
	}
	key := g.Name + ":" + unitStake.String()
	if n != st.Forced[key]+1 {
		bad(l.N, "forced unit %s follows forced unit %d", name, st.Forced[key])
	}
	st.Forced[key] = n
}

// real checks a unit sold from a block: its name, its stake, its block
// committed, its place after the last unit of its sequence, and its lot and
// layout, dealt again from the journal's seed.
func (st *State) real(l Line, stake, prize decimal.Decimal, layout lottery.Layout, parsed bool, bad func(int, string, ...any)) {
	id, err := game.ParseUnitID(l.Record.Unit)
	if err != nil {
		bad(l.N, "%v", err)
		return
	}
	if id.String() != l.Record.Unit {
		bad(l.N, "unit %q is not written as %s", l.Record.Unit, id)
		return
	}
	g, _, err := gameStake(id.Game, id.Stake.String())
	if err != nil {
		bad(l.N, "unit %s: %v", id, err)
		return
	}
	if !stake.Equal(id.Stake) {
		bad(l.N, "unit %s: bought at %s, not at its stake %s", id, stake, id.Stake)
	}
	table, err := st.table(g, id)
	if err != nil {
		bad(l.N, "unit %s: %v", id, err)
		return
	}
	key := id.Game + ":" + id.Stake.String()
	want := game.UnitID{Game: id.Game, Stake: id.Stake, Block: 1, Serial: 1}
	if prev, ok := st.Last[key]; ok {
		want = prev
		want.Serial++
		if prev.Serial == table.Units {
			want.Block, want.Serial = prev.Block+1, 1
		}
	}
	if id.String() != want.String() {
		bad(l.N, "unit %s, where %s comes next: a purchase is missing or doubled", id, want)
		st.broken[key] = true // its units can no longer be dealt again in step
	}
	block := blockName(id)
	if _, ok := st.Commits[block]; !ok {
		bad(l.N, "unit %s: block %s was sold before its commitment", id, block)
	}
	if _, ok := table.Tier(prize); !ok {
		bad(l.N, "unit %s: prize %s is no lot of its table", id, prize)
	}
	st.Last[key] = id
	if st.broken[key] || !st.seeded {
		return
	}
	seq, ok := st.seqs[key]
	if !ok {
		seq = game.NewSequence(id.Game, id.Stake, table, st.Seed)
		st.seqs[key] = seq
	}
	u := seq.Next()
	if want := table.Prize(u.Tier); !prize.Equal(want) {
		bad(l.N, "unit %s: prize %s, but the journal's seed draws %s", id, prize, want)
		return
	}
	if !parsed {
		return
	}
	dealt, err1 := g.DealUnit(u).MarshalJSON()
	recorded, err2 := layout.MarshalJSON()
	if err1 != nil || err2 != nil || !bytes.Equal(dealt, recorded) {
		bad(l.N, "unit %s: its layout is not the one its block's seed deals", id)
		return
	}
	st.Checked++
}

// forcedUnits counts the forced (QA) units of the journal.
func (st *State) forcedUnits() int64 {
	var n int64
	for _, c := range st.Forced {
		n += c
	}
	return n
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

// reveal checks an exhausted block's seed: committed before, matching its
// commitment, the seed the journal's seed gives, and published only once
// the block's last unit is sold.
func (st *State) reveal(l Line, bad func(int, string, ...any)) {
	r := l.Record
	c, ok := st.Commits[r.Block]
	if !ok {
		bad(l.N, "block %s is revealed but was never committed", r.Block)
		return
	}
	raw, err := hex.DecodeString(r.BlockSeed)
	if err != nil || len(raw) != 32 || !isHex(r.BlockSeed, 64) {
		bad(l.N, "block %s: seed %q is not 32 bytes in lowercase hex", r.Block, r.BlockSeed)
		return
	}
	if game.BlockSeed(raw).CommitmentHex() != c {
		bad(l.N, "block %s: its seed does not match its commitment", r.Block)
	}
	if _, dup := st.Reveals[r.Block]; dup {
		bad(l.N, "block %s is revealed twice", r.Block)
	}
	st.Reveals[r.Block] = r.BlockSeed
	g, id, err := st.blockOf(r.Block)
	if err != nil {
		return // said at its commitment
	}
	if st.seeded && game.BlockSeed(raw) != st.Seed.Block(g.Name, id.Stake, id.Block) {
		bad(l.N, "block %s: its seed is not the one the journal's seed gives", r.Block)
	}
	key := g.Name + ":" + id.Stake.String()
	table, err := st.table(g, id)
	if last, ok := st.Last[key]; err == nil && (!ok || last.Block != id.Block || last.Serial != table.Units) {
		bad(l.N, "block %s is revealed before its last unit is sold", r.Block)
	}
}

// isHex reports whether s is n lowercase hexadecimal digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// blockName names the block of a unit: GAME:STAKE:BLOCK.
func blockName(id game.UnitID) string {
	return fmt.Sprintf("%s:%s:%d", id.Game, id.Stake, id.Block)
}
