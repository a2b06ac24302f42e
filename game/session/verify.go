package session

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/text"
)

// Report is what Verify found in a journal.
type Report struct {
	Purchases int       // purchases recorded
	Blocks    int       // blocks committed
	Closed    int       // blocks exhausted and revealed
	Checked   int64     // units of closed blocks checked against their seed
	Torn      int       // a last line cut short, or 0
	Problems  []Problem // everything found wrong, by line
}

// OK reports whether the journal is honest as far as it can be checked.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// Verify checks a journal: every line against the ones before it (balances,
// purchase numbers, the order of each block's units, commitments before
// sales, layouts paying their prizes), and every closed block against its
// revealed seed: the seed matches its commitment, and each unit of the block
// has the lot and the layout that the seed gives, none missing.
func Verify(r io.Reader, tables Tables) (Report, error) {
	if tables == nil {
		tables = RegulationTables
	}
	lines, _, torn, err := ReadLines(r)
	var p Problem
	if errors.As(err, &p) {
		return Report{Problems: []Problem{p}}, nil
	}
	if err != nil {
		return Report{}, err
	}
	rep := Report{Torn: torn}
	st := scan(lines, tables, 0, true, &rep.Problems)
	rep.Purchases, rep.Blocks, rep.Closed = len(st.Ops), len(st.Commits), len(st.Reveals)
	names := make([]string, 0, len(st.Reveals))
	for b := range st.Reveals {
		names = append(names, b)
	}
	sort.Strings(names)
	for _, b := range names {
		rep.Checked += st.checkBlock(b, st.Reveals[b], st.reveals[b], &rep.Problems)
	}
	sort.SliceStable(rep.Problems, func(i, j int) bool { return rep.Problems[i].Line < rep.Problems[j].Line })
	return rep, nil
}

// checkBlock draws a closed block again from its seed and compares each of
// its units with the journal's.
func (st *State) checkBlock(name, seedHex string, line int, problems *[]Problem) int64 {
	bad := func(n int, format string, args ...any) {
		*problems = append(*problems, Problem{n, text.Printable(fmt.Sprintf(format, args...))})
	}
	id, err := game.ParseUnitID(name + ":1") // GAME:STAKE:BLOCK and a serial
	if err != nil {
		bad(line, "block %q is not GAME:STAKE:BLOCK", name)
		return 0
	}
	g, err := lottery.Find(id.Game)
	if err != nil {
		bad(line, "block %s: %v", name, err)
		return 0
	}
	table, err := st.table(g, id)
	if err != nil {
		bad(line, "block %s: %v", name, err)
		return 0
	}
	raw, _ := hex.DecodeString(seedHex)
	var seed game.BlockSeed
	copy(seed[:], raw)
	block := game.NewBlock(table, id.Block, seed)
	units := st.units[name]
	var checked int64
	missing := 0
	for {
		serial, tier, ok := block.Draw()
		if !ok {
			break
		}
		u, ok := units[serial]
		if !ok {
			if missing++; missing <= 3 {
				bad(line, "block %s: unit %d is not in the journal (a line removed?)", name, serial)
			}
			continue
		}
		checked++
		if want := table.Prize(tier); !u.prize.Equal(want) {
			bad(u.line, "unit %s:%d: prize %s, but its block's seed draws %s", name, serial, u.prize, want)
		}
		uid := id
		uid.Serial = serial
		dealt, err := g.DealUnit(game.Unit{ID: uid, Tier: tier, Prize: table.Prize(tier), Seed: seed}).MarshalJSON()
		if err == nil && !sameJSON(dealt, u.layout) {
			bad(u.line, "unit %s:%d: its layout is not the one its block's seed deals", name, serial)
		}
	}
	if missing > 3 {
		bad(line, "block %s: %d units missing from the journal in all", name, missing)
	}
	return checked
}

// sameJSON compares two JSON documents, spacing aside.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
