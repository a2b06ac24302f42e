package journal

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

// pendingUnits are the units bought and not shown yet, oldest first, each
// found by its name.
type pendingUnits struct {
	units []purchase     // oldest first, with empty places where units were shown
	at    map[string]int // unit name → its index in units
	shown int            // places left empty by units shown since the last compaction
}

// add keeps a unit bought, until it is shown.
func (p *pendingUnits) add(u purchase) {
	if p.at == nil {
		p.at = map[string]int{}
	}
	p.at[u.Op.Unit] = len(p.units)
	p.units = append(p.units, u)
}

// drop lets go of a unit shown. Its place is left empty, and the empty
// places are taken out once they are half of them: each unit shown costs
// the same on average, and units holds about the units not shown.
func (p *pendingUnits) drop(unit string) {
	i, ok := p.at[unit]
	if !ok {
		return
	}
	p.units[i] = purchase{}
	delete(p.at, unit)
	if p.shown++; p.shown > 32 && 2*p.shown > len(p.units) {
		p.compact()
	}
}

// has reports whether a unit waits to be shown.
func (p *pendingUnits) has(unit string) bool {
	_, ok := p.at[unit]
	return ok
}

// compact takes the empty places out of units.
func (p *pendingUnits) compact() {
	p.units = slices.DeleteFunc(p.units, func(u purchase) bool { return u.Op.Unit == "" })
	clear(p.at)
	for i, u := range p.units {
		p.at[u.Op.Unit] = i
	}
	p.shown = 0
}

// list returns the units waiting, oldest first, in a slice of its own.
func (p *pendingUnits) list() []purchase {
	out := make([]purchase, 0, len(p.at))
	for _, u := range p.units {
		if u.Op.Unit != "" {
			out = append(out, u)
		}
	}
	return out
}

// pendingOf keeps units as waiting, oldest first, in storage of its own.
func pendingOf(units []purchase) pendingUnits {
	p := pendingUnits{at: make(map[string]int, len(units))}
	for _, u := range units {
		p.add(u)
	}
	return p
}
