package lottery

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"math/rand/v2"
	"testing"

	"tapis/game"
	"tapis/game/vegas"
	"tapis/game/yams"
)

// dealsPinned is the SHA-256 of what pinnedDeals writes, as the dealers
// wrote it when the journal format was last bumped. The same seed must deal
// the same layouts, drawing the same words, for as long as that format
// stands: a journal is verified by dealing its units again.
const dealsPinned = "efff024e2a6847864b9b8f0e9b470d00d72856948dc08bdfc8c5e0ad4e4ea052"

// TestDealsPinned deals units of every tier of both games, at every stake,
// from many seeded sources, through every way of dealing (a lot, a Yam's
// total or combinations, a Vegas split, a unit of a block), and checks what
// they show, and the word each source gives after them, against
// dealsPinned: lots dealt through a *rand.Rand, as the game deals them, and
// from the PCG directly, as an audit does.
func TestDealsPinned(t *testing.T) {
	for _, direct := range []bool{false, true} {
		h := sha256.New()
		pinnedDeals(h, direct)
		if got := hex.EncodeToString(h.Sum(nil)); got != dealsPinned {
			t.Errorf("from the PCG directly %v: the dealers deal other layouts, or draw other words: SHA-256 %s, pinned %s",
				direct, got, dealsPinned)
		}
	}
}

// pinnedDeals writes to h what the dealers deal from sources seeded alike
// every time; lots are dealt from the PCG directly when direct is true,
// through a *rand.Rand otherwise.
func pinnedDeals(h hash.Hash, direct bool) {
	vd, yd := vegas.NewDealer(), yams.NewDealer()
	next := func(p *rand.PCG) { fmt.Fprintln(h, p.Uint64()) } // where the deal left the stream
	vt := vegas.Table()
	for tier := range vt.Tiers() {
		for i := range uint64(3000) {
			p := rand.NewPCG(i, uint64(tier))
			var tk vegas.Ticket
			if direct {
				vd.Deal(game.PCGSource(p), tier, &tk)
			} else {
				vegas.Deal(rand.New(p), tier, &tk)
			}
			fmt.Fprintln(h, tk)
			next(p)
		}
	}
	for tier := range vt.Tiers() {
		for i, s := range vegas.Splits(vt.Prize(tier).IntPart()) {
			p := rand.NewPCG(uint64(i), uint64(tier)+100)
			var tk vegas.Ticket
			fmt.Fprintln(h, vegas.DealSplit(rand.New(p), s, &tk), tk)
			next(p)
		}
	}
	for _, stake := range yams.Stakes() {
		yt, _ := yams.Table(stake)
		for tier := range yt.Tiers() {
			for i := range uint64(300) {
				p := rand.NewPCG(i, uint64(tier)+200)
				u := yams.Unit{Stake: stake}
				if direct {
					yd.Deal(game.PCGSource(p), tier, &u)
				} else {
					yams.Deal(rand.New(p), tier, &u)
				}
				fmt.Fprintln(h, u.Cups)
				next(p)
			}
		}
	}
	for total := range 152 {
		p := rand.NewPCG(uint64(total), 300)
		var u yams.Unit
		fmt.Fprintln(h, yams.DealTotal(rand.New(p), total, &u), u.Cups)
		next(p)
	}
	for c := range yams.Combination(9) {
		p := rand.NewPCG(uint64(c), 400)
		var u yams.Unit
		yams.DealCombinations(rand.New(p), [3]yams.Combination{c, 8 - c, c / 2}, &u)
		fmt.Fprintln(h, u.Cups)
		next(p)
	}
	for _, g := range []Game{Vegas(), Yams()} {
		tb, _ := g.Table(g.DefaultStake)
		seq := game.NewSequence(g.Name, g.DefaultStake, tb, game.SeedFrom(42))
		for range 20_000 {
			u := seq.Next()
			l := g.DealUnit(u)
			b, err := l.MarshalJSON()
			fmt.Fprintln(h, u.ID, u.Tier, string(b), err)
		}
	}
}
