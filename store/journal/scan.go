package journal

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/internal/ring"
	"tapis/ledger"
	"tapis/store"
	"tapis/text"
)

// check reads a journal line by line, and scans each line as it comes: it
// holds one line at a time, and what the scan keeps. It returns the state
// the journal leaves, the reader (how far it read, the torn last line),
// and the reading's error: a Problem for a line that is not a record (the
// lines before it are scanned), or the reader's failure.
func check(r io.Reader, tables store.Tables, recent int, found *problems) (*state, *journalReader, error) {
	return newState(tables, recent, found).run(r)
}

// run reads a journal line by line and scans it, as check does.
func (st *state) run(r io.Reader) (*state, *journalReader, error) {
	jr := newJournalReader(r, false)
	jr.goOn = st.problems.keep // verify lists every problem: a line it cannot read is one
	for {
		l, ok, err := jr.next()
		var p Problem
		if err != nil && !jr.end && errors.As(err, &p) && p.Line > 1 { // a first line that is no record: no journal

			st.problems.add(p)
			st.unreadable(p.Line)
			continue
		}
		if err != nil || !ok {
			st.finish()
			return st, jr, err
		}
		st.scan(l)
	}
}

// problems gathers what is wrong in a journal: every problem, for verify,
// or only the first by line, to refuse the journal.
type problems struct {
	all   []Problem // in the order found, when kept
	keep  bool
	first Problem // the first by line, and the first found of its line
	n     int
}

func (p *problems) add(pr Problem) {
	if p.keep {
		p.all = append(p.all, pr)
	}
	if p.n == 0 || pr.Line < p.first.Line {
		p.first = pr
	}
	p.n++
}

// newState starts the scan of a journal: recent purchases are kept with
// their layouts.
func newState(tables store.Tables, recent int, problems *problems) *state {
	sealed, err := store.SealedTables(tables)
	return &state{
		sealed: sealed, tablesErr: err,
		Last: map[string]game.UnitID{}, Forced: map[string]int64{}, Commits: map[string]string{},
		Reveals: map[string]string{}, pending: pendingUnits{at: map[string]int{}}, bought: newUnitSet(),
		seqs: map[string]*game.Sequence{}, broken: map[string]bool{},
		tables: tables, cache: map[string]*game.Table{}, recent: ring.Ring[purchase]{Limit: recent}, problems: problems,
		games: map[string]lottery.Game{}, keys: map[string]game.SeqKey{},
	}
}

// bad records a problem at a line.
func (st *state) bad(n int, format string, args ...any) {
	st.problems.add(Problem{n, text.Printable(fmt.Sprintf(format, args...))})
}

// scan applies the journal's next line, checking it against what came
// before and against the journal's seed: the seed gives every block's
// commitment, and every unit sold from a block, open or closed, is dealt
// again and compared, lot and layout, as it comes. The units of a block
// are dealt in the order sold, so none has to be kept to check its block
// once closed. The last recent purchases are kept with their layouts.
func (st *state) scan(l Line) {
	st.lines++
	if st.lines == 1 && l.Record.Kind != KindStart {
		st.refused = true
		st.bad(1, "the journal does not begin with its start record")
	}
	if st.refused {
		return
	}
	r := l.Record
	switch r.Kind {
	case KindStart:
		if st.lines == 1 {
			st.start(l) // it follows the chain itself
			return
		}
		st.bad(l.N, "a second start record")
	case KindCommit:
		st.commit(l)
	case KindBuy:
		st.buy(l) // it follows the chain itself
		return
	case KindShown:
		if !st.bought.has(r.Unit) {
			st.bad(l.N, "unit %s is shown but was never bought", r.Unit)
		}
		st.pending.drop(r.Unit)
	case KindReveal:
		st.reveal(l)
	case KindDeposit:
		st.bad(l.N, "a deposit: a journal holds none (the kiosk's play money is not journaled)")
	default:
		st.bad(l.N, "unknown record kind %q", r.Kind)
	}
	prev, ok, sig, sok := l.links()
	var hash ledger.Hash // none for a record of no kind of the chain's: its signature cannot be the key's
	switch r.Kind {
	case KindShown:
		hash = shownHash(prev, st.account, r.Unit)
	case KindCommit:
		hash = commitHash(prev, r.Block, r.Units, r.Commitment, r.Time)
	case KindReveal:
		hash = revealHash(prev, r.Block, r.BlockSeed, r.Time)
	}
	st.links.follow(st, l.N, prev, ok, hash, sig, sok, st.links.head)
}

// unreadable takes a line that is no record, named already, where verify
// goes on: the chain is taken up again at the next line, which cannot be
// tied to it (a line changed is named once, not again at the line after
// it).
func (st *state) unreadable(n int) {
	st.lines++
	c := &st.links
	if !c.key.Valid() || st.refused {
		return
	}
	c.settle(st)
	if p := c.pending; p != nil {
		c.pending = nil
		st.bad(p.n, "does not follow line %d, though the house signed it: a line between them was deleted, or moved", p.n-1)
	}
	c.bad, c.head = true, ledger.Hash{}
}

