package session

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

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

// Played is a unit bought in the session: the purchase as the wallet
// settled it and the unit as the shop sold it, to be listed and shown again.
type Played struct {
	Op   wallet.Operation // number, name, stake, prize, balances
	Sold lottery.Sold     // identity (game, stake; block and serial, or forced label and rank), tier, prize, layout
	Time time.Time        // when it was bought, by the session's clock, as the journal records it
	Line int              // the journal line that records it; 0 without a journal
}

// State is a session as its journal leaves it.
type State struct {
	Seed    game.Seed
	Start   decimal.Decimal // the first session's starting balance
	Balance decimal.Decimal
	Ops     []wallet.Operation
	Pending []Played               // the units bought and never shown, oldest first
	Last    map[string]game.UnitID // the last unit of each sequence, by its key (game.SeqKey)
	Forced  map[string]int64       // forced (QA) units of each sequence, by its key
	Commits map[string]string      // block (game.BlockID) → commitment
	Reveals map[string]string      // block → its seed, once exhausted
	recent  recentUnits            // the last purchases, with their layouts
	Checked int64                  // units dealt again from the seed and found as recorded
	seqs    map[string]*game.Sequence
	broken  map[string]bool        // sequences out of step: their units are not dealt again
	cache   map[string]*game.Table // the tables asked for, by sequence key
	seen    map[string]bool        // unit names
	waiting map[string]int         // unit name → its index in Pending
	seeded  bool                   // the start record's seed read
	refused bool                   // a journal of another format: nothing else read
	wrong   bool                   // a commitment the seed does not give was found
	tables  Tables
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
		tables: tables, cache: map[string]*game.Table{}, recent: recentUnits{limit: recent},
	}
	defer func() {
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
			if !st.start(l, bad) {
				st.refused = true // another format: nothing in it reads as this program deals
				return st
			}
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

func (st *State) start(l Line, bad func(int, string, ...any)) bool {
	r := l.Record
	if r.Version != Version {
		bad(l.N, "journal format %d: this tapis reads format %d only, and the same seed deals other layouts in each; open or verify it with the tapis that wrote it", r.Version, Version)
		return false
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
	return true
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
// of its stakes, written as tapis writes it.
func (st *State) blockOf(name string) (lottery.Game, game.BlockID, error) {
	id, err := game.ParseBlockID(name)
	if err != nil {
		return lottery.Game{}, id, err
	}
	if id.String() != name {
		return lottery.Game{}, id, fmt.Errorf("block %q is not written as %s", name, id)
	}
	g, err := lottery.FindSeq(id.Seq())
	if err != nil {
		return g, id, fmt.Errorf("block %s: %w", name, err)
	}
	return g, id, nil
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
	op := wallet.Operation{Seq: r.Seq, Unit: r.Unit, Forced: r.Forced, Stake: stake, Prize: prize, Before: before, After: after}
	st.Ops = append(st.Ops, op)
	sold := lottery.Sold{Unit: game.Unit{Tier: -1, Prize: prize}, Layout: layout}
	var nerr error
	sold.Unit.ID, sold.Forced, nerr = lottery.ParseName(r.Unit) // the one reading of the unit's name
	if r.Forced {
		st.forced(l, stake, &sold, nerr, bad)
	} else {
		st.real(l, stake, &sold, nerr, err == nil, bad)
	}
	p := Played{Op: op, Sold: sold, Time: r.Time, Line: l.N}
	st.waiting[r.Unit] = len(st.Pending)
	st.Pending = append(st.Pending, p)
	if err == nil {
		st.recent.add(p)
	}
}

// forcedLabel marks the forced units a journal may hold: QA's (ruling
// G6). The kiosk's DEMO units are never journaled.
const forcedLabel = "QA"

// forced checks the name of a forced unit, GAME:STAKE:LABEL:N of a known
// game and stake, N counting the forced units of its game and stake, and
// sets its tier (-1 for a layout that pays no lot).
func (st *State) forced(l Line, stake decimal.Decimal, sold *lottery.Sold, nerr error, bad func(int, string, ...any)) {
	name := l.Record.Unit
	if nerr != nil || sold.Forced == nil || sold.Forced.Label != forcedLabel {
		bad(l.N, "forced unit %q is not GAME:STAKE:%s:N", name, forcedLabel)
		return
	}
	key := sold.Unit.ID.Seq()
	g, err := lottery.FindSeq(key)
	switch {
	case err != nil:
		bad(l.N, "forced unit %q: %v", name, err)
		return
	case sold.Name() != name:
		bad(l.N, "forced unit %q is not written as %s", name, sold.Name())
		return
	case !key.Stake.Equal(stake):
		bad(l.N, "forced unit %s: bought at %s, not at its stake %s", name, stake, key.Stake)
	}
	n := sold.Forced.Serial
	if n != st.Forced[key.String()]+1 {
		bad(l.N, "forced unit %s follows forced unit %d", name, st.Forced[key.String()])
	}
	st.Forced[key.String()] = n
	if table, err := st.table(g, key); err == nil {
		if tier, ok := table.Tier(sold.Unit.Prize); ok {
			sold.Unit.Tier = tier
		}
	}
}

// real checks a unit sold from a block: its name, its stake, its block
// committed, its place after the last unit of its sequence, and its lot and
// layout, dealt again from the journal's seed; it sets the unit's tier, and
// its block's seed once dealt again.
func (st *State) real(l Line, stake decimal.Decimal, sold *lottery.Sold, nerr error, parsed bool, bad func(int, string, ...any)) {
	name, id, prize := l.Record.Unit, sold.Unit.ID, sold.Unit.Prize
	switch {
	case nerr != nil:
		bad(l.N, "%v", nerr)
		return
	case sold.Forced != nil:
		bad(l.N, "unit %q is named as a forced unit, but its purchase is not marked forced", name)
		return
	case id.String() != name:
		bad(l.N, "unit %q is not written as %s", name, id)
		return
	}
	key := id.Seq()
	g, err := lottery.FindSeq(key)
	if err != nil {
		bad(l.N, "unit %s: %v", id, err)
		return
	}
	if !stake.Equal(id.Stake) {
		bad(l.N, "unit %s: bought at %s, not at its stake %s", id, stake, id.Stake)
	}
	table, err := st.table(g, key)
	if err != nil {
		bad(l.N, "unit %s: %v", id, err)
		return
	}
	want := game.UnitID{Game: id.Game, Stake: id.Stake, Block: 1, Serial: 1}
	if prev, ok := st.Last[key.String()]; ok {
		want = prev
		want.Serial++
		if prev.Serial == table.Units {
			want.Block, want.Serial = prev.Block+1, 1
		}
	}
	if id.String() != want.String() {
		bad(l.N, "unit %s, where %s comes next: a purchase is missing or doubled", id, want)
		st.broken[key.String()] = true // its units can no longer be dealt again in step
	}
	block := id.BlockID().String()
	if _, ok := st.Commits[block]; !ok {
		bad(l.N, "unit %s: block %s was sold before its commitment", id, block)
	}
	if tier, ok := table.Tier(prize); ok {
		sold.Unit.Tier = tier
	} else {
		bad(l.N, "unit %s: prize %s is no lot of its table", id, prize)
	}
	st.Last[key.String()] = id
	if st.broken[key.String()] || !st.seeded {
		return
	}
	seq, ok := st.seqs[key.String()]
	if !ok {
		seq = game.NewSequence(id.Game, id.Stake, table, st.Seed)
		st.seqs[key.String()] = seq
	}
	u := seq.Next()
	if want := table.Prize(u.Tier); !prize.Equal(want) {
		bad(l.N, "unit %s: prize %s, but the journal's seed draws %s", id, prize, want)
		return
	}
	sold.Unit.Seed = u.Seed
	if !parsed {
		return
	}
	dealt, err1 := g.DealUnit(u).MarshalJSON()
	recorded, err2 := sold.Layout.MarshalJSON()
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

// table returns the lot table of a game at the stake of one of its
// sequences, built once.
func (st *State) table(g lottery.Game, key game.SeqKey) (*game.Table, error) {
	if t, ok := st.cache[key.String()]; ok {
		return t, nil
	}
	t, err := st.tables(g, key.Stake)
	if err == nil {
		st.cache[key.String()] = t
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
	table, err := st.table(g, id.Seq())
	if last, ok := st.Last[id.Seq().String()]; err == nil && (!ok || last.Block != id.Block || last.Serial != table.Units) {
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
