package journal

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/internal/ring"
	"tapis/ledger"
	"tapis/store"
	"tapis/wallet"
)

// RegulationTables are the lot tables of the regulations: a journal's,
// unless it is given smaller blocks (tests).
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

// purchase is a unit bought, as the store keeps it to answer for it again
// (a retry, Account's recent and pending units): the purchase as the wallet
// settled it, the unit as the shop sold it, and the line that records it.
type purchase struct {
	Op   wallet.Operation // number, name, stake, prize, balances
	Sold lottery.Sold     // identity (game, stake; block and serial, or forced label and rank), tier, prize, layout
	Time time.Time        // when it was bought, by the store's clock, as the journal records it
	Line int              // the journal line that records it; 0 without a journal
	Link chainLink        // its line's place in the journal's chain: what its receipt needs
}

// chainLink is a line's place in the journal's chain: its Prev (the link
// of the line before it), its own hash and the house's signature of it,
// and for a purchase the tier its line records. Unset without a journal.
type chainLink struct {
	set  bool
	tier int
	prev ledger.Hash
	hash ledger.Hash
	sig  ledger.Sig
}

// state is a journal as its scan leaves it: what taking the store up
// needs, and what Verify reports, and no more: its size does not grow with
// the number of purchases, only with the blocks committed and the units
// never shown.
type state struct {
	Seed      game.Seed
	Start     decimal.Decimal // the journal's starting balance
	Balance   decimal.Decimal
	Purchases int                    // the purchases read
	Seq       int                    // the last purchase's number, 0 before the first
	Pending   []purchase             // the units bought and never shown, oldest first
	Last      map[string]game.UnitID // the last unit of each sequence, by its key (game.SeqKey)
	Forced    map[string]int64       // forced (QA) units of each sequence, by its key
	Commits   map[string]string      // block (game.BlockID) → commitment
	Reveals   map[string]string      // block → its seed, once exhausted
	recent    ring.Ring[purchase]    // the last purchases, with their layouts
	Checked   int64                  // units dealt again from the seed and found as recorded
	seqs      map[string]*game.Sequence
	broken    map[string]bool         // sequences out of step: their units are not dealt again
	cache     map[string]*game.Table  // the tables asked for, by sequence key
	games     map[string]lottery.Game // the games of the sequences found, by key
	keys      map[string]game.SeqKey  // the sequences found, by key as the units' names write it
	bought    unitSet                 // the names of the units bought
	pending   pendingUnits            // the units bought and never shown, as the scan goes: Pending once it ends
	seeded    bool                    // the start record's seed read
	wrong     bool                    // a commitment the seed does not give was found
	amounts   amountCache             // the stakes and prizes read, as written
	balance   lastAmount              // the balance after the last purchase, as written
	lines     int                     // the lines scanned
	refused   bool                    // the first line is no start record, or one of another format: nothing after it is scanned
	other     bool                    // a journal of another format, refused unread
	version   int                     // the format its start record names
	tables    store.Tables
	problems  *problems
	account   string         // the journal's one account, as its start record names it
	seal      ledger.Seal    // as the start record holds it
	sealHash  ledger.Hash    // its hash
	genesis   ledger.Hash    // the account's genesis: what the start record follows
	qa        bool           // sealed as a QA journal
	sealed    string         // the lot tables checked against, as a seal records them
	tablesErr error          // why they cannot be
	links     links          // the chain, as the scan follows it
	receipts  *[]lineReceipt // every purchase's receipt, oldest first, when asked for (Receipts)
}

