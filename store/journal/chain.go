package journal

import (
	"crypto/sha256"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
)

// A journal of format 3 is one chain. Its start record holds the seal
// (ledger.Seal: format, the master seed's commitment, the lot tables, QA or
// the house's, one block open a sequence, the time it was made, the house's
// public key) and the house's signature of it. Then every line, the start
// record first, is a link of the chain: it holds the link of the line
// before it (Prev; the start record's is the account's genesis,
// ledger.Genesis of the seal) and the house's signature (Sig) of its own
// hash, which the ledger's encodings make of its record after that Prev, as
// the SQL store hashes the same record:
//
//   - the start balance: the account's first record, a ledger.Deposit at
//     place 1 (ledger.Link);
//   - a purchase: a ledger.Purchase at place number+1 (ledger.Link): its
//     receipt is the SQL store's ledger.Receipt, and checks with
//     Receipt.Check;
//   - a unit shown: a ledger.Mark; a block's commitment: a
//     ledger.BlockOpened; its reveal: a ledger.BlockClosed (their Hash, of
//     the Prev where the SQL store gives the seal's hash).
//
// A line's link (lineLink) is its hash and its signature hashed together,
// so that a signature changed breaks the chain as a record changed does.
// In a journal the account's chain is the journal's, every line of it: a
// purchase's Prev, and its receipt's, is the link of the line before it,
// whatever that line records.
//
// A line edited, inserted, deleted or moved anywhere but at the end breaks
// the chain or its signature, and the scan names it (links). A deleted tail
// does not: the journal then ends on a line the house signed, as it did
// when it was that long, and only a head kept outside it (the receipt of a
// later purchase) shows what is missing. A shown line's time is not signed:
// a ledger.Mark has none.

// lineLink is what the line after a line holds as its Prev: the line's
// hash and its signature, hashed together.
func lineLink(hash ledger.Hash, sig ledger.Sig) ledger.Hash {
	var b [len(linkDomain) + len(hash) + len(sig)]byte
	n := copy(b[:], linkDomain)
	n += copy(b[n:], hash[:])
	copy(b[n:], sig[:])
	return sha256.Sum256(b[:])
}

// linkDomain sets a line's link apart from every other hash of the ledger.
const linkDomain = "tapis/journal-link\x00"

// depositHash is the hash of a journal's start record: its balance, the
// account's first deposit.
func depositHash(seal, prev ledger.Hash, account string, balance game.Cents, at time.Time) ledger.Hash {
	return ledger.Link(seal, prev, 1, ledger.Deposit{Account: account, N: 1, Amount: balance, At: at.UnixNano()})
}

// purchaseHash is the hash of a purchase's line: the account's record at
// place number+1, the start balance being the first.
func purchaseHash(seal, prev ledger.Hash, p ledger.Purchase) ledger.Hash {
	return ledger.Link(seal, prev, int64(p.Number)+1, p)
}

// shownHash is the hash of a line recording a unit shown.
func shownHash(prev ledger.Hash, account, unit string) ledger.Hash {
	return ledger.Mark{Account: account, Unit: unit, Value: ledger.Shown}.Hash(prev)
}

// commitHash is the hash of a block's commitment's line.
func commitHash(prev ledger.Hash, block string, units int64, commitment string, at time.Time) ledger.Hash {
	return ledger.BlockOpened{Block: block, Units: units, Commitment: commitment, At: at.UnixNano()}.Hash(prev)
}

// revealHash is the hash of a block's reveal's line.
func revealHash(prev ledger.Hash, block, seed string, at time.Time) ledger.Hash {
	return ledger.BlockClosed{Block: block, Seed: seed, At: at.UnixNano()}.Hash(prev)
}

// hashTier is the tier a purchase's record gives it: its prize's in its lot
// table, -1 for a prize no lot pays (a forced layout's) or without a table.
func hashTier(t *game.Table, prize decimal.Decimal) int {
	if t == nil {
		return -1
	}
	if tier, ok := t.Tier(prize); ok {
		return tier
	}
	return -1
}

