package game

import (
	"testing"

	"github.com/shopspring/decimal"
)

func smallTable() *Table {
	return &Table{Units: 100, Lots: []Lot{
		{Prize: decimal.NewFromInt(50), Count: 1},
		{Prize: decimal.NewFromInt(5), Count: 9},
		{Prize: decimal.NewFromInt(1), Count: 20},
	}}
}

func TestTable(t *testing.T) {
	tb := smallTable()
	if err := tb.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := tb.Count(tb.Losing()); got != 70 {
		t.Errorf("losing count = %d, want 70", got)
	}
	if got := tb.Payout(); !got.Equal(decimal.NewFromInt(115)) {
		t.Errorf("payout = %s, want 115", got)
	}
	if tier, ok := tb.Tier(decimal.NewFromInt(5)); !ok || tier != 1 {
		t.Errorf("Tier(5) = %d, %v", tier, ok)
	}
	if tier, ok := tb.Tier(decimal.Zero); !ok || tier != 3 {
		t.Errorf("Tier(0) = %d, %v", tier, ok)
	}
	for x, want := range map[int64]int{0: 0, 1: 1, 9: 1, 10: 2, 29: 2, 30: 3, 99: 3} {
		if got := tb.TierAt(x); got != want {
			t.Errorf("TierAt(%d) = %d, want %d", x, got, want)
		}
	}
	if _, ok := tb.Tier(decimal.NewFromInt(7)); ok {
		t.Error("Tier(7) found a lot")
	}
	bad := []*Table{
		{Units: 0},
		{Units: 10, Lots: []Lot{{Prize: decimal.NewFromInt(1), Count: 11}}},
		{Units: 10, Lots: []Lot{{Prize: decimal.NewFromInt(1), Count: 1}, {Prize: decimal.NewFromInt(2), Count: 1}}},
		{Units: 10, Lots: []Lot{{Prize: decimal.NewFromInt(1), Count: 0}}},
	}
	for i, b := range bad {
		if b.Validate() == nil {
			t.Errorf("table %d: Validate accepted it", i)
		}
	}
}

// TestBlockPaysItsTable sells whole blocks: every serial once, and the counts
// of each tier exactly the table's (ruling G2).
func TestBlockPaysItsTable(t *testing.T) {
	tb := smallTable()
	for n := range uint64(50) {
		seed := SeedFrom(n)
		b := NewBlock(tb, 1, seed.Block("test", decimal.NewFromInt(1), 1))
		counts := make([]int64, tb.Tiers())
		for want := int64(1); want <= tb.Units; want++ {
			serial, tier, ok := b.Draw()
			if !ok || serial != want {
				t.Fatalf("draw %d: serial %d, ok %v", want, serial, ok)
			}
			counts[tier]++
		}
		if _, _, ok := b.Draw(); ok {
			t.Fatal("an exhausted block sold a unit")
		}
		for i, c := range counts {
			if c != tb.Count(i) {
				t.Fatalf("seed %d: tier %d sold %d, table has %d", seed, i, c, tb.Count(i))
			}
		}
	}
}

// TestBlockDrawIsUniform checks the first draw of a block picks each tier in
// proportion to what is left: the 50 lot (1 in 100) and the losing tier
// (70 in 100), over many seeds.
func TestBlockDrawIsUniform(t *testing.T) {
	tb := smallTable()
	const n = 20000
	counts := make([]int, tb.Tiers())
	for i := range uint64(n) {
		seed := SeedFrom(i)
		_, tier, _ := NewBlock(tb, 1, seed.Block("test", decimal.NewFromInt(1), 1)).Draw()
		counts[tier]++
	}
	for tier, c := range counts {
		p := float64(tb.Count(tier)) / float64(tb.Units)
		want := p * n
		sd := 4 * sqrt(n*p*(1-p))
		if float64(c) < want-sd || float64(c) > want+sd {
			t.Errorf("tier %d drawn %d times in %d, want about %.0f", tier, c, n, want)
		}
	}
}

func sqrt(x float64) float64 {
	r := x
	for range 50 {
		r = (r + x/r) / 2
	}
	return r
}

func TestSequenceStartsTheNextBlock(t *testing.T) {
	tb := smallTable()
	s := NewSequence("test", decimal.NewFromInt(1), tb, SeedFrom(9))
	var last Unit
	for range 250 {
		last = s.Next()
	}
	if last.ID.Block != 3 || last.ID.Serial != 50 {
		t.Fatalf("unit 250 is %s, want block 3 serial 50", last.ID)
	}
	if s.Block().Remaining() != 50 || s.Block().Number() != 3 {
		t.Fatalf("block %d with %d left", s.Block().Number(), s.Block().Remaining())
	}
}