func (st *state) start(l Line) {
	r := l.Record
	if r.Version != Version {
		st.bad(l.N, "%s", oldFormat(r.Version))
		st.refused, st.other, st.version = true, true, r.Version // nothing in it reads as this program deals
		return
	}
	seed, err := game.ParseSeed(r.Seed)
	if err != nil {
		st.bad(l.N, "seed: %v", err)
	}
	st.seeded = err == nil // the units are dealt again from a seed that reads
	b, err := game.ParsePlainAmount(r.Balance)
	if err != nil {
		st.bad(l.N, "balance: %v", err)
	}
	st.Seed, st.Start, st.Balance = seed, b, b
	st.account = r.Account
	if r.Account == "" {
		st.bad(l.N, "the start record names no account")
	}
	want := st.checkSeal(l, seed)
	balance, ok := cents(b)
	if err == nil && !ok {
		st.bad(l.N, "balance %s is not a whole number of cents", b)
	}
	prev, ok, sig, sok := l.links()
	st.links.follow(st, l.N, prev, ok, depositHash(st.sealHash, prev, r.Account, game.Cents(balance), r.Time), sig, sok, want)
}

// commit checks a block's commitment: 64 lowercase hexadecimal digits, the
// SHA-256 of the seed that the journal's seed gives the block.
func (st *state) commit(l Line) {
	r := l.Record
	if _, ok := st.Commits[r.Block]; ok {
		st.bad(l.N, "block %s is committed twice", r.Block)
	}
	if !isHex(r.Commitment, 64) {
		st.bad(l.N, "block %s: commitment %q is not a SHA-256 in lowercase hex", r.Block, r.Commitment)
	}
	st.Commits[r.Block] = r.Commitment
	g, id, err := st.blockOf(r.Block)
	if err != nil {
		st.bad(l.N, "%v", err)
		return
	}
	if t, err := st.table(g, id.Seq()); err == nil && t.Units != r.Units {
		st.bad(l.N, "block %s: %d units, its lot table has %d", r.Block, r.Units, t.Units)
	}
	if want := st.Seed.Block(g.Name, id.Stake, id.Block).CommitmentHex(id); st.seeded && r.Commitment != want && isHex(r.Commitment, 64) {
		st.bad(l.N, "block %s: its commitment is not the one the journal's seed gives", r.Block)
		if !st.wrong {
			st.wrong = true
			st.bad(1, "seed %s does not give this journal's commitments (the first at line %d): another seed?", st.Seed, l.N)
		}
	}
}

