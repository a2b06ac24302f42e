package store

import (
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"

	"tapis/ledger"
)

// ledgerCheck is what Verify knows of the store's signed history before it
// reads the accounts' chains: the key its signatures are checked against,
// the seal its chains start from, and what the heads and the tokens given
// name.
//
// Its memory is bounded by what they name: one place for each account
// entry of a head (a head names an account's last record once, so at most
// one a record) and each receipt given (at most ledger.MaxTokens), and one
// mark of each unit marked in a head (a unit is marked twice at most: left,
// then shown), about 20 bytes each; and by what they do not cover: about
// 100 bytes for each record and mark after the last head.
type ledgerCheck struct {
	key  ledger.PublicKey
	seal ledger.Hash
	// places are the places of accounts' chains that heads cover and
	// receipts show, by account: each is checked against the store's record
	// there as its account's chain is read (then removed).
	places map[string][]place
	// covered is, by account, the last place a signed head covers: the
	// records up to it are authenticated by that head's signature.
	covered map[string]int64
	marks   markSet
	// later are the signatures to check once the purchases are read: one
	// for each purchase no signed head covers and each mark no signed head
	// gave (after the last head, a few seconds of sales on a live store).
	later []sigCheck
}

// place is a record of an account's chain as a head or a receipt has it.
type place struct {
	seq    int64
	hash   ledger.Hash
	head   int64 // the head that covers it, 0 for a receipt
	number int   // the receipt's purchase number
}

// newLedgerCheck starts the check of the store's signed history, against
// the house's key as given, else the one the emission was sealed with.
func (s *SQL) newLedgerCheck(r *Report) *ledgerCheck {
	c := &ledgerCheck{key: s.houseKey, seal: s.emission.SealHash, places: map[string][]place{},
		covered: map[string]int64{}, marks: newMarkSet()}
	r.KeyGiven = c.key.Valid()
	if !r.KeyGiven {
		c.key = s.emission.Key()
	}
	r.Key = c.key
	if sealed := s.emission.Key(); r.KeyGiven && sealed.Valid() && !sealed.Equal(c.key) {
		// The seal names the other key once (sealProblems): the history is
		// checked against the key it was sealed with, for what it says of
		// itself, rather than every signature named again.
		c.key = sealed
	}
	if !c.key.Valid() {
		r.bad("no key to check the house's signatures against: the emission names none, give the house's (--key)")
	}
	return c
}

// signedSeal finds, when the emission's sealed copy was changed, the seal
// the house signed from its first head, which starts from it: the store's
// history is then checked against it, and only the seal is named.
func (s *SQL) signedSeal(ctx context.Context, q querier, r *Report, c *ledgerCheck) error {
	var row emissionRow
	if err := row.scan(q.QueryRowContext(ctx, selectEmission)); err != nil {
		return fmt.Errorf("store %s: reading its emission: %w", s.where, err)
	}
	if _, intact := row.sealedCopy(); intact {
		return nil
	}
	var prev, sig []byte
	var body string
	h := ledger.Head{N: 1}
	err := q.QueryRowContext(ctx, `SELECT prev, sig, seller, at, body FROM heads WHERE n = 1`).Scan(&prev, &sig, &h.Seller, &h.At, &body)
	if isNoRows(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: reading its heads: %w", err)
	}
	var s64 ledger.Sig
	if h.Body, err = ledger.DecodeBody(body); err != nil || len(prev) != len(h.Prev) || len(sig) != len(s64) {
		return nil
	}
	copy(h.Prev[:], prev)
	copy(s64[:], sig)
	h.Seal = h.Prev
	if c.key.Verify(h.Statement(), s64) && h.Prev != c.seal {
		r.bad("the store's heads start from the seal %s, which the house signed, not from the one the emission holds now (%s): its history is checked against the first", h.Prev, c.seal)
		c.seal = h.Prev
	}
	return nil
}