// checkEvery is how many lines the scan follows between two signatures it
// checks. The chain ties each line to the ones before it, so one signature
// found the house's proves every line up to it: an honest journal costs one
// signature check every checkEvery lines, and one at its end. A line whose
// signature fails is found among the lines since the last checked one,
// which the scan keeps (their hashes and signatures, not their records).
const checkEvery = 1024

// links follows a journal's chain as the scan reads it.
type links struct {
	key     ledger.PublicKey // the seal's: each signature is checked against it; none, nothing is
	head    ledger.Hash      // the link of the last line (lineLink), as its record, Prev and Sig give it
	window  []link           // the lines since the last one checked, oldest first
	bad     bool             // the last line checked is not the key's, nor those chained to it: named once
	pending *seam            // a line that does not follow the one before it, named once the next tells how
}

// link is a line of the chain: its number, its hash, its signature (ok
// when it reads).
type link struct {
	n    int
	hash ledger.Hash
	sig  ledger.Sig
	ok   bool
}

// seam is a line whose Prev is not the hash of the line before it, though
// its signature is the key's.
type seam struct {
	n      int
	before ledger.Hash // the hash of the line before it
}

// signed reports whether the link's signature is the key's of its hash.
func (c *links) signed(l link) bool { return l.ok && c.key.Verify(l.hash, l.sig) }

// follow takes the line numbered n, whose Prev reads prev (ok false when
// it does not read), whose hash, of its record after prev, is hash, and
// whose signature is sig (sigOK when it reads). want is what it should
// follow: the link of the line before it, or for the start record the
// account's genesis.
func (c *links) follow(st *state, n int, prev ledger.Hash, ok bool, hash ledger.Hash, sig ledger.Sig, sigOK bool, want ledger.Hash) {
	if !c.key.Valid() {
		return // the seal does not read: said at the start record
	}
	c.head = lineLink(hash, sig) // a signature that does not read is zero: no line follows it
	if p := c.pending; p != nil {
		c.pending = nil
		if ok && prev == p.before {
			// This line follows the one before the seam: the seam's line
			// stands where it does not belong.
			st.bad(p.n, "out of place: signed by the house, but the line after it follows line %d, the line before it (moved here, or copied)", p.n-1)
			want = p.before
		} else {
			st.bad(p.n, "does not follow line %d, though the house signed it: a line between them was deleted, or moved", p.n-1)
		}
	}
	l := link{n, hash, sig, sigOK}
	if ok && prev == want {
		c.window = append(c.window, l)
		if len(c.window) == checkEvery {
			c.settle(st)
		}
		return
	}
	// The chain breaks before this line.
	before := c.settle(st)
	switch good := ok && c.signed(l); {
	case !good:
		if !before {
			st.bad(n, "not signed by the house as it stands (its signature is not the house key's of what it holds): a line inserted, or changed")
		}
		c.bad = true
	case !before: // named once the next line tells whether it moved here
		c.pending = &seam{n: n, before: want}
		c.bad = false
	default: // the line before it was named: changed, so this line's Prev no longer matches
		c.bad = false
	}
}

// settle checks the signature of the last line of the window, which the
// chain ties to every line before it. When it is not the key's, the first
// line of the window whose signature is not (every later one is chained to
// it) is named, unless the window follows a line named already. It reports
// whether the last line is not the key's.
func (c *links) settle(st *state) bool {
	w := c.window
	if len(w) == 0 {
		return c.bad
	}
	c.window = w[:0]
	last := w[len(w)-1]
	if c.signed(last) {
		c.bad = false
		return false
	}
	if !c.bad {
		i := sort.Search(len(w)-1, func(i int) bool { return !c.signed(w[i]) })
		st.bad(w[i].n, "not as the house signed it (its signature is not the house key's of what it holds): changed after it was written, or written without the key, and the lines after it chained to it")
	}
	c.bad = true
	return true
}

// finish ends the chain at the journal's last line: its signature is
// checked, and a seam left waiting is named.
func (c *links) finish(st *state) {
	if !c.key.Valid() {
		return
	}
	c.settle(st)
	if p := c.pending; p != nil {
		c.pending = nil
		st.bad(p.n, "does not follow line %d, though the house signed it: a line between them was deleted, or moved", p.n-1)
	}
}