// blockOf reads a block's name, GAME:STAKE:BLOCK, of a known game and one
// of its stakes, written as tapis writes it.
func (st *state) blockOf(name string) (lottery.Game, game.BlockID, error) {
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

// buy checks a purchase's line, follows the chain through it, and keeps
// the purchase: among the ones not shown yet, and the recent ones.
func (st *state) buy(l Line) {
	r := l.Record
	rec := ledger.Purchase{Account: st.account, Number: r.Seq, Unit: r.Unit, Tier: r.Tier, Layout: string(l.layoutJSON()), At: r.Time.UnixNano()}
	p, ok, parsed := st.purchase(l, &rec)
	want := st.links.head
	prev, pok, sig, sok := l.links()
	hash := purchaseHash(st.sealHash, prev, rec)
	st.links.follow(st, l.N, prev, pok, hash, sig, sok, want)
	if !ok {
		return
	}
	p.Link = chainLink{set: true, tier: rec.Tier, prev: prev, hash: hash, sig: sig}
	st.pending.add(p)
	if parsed {
		st.recent.Add(p)
	}
	if st.receipts != nil {
		*st.receipts = append(*st.receipts, lineReceipt{l.N, ledger.NewReceipt(rec, int64(rec.Number)+1, st.sealHash, prev, hash, sig, st.links.key)})
	}
}

// purchase checks a purchase's line, and fills rec with what it reads:
// what the line's hash covers. It returns the purchase, whether its
// amounts read (else it is not kept), and whether its layout does.
func (st *state) purchase(l Line, rec *ledger.Purchase) (purchase, bool, bool) {
	r := l.Record
	if r.Seq != st.Seq+1 {
		st.bad(l.N, "purchase %d follows purchase %d: a purchase is missing or doubled", r.Seq, st.Seq)
	}
	if st.bought.has(r.Unit) {
		st.bad(l.N, "unit %s is bought twice", r.Unit)
	}
	st.bought.add(r.Unit)
	stake, e1 := st.amounts.read(r.Stake)
	prize, e2 := st.amounts.read(r.Prize)
	before, e3 := st.balance.read(r.Before)
	after, e4 := readDecimal(r.After)
	if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
		st.bad(l.N, "unit %s: an amount does not read", r.Unit)
		return purchase{}, false, false
	}
	var c [4]int64
	for i, d := range [4]decimal.Decimal{stake, prize, before, after} {
		var ok bool
		if c[i], ok = cents(d); !ok {
			st.bad(l.N, "unit %s: amount %s is not a whole number of cents", r.Unit, d)
		}
	}
	rec.Stake, rec.Prize, rec.Before, rec.After = game.Cents(c[0]), game.Cents(c[1]), game.Cents(c[2]), game.Cents(c[3])
	if !stake.IsPositive() {
		st.bad(l.N, "unit %s: stake %s is not positive", r.Unit, stake)
	}
	if prize.IsNegative() {
		st.bad(l.N, "unit %s: prize %s is negative", r.Unit, prize)
	}
	if !before.Equal(st.Balance) {
		st.bad(l.N, "unit %s: balance before %s, but the journal's balance is %s", r.Unit, before, st.Balance)
	}
	if !follows(after, before, stake, prize) || after.IsNegative() {
		st.bad(l.N, "unit %s: balance after %s is not %s − %s + %s", r.Unit, after, before, stake, prize)
	}
	st.Balance, st.balance = after, lastAmount{text: r.After, value: after, set: true}
	layout, err := l.readLayout()
	if err != nil {
		st.bad(l.N, "unit %s: layout: %v", r.Unit, err)
	} else {
		if p := layout.Prize(); !p.Equal(prize) {
			st.bad(l.N, "unit %s: its layout pays %s, the journal says %s", r.Unit, p, prize)
		}
		if !layout.Stake().Equal(stake) {
			st.bad(l.N, "unit %s: stake %s, but its layout is played at %s", r.Unit, stake, layout.Stake())
		}
	}
	op := wallet.Operation{Seq: r.Seq, Unit: r.Unit, Forced: r.Forced, Stake: stake, Prize: prize, Before: before, After: after}
	st.Purchases, st.Seq = st.Purchases+1, r.Seq
	sold := lottery.Sold{Unit: game.Unit{Tier: -1, Prize: prize}, Layout: layout}
	var (
		nerr error
		ks   string
	)
	sold.Unit.ID, sold.Forced, ks, nerr = st.parseName(r.Unit) // the one reading of the unit's name
	if r.Forced {
		st.forced(l, stake, &sold, nerr)
	} else {
		st.real(l, stake, &sold, ks, nerr, err == nil)
	}
	if sold.Forced != nil {
		rec.Label, rec.Serial = sold.Forced.Label, sold.Forced.Serial
	} else {
		rec.Block, rec.Serial = sold.Unit.ID.Block, sold.Unit.ID.Serial
	}
	if r.Tier != sold.Unit.Tier && (sold.Unit.Tier >= 0 || r.Forced) { // a prize of no lot is said already
		st.bad(l.N, "unit %s: tier %d, but its prize %s is tier %d of its lot table", r.Unit, r.Tier, prize, sold.Unit.Tier)
	}
	return purchase{Op: op, Sold: sold, Time: r.Time, Line: l.N}, true, err == nil
}

// forcedLabel marks the forced units a journal may hold: QA's (ruling
// G6). The kiosk's DEMO units are never journaled.
const forcedLabel = "QA"