// signed checks a signature of the house's, of what is named what.
func (c *ledgerCheck) signed(r *Report, what string, h ledger.Hash, sig []byte) bool {
	var s ledger.Sig
	if len(sig) != len(s) {
		r.bad("%s carries no signature: the house never signed it", what)
		return false
	}
	copy(s[:], sig)
	if !c.key.Verify(h, s) {
		r.bad("%s: its signature is not the house key's: changed since it was signed", what)
		return false
	}
	return true
}

// receipts checks the receipts given, each offline, and keeps the place
// each shows, to be found in the store.
func (c *ledgerCheck) receipts(r *Report, given []ledger.Receipt) {
	for _, rc := range given {
		if rc.Seal != c.seal {
			r.Foreign++ // another emission's, signed by the same key maybe: not this store's
			continue
		}
		r.GivenReceipts++
		who := PurchaseID(rc.Account, rc.Number)
		if err := rc.Check(c.key); err != nil {
			r.bad("the receipt of purchase %s given does not check, and proves nothing: %v", who, err)
			continue
		}
		c.places[rc.Account] = append(c.places[rc.Account], place{seq: rc.Seq, hash: rc.Hash, number: rc.Number})
	}
}

// verifyHeads reads the store's heads in order: each follows the one
// before it (the first, the seal), its hash is its content's and its
// signature the house's; what each signed head covers is kept, to be found
// in the store. The heads given must be the store's.
func (s *SQL) verifyHeads(ctx context.Context, q querier, r *Report, c *ledgerCheck, given []ledger.HeadToken) error {
	want := map[int64]ledger.HeadToken{}
	for _, t := range given {
		if t.Seal != c.seal {
			r.Foreign++ // another emission's head, signed by the same key maybe: not this store's
			continue
		}
		r.GivenHeads++
		if err := t.Check(c.key); err != nil {
			r.bad("head %d given: its signature is not the house key's, and it proves nothing", t.N)
			continue
		}
		if other, ok := want[t.N]; ok && other.Hash != t.Hash {
			r.bad("two heads %d given, both signed by the house: it signed two histories", t.N)
		}
		want[t.N] = t
	}
	rows, err := q.QueryContext(ctx, `SELECT n, prev, hash, sig, seller, at, body FROM heads ORDER BY n`)
	if err != nil {
		return fmt.Errorf("store: reading its heads: %w", err)
	}
	defer rows.Close()
	// The hashes the next head may follow: the last head's as recorded and
	// as its content gives it (they differ once it was changed, which is
	// named once).
	follows := [2]ledger.Hash{c.seal, c.seal}
	for rows.Next() {
		h := ledger.Head{Seal: c.seal}
		var prevCol, hashCol, sig []byte
		var body string
		if err := rows.Scan(&h.N, &prevCol, &hashCol, &sig, &h.Seller, &h.At, &body); err != nil {
			return fmt.Errorf("store: reading its heads: %w", err)
		}
		r.Heads++
		next := h.N == r.LastHead+1
		switch {
		case !next && h.N == r.LastHead+2:
			r.bad("head %d is missing", r.LastHead+1)
		case !next:
			r.bad("heads %d to %d are missing", r.LastHead+1, h.N-1)
		}
		copy(h.Prev[:], prevCol)
		switch {
		case !next || len(prevCol) == len(h.Prev) && (h.Prev == follows[0] || h.Prev == follows[1]):
		case h.N == 1:
			r.bad("head 1 does not start from the emission's seal: the heads were rewritten")
		default:
			r.bad("head %d does not follow head %d: the heads were rewritten", h.N, r.LastHead)
		}
		r.LastHead = h.N
		var stored ledger.Hash
		if copy(stored[:], hashCol); len(hashCol) != len(stored) {
			stored = ledger.Hash{}
		}
		b, err := ledger.DecodeBody(body)
		if err != nil {
			r.bad("head %d: %v", h.N, err)
			follows = [2]ledger.Hash{stored, stored}
			continue
		}
		h.Body = b
		hash := h.Hash()
		follows = [2]ledger.Hash{stored, hash}
		if stored != hash {
			r.bad("head %d: its recorded hash is not its content's: changed since it was signed", h.N)
		}
		if t, ok := want[h.N]; ok {
			delete(want, h.N)
			if t.Hash != hash {
				r.bad("head %d given is not the store's: its history was rewritten", h.N)
			} else {
				r.FoundHeads++
			}
		}
		if c.signed(r, fmt.Sprintf("head %d", h.N), ledger.HeadToken{N: h.N, Seal: h.Seal, Hash: hash}.Statement(), sig) {
			c.cover(h)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: reading its heads: %w", err)
	}
	ns := make([]int64, 0, len(want))
	for n := range want {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	for _, n := range ns {
		if n > r.LastHead {
			r.bad("the store's heads stop at %d: head %d given was removed", r.LastHead, n)
		} else {
			r.bad("the store holds no head %d: head %d given was removed", n, n)
		}
	}
	for a, ps := range c.places {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].seq < ps[j].seq })
		c.places[a] = ps
	}
	return nil
}

