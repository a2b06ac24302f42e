package journal

import (
	"errors"
	"io"
	"sort"

	"tapis/store"
)

// Report is what Verify found in a journal.
type Report struct {
	Purchases int       // purchases recorded
	Blocks    int       // blocks committed
	Closed    int       // blocks exhausted and revealed
	Checked   int64     // units dealt again from the journal's seed and found as recorded
	Forced    int64     // forced (QA) units, from no block: a QA journal
	Torn      int       // a last line cut short, or 0
	Empty     bool      // an empty file: a new journal, as the game takes it
	Refused   bool      // a journal of another format, refused unread: Problems says which
	Problems  []Problem // everything found wrong, by line
}

// OK reports whether the journal is honest as far as it can be checked.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// Verify checks a journal as resuming it does, line by line: every line
// against the ones before it (balances, stakes, purchase numbers, the order
// of each block's units, commitments before sales, layouts paying their
// prizes), and everything against the journal's seed: each block's
// commitment and revealed seed, and each unit sold from a block, open or
// closed, dealt again and compared, lot and layout.
func Verify(r io.Reader, tables store.Tables) (Report, error) {
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
	sort.SliceStable(rep.Problems, func(i, j int) bool { return rep.Problems[i].Line < rep.Problems[j].Line })
	return rep, nil
}