// forced checks the name of a forced unit, GAME:STAKE:LABEL:N of a known
// game and stake, N counting the forced units of its game and stake, and
// sets its tier (-1 for a layout that pays no lot).
func (st *state) forced(l Line, stake decimal.Decimal, sold *lottery.Sold, nerr error) {
	name := l.Record.Unit
	if nerr != nil || sold.Forced == nil || sold.Forced.Label != forcedLabel {
		st.bad(l.N, "forced unit %q is not GAME:STAKE:%s:N", name, forcedLabel)
		return
	}
	key := sold.Unit.ID.Seq()
	g, err := lottery.FindSeq(key)
	switch {
	case err != nil:
		st.bad(l.N, "forced unit %q: %v", name, err)
		return
	case sold.Name() != name:
		st.bad(l.N, "forced unit %q is not written as %s", name, sold.Name())
		return
	case !key.Stake.Equal(stake):
		st.bad(l.N, "forced unit %s: bought at %s, not at its stake %s", name, stake, key.Stake)
	}
	if !st.qa {
		st.bad(l.N, "forced unit %s in a journal sealed as the house's (created without --qa), which sells none", name)
	}
	n := sold.Forced.Serial
	if n != st.Forced[key.String()]+1 {
		st.bad(l.N, "forced unit %s follows forced unit %d", name, st.Forced[key.String()])
	}
	st.Forced[key.String()] = n
	if table, err := st.table(g, key); err == nil {
		sold.Unit.Tier = hashTier(table, sold.Unit.Prize)
	}
}

// real checks a unit sold from a block: its name, its stake, its block
// committed, its place after the last unit of its sequence, and its lot and
// layout, dealt again from the journal's seed; it sets the unit's tier, and
// its block's seed once dealt again.
func (st *state) real(l Line, stake decimal.Decimal, sold *lottery.Sold, ks string, nerr error, parsed bool) {
	name, id, prize := l.Record.Unit, sold.Unit.ID, sold.Unit.Prize
	if nerr != nil {
		st.bad(l.N, "%v", nerr)
		return
	}
	key := id.Seq()
	if ks == "" {
		ks = key.String()
	}
	var buf [64]byte // names written to compare, on the stack
	switch {
	case sold.Forced != nil:
		st.bad(l.N, "unit %q is named as a forced unit, but its purchase is not marked forced", name)
		return
	case string(appendUnit(buf[:0], ks, id.Block, id.Serial)) != name: // id.String()
		st.bad(l.N, "unit %q is not written as %s", name, id)
		return
	}
	g, err := st.findSeq(ks, key)
	if err != nil {
		st.bad(l.N, "unit %s: %v", id, err)
		return
	}
	if !stake.Equal(id.Stake) {
		st.bad(l.N, "unit %s: bought at %s, not at its stake %s", id, stake, id.Stake)
	}
	table, err := st.tableOf(g, key, ks)
	if err != nil {
		st.bad(l.N, "unit %s: %v", id, err)
		return
	}
	want := game.UnitID{Game: id.Game, Stake: id.Stake, Block: 1, Serial: 1}
	if prev, ok := st.Last[ks]; ok {
		want = prev
		want.Serial++
		if prev.Serial == table.Units {
			want.Block, want.Serial = prev.Block+1, 1
		}
	}
	// The units of the sequence missing before this one, dealt again to
	// stay in step.
	var skip int64
	if id.Block != want.Block || id.Serial != want.Serial { // of one sequence: id.String() != want.String()
		st.bad(l.N, "unit %s, where %s comes next: a purchase is missing or doubled", id, want)
		if skip = unitsBetween(want, id, table.Units); skip <= 0 || skip > table.Units {
			st.broken[ks] = true // doubled, or too far: its units can no longer be dealt again in step
		}
	}
	if block := appendUnit(buf[:0], ks, id.Block); !hasKey(st.Commits, string(block)) { // id.BlockID().String()
		st.bad(l.N, "unit %s: block %s was sold before its commitment", id, block)
	}
	if sold.Unit.Tier = hashTier(table, prize); sold.Unit.Tier < 0 {
		st.bad(l.N, "unit %s: prize %s is no lot of its table", id, prize)
	}
	st.Last[ks] = id
	if st.broken[ks] || !st.seeded {
		return
	}
	seq, ok := st.seqs[ks]
	if !ok {
		seq = game.NewSequence(id.Game, id.Stake, table, st.Seed)
		st.seqs[ks] = seq
	}
	for range skip { // the units missing (a line that does not read, one deleted), to deal this one in step
		seq.Next()
	}
	u := seq.Next()
	if want := table.Prize(u.Tier); !prize.Equal(want) {
		st.bad(l.N, "unit %s: prize %s, but the journal's seed draws %s", id, prize, want)
		return
	}
	sold.Unit.Seed = u.Seed
	if !parsed {
		return
	}
	if !g.DealUnit(u).Equal(sold.Layout) { // what MarshalJSON writes of each
		st.bad(l.N, "unit %s: its layout is not the one its block's seed deals", id)
		return
	}
	st.Checked++
}