// finish ends the scan: a journal without a line does not begin with its
// start record either.
func (st *state) finish() {
	if st.lines == 0 {
		st.bad(1, "the journal does not begin with its start record")
	}
	if !st.refused {
		st.links.finish(st)
	}
	st.pending.compact()
	st.Pending = st.pending.units
}

// parseName reads a unit's name as lottery.ParseName does, and returns the
// key of its sequence as String writes it when it knows it. The name of a
// unit from a block, written as tapis writes it, whose sequence's key was
// read so before is read without reading its stake again.
func (st *state) parseName(name string) (game.UnitID, *lottery.Forced, string, error) {
	rest, serial, ok := split(name)
	prefix, block, ok2 := split(rest)
	if ok && ok2 {
		if key, known := st.keys[prefix]; known {
			return game.UnitID{Game: key.Game, Stake: key.Stake, Block: block, Serial: serial}, nil, prefix, nil
		}
	}
	id, f, err := lottery.ParseName(name)
	if err != nil || f != nil || !ok || !ok2 {
		return id, f, "", err
	}
	ks := id.Seq().String()
	if ks == prefix && len(st.keys) < maxSequences {
		st.keys[ks] = id.Seq() // its stake read from this very text
	}
	return id, f, ks, nil
}

// maxSequences bounds the sequences the scan keeps a key of, to read the
// names of their units faster: an honest journal has four at most.
const maxSequences = 64

// appendUnit appends a name of the sequence whose key is ks, followed by
// numbers: ks:BLOCK is a block's, ks:BLOCK:SERIAL a unit's.
func appendUnit(b []byte, ks string, numbers ...int64) []byte {
	b = append(b, ks...)
	for _, n := range numbers {
		b = strconv.AppendInt(append(b, ':'), n, 10)
	}
	return b
}

// follows reports whether a purchase's balance after is its balance before,
// less its stake, plus its prize. Amounts to the cent, as tapis writes
// them, are added in cents.
func follows(after, before, stake, prize decimal.Decimal) bool {
	a, ok1 := cents(after)
	b, ok2 := cents(before)
	s, ok3 := cents(stake)
	p, ok4 := cents(prize)
	if ok1 && ok2 && ok3 && ok4 {
		return a == b-s+p
	}
	return after.Equal(before.Sub(stake).Add(prize))
}

// cents returns an amount in cents, when it is to the cent and has 15
// digits at most.
func cents(d decimal.Decimal) (int64, bool) {
	exp := d.Exponent()
	if exp < -2 || exp > 0 || d.NumDigits() > 15 {
		return 0, false
	}
	c := d.CoefficientInt64() // d is c × 10^exp euros
	switch exp {
	case -2:
		return c, true
	case -1:
		return c * 10, true
	}
	return c * 100, true
}

// hasKey reports whether m holds k.
func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

// findSeq is lottery.FindSeq, kept for each sequence found.
func (st *state) findSeq(ks string, key game.SeqKey) (lottery.Game, error) {
	if g, ok := st.games[ks]; ok {
		return g, nil
	}
	g, err := lottery.FindSeq(key)
	if err == nil {
		st.games[ks] = g
	}
	return g, err
}

// amountCache reads amounts as readDecimal does, once for each way they
// are written: a journal's stakes and prizes are few, and decimals do not
// change.
type amountCache map[string]decimal.Decimal

// maxAmounts bounds the amounts an amountCache keeps.
const maxAmounts = 256

func (c *amountCache) read(s string) (decimal.Decimal, error) {
	if d, ok := (*c)[s]; ok {
		return d, nil
	}
	d, err := readDecimal(s)
	if err == nil && len(*c) < maxAmounts {
		if *c == nil {
			*c = amountCache{}
		}
		(*c)[s] = d
	}
	return d, err
}

// lastAmount is an amount read by readDecimal and the text it was read
// from: a purchase's balance before is written as the last one's after.
type lastAmount struct {
	text  string
	value decimal.Decimal
	set   bool
}

// read reads s as readDecimal does, without reading it again when it is
// the last amount's text.
func (a lastAmount) read(s string) (decimal.Decimal, error) {
	if a.set && s == a.text {
		return a.value, nil
	}
	return readDecimal(s)
}

// readDecimal is decimal.NewFromString, without its work for the amounts
// tapis writes: digits, maybe a point and digits, 18 digits at most.
func readDecimal(s string) (decimal.Decimal, error) {
	whole, frac, point := strings.Cut(s, ".")
	if whole == "" || point && frac == "" || len(whole)+len(frac) > 18 {
		return decimal.NewFromString(s)
	}
	var v int64
	for _, part := range [2]string{whole, frac} {
		for i := range len(part) {
			c := part[i]
			if c < '0' || c > '9' {
				return decimal.NewFromString(s)
			}
			v = v*10 + int64(c-'0')
		}
	}
	return decimal.New(v, -int32(len(frac))), nil
}
