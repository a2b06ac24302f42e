package journal

import (
	"errors"
	"io"
	"sort"

	"tapis/ledger"
	"tapis/store"
)

// Report is what Verify found in a journal.
type Report struct {
	Purchases int   // purchases recorded
	Blocks    int   // blocks committed
	Closed    int   // blocks exhausted and revealed
	Checked   int64 // units dealt again from the journal's seed and found as recorded
	Forced    int64 // forced (QA) units, from no block: a QA journal
	Torn      int   // a last line cut short, or 0
	Empty     bool  // an empty file: a new journal, as the game takes it
	Refused   bool  // a journal of another format, refused unread: Problems says which
	// Key is the key the journal is sealed with, whose signatures its lines
	// hold (invalid when its seal does not read): the house's, when its
	// fingerprint is the one the house publishes.
	Key      ledger.PublicKey
	QA       bool      // sealed as a QA journal
	Problems []Problem // everything found wrong, by line
}

// OK reports whether the journal is honest as far as it can be checked.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// Verify checks a journal as resuming it does, line by line: its seal
// (signed by the key sealed in it, committing to the journal's seed,
// holding the lot tables given, nil for the regulations'), its chain and
// its signatures (a line edited, inserted, deleted or moved is named: see
// chain.go; a deleted tail is not, as no outside head is given), every
// line against the ones before it (balances, stakes, purchase numbers, the
// order of each block's units, commitments before sales, layouts paying
// their prizes, forced units in a QA journal only), and everything against
// the journal's seed: each block's commitment and revealed seed, and each
// unit sold from a block, open or closed, dealt again and compared, lot and
// layout. A journal of another format is refused unread (Refused), with
// one problem saying what it is.
func Verify(r io.Reader, tables store.Tables) (Report, error) {
	return VerifyKey(r, tables, ledger.PublicKey{})
}

// VerifyKey is Verify, and when key is valid (the house's public key, as
// the auditor knows it) names a journal sealed by another: a journal
// signed throughout by a key of its own proves nothing of the house.
func VerifyKey(r io.Reader, tables store.Tables, key ledger.PublicKey) (Report, error) {
	if tables == nil {
		tables = RegulationTables
	}
	found := problems{keep: true}
	st, jr, err := check(r, tables, 0, &found)
	var p Problem
	if err != nil && !errors.As(err, &p) {
		return Report{}, err
	}
	rep := Report{Torn: jr.torn, Empty: st.lines == 0 && jr.torn == 0 && err == nil}
	if rep.Empty {
		return rep, nil // a new journal, as the game takes it: nothing to check
	}
	rep.Problems = found.all
	if err != nil {
		rep.Problems = append(rep.Problems, p) // what follows it is not read
	}
	rep.Purchases, rep.Blocks, rep.Closed, rep.Checked = st.Purchases, len(st.Commits), len(st.Reveals), st.Checked
	rep.Forced, rep.Refused = st.forcedUnits(), st.other
	rep.Key, rep.QA = st.links.key, st.qa
	if key.Valid() && rep.Key.Valid() && !key.Equal(rep.Key) {
		rep.Problems = append(rep.Problems, Problem{1, "sealed by the key " + rep.Key.Fingerprint() + ", not the house's " + key.Fingerprint()})
	}
	sort.SliceStable(rep.Problems, func(i, j int) bool { return rep.Problems[i].Line < rep.Problems[j].Line })
	return rep, nil
}
