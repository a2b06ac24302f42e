package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/text"
)

// dealOptions are deal's flags, checked.
type dealOptions struct {
	stake string
	prize string
	count int64
	seed  seedFlag
	unit  string
	block string // a block's revealed seed, in hexadecimal
}

// deal deals layouts as JSON lines: units drawn from a fresh block, units
// forced to a lot, or a unit of a seeded session found again by identity.
func deal(env Env, args []string) int {
	var o dealOptions
	fs := flag.NewFlagSet("deal", flag.ContinueOnError)
	name := fs.String("game", "", "the game: yams or vegas")
	fs.StringVar(&o.stake, "stake", "", "the stake: 0.5, 1 or 2 for yams (default 1), 3 for vegas")
	fs.StringVar(&o.prize, "prize", "", "deal every layout for this lot, in euros (0 for a losing unit)")
	fs.Int64Var(&o.count, "count", 1, "how many layouts to deal")
	fs.Var(&o.seed, "seed", "the master seed `N` (default: from the system's secure source)")
	fs.StringVar(&o.unit, "unit", "", "deal the unit GAME:STAKE:BLOCK:SERIAL of the session seeded with --seed, or of the block whose seed is --block-seed")
	fs.StringVar(&o.block, "block-seed", "", "with --unit: the unit's block's seed `HEX`, as a store reveals it once the block is sold out")
	pos, err := parse(env, fs, args)
	if err == nil && len(pos) > 0 {
		err = usagef("unexpected argument %q", pos[0])
	}
	if err == nil && o.count < 1 {
		err = usagef("--count %d: want at least 1", o.count)
	}
	if err != nil {
		return fail(env, "deal", err)
	}
	out := bufio.NewWriter(env.Stdout)
	defer out.Flush()
	if o.block != "" && o.unit == "" {
		return fail(env, "deal", usagef("--block-seed goes with --unit: it deals a unit of that block again"))
	}
	if o.unit != "" {
		err = dealUnit(out, &o, *name)
	} else {
		err = dealFresh(out, env.Stderr, &o, *name)
	}
	if err != nil {
		return fail(env, "deal", err)
	}
	return ExitOK
}

// dealFresh deals units from a fresh block, or forced to --prize. A seed
// drawn for the occasion is said on stderr, so that the units can be dealt
// again (--unit ID --seed N).
func dealFresh(out, stderr io.Writer, o *dealOptions, name string) error {
	if name == "" {
		return usagef("--game is required (yams or vegas)")
	}
	g, err := lottery.Find(name)
	if err != nil {
		return usagef("--game: %v", err)
	}
	stake, err := g.Stake(o.stake)
	if err != nil {
		return usagef("--stake: %v", err)
	}
	table, _ := g.Table(stake)
	tier := -1 // units drawn from a fresh block
	if o.prize != "" {
		p, err := game.ParseAmount(o.prize)
		if err != nil {
			return usagef("--prize: %v", err)
		}
		var ok bool
		if tier, ok = table.Tier(p); !ok {
			return usagef("--prize %s is not a lot of %s at stake %s (lots: %s, or 0)", o.prize, g.Name, stake, lotList(table))
		}
	}
	seed, err := o.seed.resolve()
	if err != nil {
		return err
	}
	if !o.seed.set {
		fmt.Fprintf(stderr, "tapis deal: seed %s\n", seed)
	}
	if tier < 0 {
		seq := game.NewSequence(g.Name, stake, table, seed)
		for range o.count {
			u := seq.Next()
			if err := writeRecord(out, g.DealUnit(u), u.ID.String(), u.Prize.String(), false); err != nil {
				return err
			}
		}
		return nil
	}
	fs := seed.Forced(g.Name, stake)
	for i := range o.count {
		l := g.Deal(fs.UnitRand(i+1), stake, tier)
		if err := writeRecord(out, l, "", table.Prize(tier).String(), true); err != nil {
			return err
		}
	}
	return nil
}

// dealUnit deals the unit named by --unit, and the ones sold after it with
// --count, as the session seeded with --seed sells them.
func dealUnit(out io.Writer, o *dealOptions, name string) error {
	if o.block != "" && o.seed.set {
		return usagef("--block-seed and --seed: a unit is dealt from one of them")
	}
	if !o.seed.set && o.block == "" {
		return usagef("--unit needs the session's --seed, or its block's --block-seed")
	}
	if o.prize != "" {
		return usagef("--unit and --prize cannot go together")
	}
	id, err := game.ParseUnitID(o.unit)
	if err != nil {
		return usagef("--unit: %v", err)
	}
	g, err := lottery.Find(id.Game)
	if err != nil {
		return usagef("--unit: %v", err)
	}
	if name != "" && name != g.Name {
		return usagef("--game %s does not match unit %s", name, o.unit)
	}
	if o.stake != "" {
		return usagef("--unit carries its stake; leave out --stake")
	}
	if id.Stake, err = g.Stake(id.Stake.String()); err != nil {
		return usagef("--unit: %v", err)
	}
	table, _ := g.Table(id.Stake)
	id.Game = g.Name
	if o.block != "" {
		return dealFromBlock(out, o, g, table, id)
	}
	seq, err := game.SequenceAt(table, o.seed.seed, id)
	if err != nil {
		return usagef("--unit: %v", err)
	}
	for range o.count {
		u := seq.Next()
		if err := writeRecord(out, g.DealUnit(u), u.ID.String(), u.Prize.String(), false); err != nil {
			return err
		}
	}
	return nil
}

// dealFromBlock deals the unit named by --unit, and the ones after it in
// its block with --count, from the block's revealed seed alone: anyone can
// deal their own units again once a block is sold out, and check the seed
// against the commitment published before its first sale.
func dealFromBlock(out io.Writer, o *dealOptions, g lottery.Game, table *game.Table, id game.UnitID) error {
	bs, err := game.ParseBlockSeed(o.block)
	if err != nil {
		return usagef("--block-seed: %v", err)
	}
	if id.Serial > table.Units {
		return usagef("--unit %s: a block of %s has %d units", text.Printable(o.unit), g.Name, table.Units)
	}
	order, err := game.DrawOrder(table, bs)
	if err != nil {
		return err
	}
	for serial := id.Serial; serial < id.Serial+o.count && serial <= table.Units; serial++ {
		tier := int(order[serial-1])
		u := game.Unit{ID: game.UnitID{Game: id.Game, Stake: id.Stake, Block: id.Block, Serial: serial},
			Tier: tier, Prize: table.Prize(tier), Seed: bs}
		if err := writeRecord(out, g.DealUnit(u), u.ID.String(), u.Prize.String(), false); err != nil {
			return err
		}
	}
	return nil
}

func writeRecord(out io.Writer, l lottery.Layout, unit, prize string, forced bool) error {
	b, err := lottery.Record(l, unit, prize, forced)
	if err != nil {
		return err
	}
	_, err = out.Write(append(b, '\n'))
	return err
}

func lotList(t *game.Table) string {
	s := ""
	for i, l := range t.Lots {
		if i > 0 {
			s += ", "
		}
		s += l.Prize.String()
	}
	return s
}