// cover keeps what a signed head covers.
func (c *ledgerCheck) cover(h ledger.Head) {
	for _, a := range h.Body.Accounts {
		c.places[a.Account] = append(c.places[a.Account], place{seq: a.Seq, hash: a.Hash, head: h.N})
		c.covered[a.Account] = max(c.covered[a.Account], a.Seq)
	}
	for _, m := range h.Body.Marks {
		c.marks.set(m.Account, m.Unit, m.Value)
	}
}

// unheld names the places heads and receipts show in accounts the store
// no longer holds.
func (c *ledgerCheck) unheld(r *Report) {
	names := make([]string, 0, len(c.places))
	for a := range c.places {
		names = append(names, a)
	}
	slices.Sort(names)
	for _, a := range names {
		for _, p := range c.places[a] {
			p.gone(r, a, "and the store holds no such account")
		}
	}
}

// gone names a place the store no longer holds.
func (p place) gone(r *Report, account, why string) {
	if p.head == 0 {
		r.bad("purchase %s: its receipt shows record %d of account %q, %s: rolled back", PurchaseID(account, p.number), p.seq, account, why)
		return
	}
	r.bad("account %q: head %d covers its record %d, %s: its history was rolled back", account, p.head, p.seq, why)
}

// differs names a place whose record is another in the store.
func (p place) differs(r *Report, account string) {
	if p.head == 0 {
		r.bad("purchase %s: the store's record %d of account %q is not the one its receipt shows: its history was rewritten", PurchaseID(account, p.number), p.seq, account)
		return
	}
	r.bad("account %q: its record %d is not the one head %d covers: its history was rewritten", account, p.seq, p.head)
}

// markSet holds the last mark heads gave each unit, by a hash of its
// account and name, keyed by a seed drawn for each check: no one can
// choose units whose keys collide.
type markSet struct {
	seed  maphash.Seed
	marks map[uint64]uint8
}

func newMarkSet() markSet { return markSet{seed: maphash.MakeSeed(), marks: map[uint64]uint8{}} }

// account returns the part of an account in the keys of its units.
func (m markSet) account(name string) uint64 {
	return maphash.String(m.seed, name) * 0x9e3779b97f4a7c15 // odd: a bijection, that mixes it apart from its units'
}

func (m markSet) key(account uint64, unit string) uint64 {
	return account ^ maphash.String(m.seed, unit)
}

// set records the mark a head gives a unit. A unit shown stays shown: a
// head marking it left after one marked it shown is kept as a mark put
// back (putBack), to be named.
func (m markSet) set(account, unit string, value int) {
	k := m.key(m.account(account), unit)
	old, ok := m.marks[k]
	if ok && old&^putBack == ledger.Shown && value == ledger.Left {
		m.marks[k] = old | putBack
		return
	}
	m.marks[k] = uint8(value) | old&putBack
}

// putBack marks a unit a head marked left after another marked it shown.
const putBack = 0x80

// get returns the last mark a head gave a unit of an account (its key,
// account), if one did, and whether a head marked it left once shown.
func (m markSet) get(account uint64, unit string) (value int, ok, back bool) {
	if len(m.marks) == 0 {
		return 0, false, false
	}
	v, ok := m.marks[m.key(account, unit)]
	return int(v &^ putBack), ok, v&putBack != 0
}