// TestSequenceIsReproducible checks the same seed sells the same units, and
// SequenceAt finds any of them again alone (ruling G5).
func TestSequenceIsReproducible(t *testing.T) {
	tb := smallTable()
	stake := decimal.NewFromInt(1)
	a, b := NewSequence("test", stake, tb, SeedFrom(42)), NewSequence("test", stake, tb, SeedFrom(42))
	other := NewSequence("test", stake, tb, SeedFrom(43))
	same := 0
	for range 230 {
		ua, ub, uo := a.Next(), b.Next(), other.Next()
		if ua.ID != ub.ID || ua.Tier != ub.Tier || ua.Seed != ub.Seed {
			t.Fatalf("same seed, different units: %v %v", ua, ub)
		}
		if ua.Tier == uo.Tier {
			same++
		}
		s, err := SequenceAt(tb, SeedFrom(42), ua.ID)
		if err != nil {
			t.Fatal(err)
		}
		if again := s.Next(); again.ID != ua.ID || again.Tier != ua.Tier || !again.Prize.Equal(ua.Prize) {
			t.Fatalf("SequenceAt(%s) sold %v, want %v", ua.ID, again, ua)
		}
	}
	if same == 230 {
		t.Error("seeds 42 and 43 sold the same tiers")
	}
	if _, err := SequenceAt(tb, SeedFrom(42), UnitID{Game: "test", Stake: stake, Block: 1, Serial: 101}); err == nil {
		t.Error("SequenceAt accepted a serial beyond the block")
	}
}

func TestSeeds(t *testing.T) {
	one := decimal.NewFromInt(1)
	s := Seed(SeedFrom(7))
	seen := map[BlockSeed]bool{}
	for _, bs := range []BlockSeed{
		s.Block("yams", one, 1), s.Block("yams", one, 2), s.Block("yams", decimal.NewFromInt(2), 1),
		s.Block("vegas", one, 1), Seed(SeedFrom(8)).Block("yams", one, 1), s.Forced("yams", one),
	} {
		if seen[bs] {
			t.Fatalf("seed %s derived twice", bs)
		}
		seen[bs] = true
	}
	bs := s.Block("yams", one, 1)
	id := BlockID{Game: "yams", Stake: one, Block: 1}
	if bs.Commitment(id) == [32]byte(bs) {
		t.Error("the commitment is the seed itself")
	}
	if bs.Commitment(id) == bs.Commitment(BlockID{Game: "yams", Stake: one, Block: 2}) {
		t.Error("the commitment does not bind the block's identity")
	}
	r1, r2, r3 := bs.UnitRand(5), bs.UnitRand(5), bs.UnitRand(6)
	x1, x2, x3 := r1.Uint64(), r2.Uint64(), r3.Uint64()
	if x1 != x2 || x1 == x3 {
		t.Errorf("unit streams: %x %x %x", x1, x2, x3)
	}
	if _, err := RandomSeed(); err != nil {
		t.Fatal(err)
	}
}

// TestMark: a sequence put back where it was marked sells the same units
// again, across the end of a block too.
func TestMark(t *testing.T) {
	table := smallTable()
	seq := NewSequence("yams", decimal.NewFromInt(1), table, SeedFrom(5))
	for range table.Units - 2 {
		seq.Next()
	}
	undo := seq.Mark()
	var first []Unit
	for range 5 {
		first = append(first, seq.Next())
	}
	undo()
	for i := range 5 {
		if u := seq.Next(); u.ID.String() != first[i].ID.String() || u.Tier != first[i].Tier {
			t.Fatalf("after the undo, unit %d is %v, was %v", i, u.ID, first[i].ID)
		}
	}
}

// The draw order is the block's own draws, serial by serial.
func TestDrawOrderIsTheBlocksDraws(t *testing.T) {
	table := &Table{Units: 500, Lots: []Lot{{Prize: decimal.NewFromInt(10), Count: 7}, {Prize: decimal.NewFromInt(2), Count: 60}}}
	seed := Seed(SeedFrom(5)).Block("yams", decimal.NewFromInt(1), 3)
	order, err := DrawOrder(table, seed)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBlock(table, 3, seed)
	counts := make([]int64, table.Tiers())
	for i, got := range order {
		serial, tier, ok := b.Draw()
		if !ok || serial != int64(i+1) || int(got) != tier {
			t.Fatalf("serial %d: order says tier %d, the block draws serial %d tier %d (%v)", i+1, got, serial, tier, ok)
		}
		counts[got]++
	}
	for tier, n := range counts {
		if n != table.Count(tier) {
			t.Errorf("tier %d: %d units in the order, the table has %d", tier, n, table.Count(tier))
		}
	}
}
