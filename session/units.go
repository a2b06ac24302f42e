package session

import (
	"slices"
	"strings"
)

// unitSet is the set of the unit names a journal bought, in little memory.
// A name is read as PREFIX:N, its prefix a block (GAME:STAKE:BLOCK) or a
// forced sequence (GAME:STAKE:LABEL), and N its serial or rank: a journal
// buys the units of a block, or of a forced sequence, in order, so each
// prefix keeps runs of consecutive numbers, one for an honest journal. A
// name that is not read so (N written otherwise than tapis writes it) is
// kept whole: the scan finds it wrong already.
type unitSet struct {
	runs  map[string][]run // by prefix, in order, apart from one another
	names map[string]bool
}

// run is the numbers from first to last.
type run struct{ first, last int64 }

func newUnitSet() unitSet {
	return unitSet{runs: map[string][]run{}, names: map[string]bool{}}
}

// split reads a name as PREFIX:N, N written as strconv.FormatInt writes a
// number from 1 (and shorter than 19 digits).
func split(name string) (prefix string, n int64, ok bool) {
	i := strings.LastIndexByte(name, ':')
	if i < 0 {
		return "", 0, false
	}
	digits := name[i+1:]
	if len(digits) == 0 || len(digits) > 18 || digits[0] == '0' {
		return "", 0, false
	}
	for j := range len(digits) {
		c := digits[j]
		if c < '0' || c > '9' {
			return "", 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return name[:i], n, true
}

// has reports whether the set holds name.
func (u *unitSet) has(name string) bool {
	prefix, n, ok := split(name)
	if !ok {
		return u.names[name]
	}
	runs := u.runs[prefix]
	i := find(runs, n)
	return i < len(runs) && runs[i].first <= n
}

// find returns the index of the first run that does not end before n.
func find(runs []run, n int64) int {
	i, _ := slices.BinarySearchFunc(runs, n, func(r run, n int64) int {
		if r.last < n {
			return -1
		}
		return 1
	})
	return i
}

// add puts name in the set.
func (u *unitSet) add(name string) {
	prefix, n, ok := split(name)
	if !ok {
		u.names[name] = true
		return
	}
	runs := u.runs[prefix]
	if k := len(runs); k > 0 && runs[k-1].last+1 == n { // the next in order
		runs[k-1].last = n
		return
	}
	i := find(runs, n)
	switch {
	case i < len(runs) && runs[i].first <= n: // there already
		return
	case i > 0 && runs[i-1].last+1 == n:
		runs[i-1].last = n
		if i < len(runs) && runs[i].first == n+1 { // it joins two runs
			runs[i-1].last = runs[i].last
			runs = slices.Delete(runs, i, i+1)
		}
	case i < len(runs) && runs[i].first == n+1:
		runs[i].first = n
	default:
		runs = slices.Insert(runs, i, run{n, n})
	}
	u.runs[prefix] = runs
}

// addPending keeps a unit bought, until it is shown.
func (st *State) addPending(p Played) {
	st.waiting[p.Op.Unit] = len(st.Pending)
	st.Pending = append(st.Pending, p)
}

// dropPending lets go of a unit shown. Its place is left empty, and the
// empty places are taken out once they are half of them: each unit shown
// costs the same on average, and Pending holds about the units not shown.
func (st *State) dropPending(unit string) {
	i, ok := st.waiting[unit]
	if !ok {
		return
	}
	st.Pending[i] = Played{}
	delete(st.waiting, unit)
	if st.shown++; st.shown > 32 && 2*st.shown > len(st.Pending) {
		st.compactPending()
	}
}

// compactPending takes the empty places out of Pending.
func (st *State) compactPending() {
	st.Pending = slices.DeleteFunc(st.Pending, func(p Played) bool { return p.Op.Unit == "" })
	clear(st.waiting)
	for i, p := range st.Pending {
		st.waiting[p.Op.Unit] = i
	}
	st.shown = 0
}