// unitsBetween counts the units of a sequence sold from want, the unit
// due next, up to id, not included: 0 or less when id is not after want.
// It counts past the blocks of units each between them, and gives up past
// a block and a half (what the caller deals again is bounded by one block).
func unitsBetween(want, id game.UnitID, units int64) int64 {
	switch {
	case id.Block < want.Block:
		return 0
	case id.Block == want.Block:
		return id.Serial - want.Serial
	case id.Block-want.Block > 1:
		return units + 1 // too far
	}
	return units - want.Serial + 1 + id.Serial - 1
}

// forcedUnits counts the forced (QA) units of the journal.
func (st *state) forcedUnits() int64 {
	var n int64
	for _, c := range st.Forced {
		n += c
	}
	return n
}

// table returns the lot table of a game at the stake of one of its
// sequences, built once.
func (st *state) table(g lottery.Game, key game.SeqKey) (*game.Table, error) {
	return st.tableOf(g, key, key.String())
}

// tableOf is table, with the key as its String writes it.
func (st *state) tableOf(g lottery.Game, key game.SeqKey, ks string) (*game.Table, error) {
	if t, ok := st.cache[ks]; ok {
		return t, nil
	}
	t, err := st.tables(g, key.Stake)
	if err == nil {
		st.cache[ks] = t
	}
	return t, err
}

// reveal checks an exhausted block's seed: committed before, matching its
// commitment, the seed the journal's seed gives, and published only once
// the block's last unit is sold.
func (st *state) reveal(l Line) {
	r := l.Record
	c, ok := st.Commits[r.Block]
	if !ok {
		st.bad(l.N, "block %s is revealed but was never committed", r.Block)
		return
	}
	raw, err := hex.DecodeString(r.BlockSeed)
	if err != nil || len(raw) != 32 || !isHex(r.BlockSeed, 64) {
		st.bad(l.N, "block %s: seed %q is not 32 bytes in lowercase hex", r.Block, r.BlockSeed)
		return
	}
	if _, dup := st.Reveals[r.Block]; dup {
		st.bad(l.N, "block %s is revealed twice", r.Block)
	}
	st.Reveals[r.Block] = r.BlockSeed
	g, id, err := st.blockOf(r.Block)
	if err != nil {
		return // said at its commitment
	}
	if game.BlockSeed(raw).CommitmentHex(id) != c {
		st.bad(l.N, "block %s: its seed does not match its commitment", r.Block)
	}
	if st.seeded && game.BlockSeed(raw) != st.Seed.Block(g.Name, id.Stake, id.Block) {
		st.bad(l.N, "block %s: its seed is not the one the journal's seed gives", r.Block)
	}
	table, err := st.table(g, id.Seq())
	if last, ok := st.Last[id.Seq().String()]; err == nil && (!ok || last.Block != id.Block || last.Serial != table.Units) {
		st.bad(l.N, "block %s is revealed before its last unit is sold", r.Block)
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
