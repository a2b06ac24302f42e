package cli

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/game/vegas"
)

// prizemap writes the prize map of one block: the serial, the lot, the
// prize and (Vegas) the split over the surfaces of every unit, in the
// order the block sells them, streamed as they are drawn, in constant
// memory, as CSV (the default) or JSON lines.
func prizemap(env Env, args []string) int {
	fs := flag.NewFlagSet("prizemap", flag.ContinueOnError)
	name := fs.String("game", "", "the game: yams or vegas")
	stakeFlag := fs.String("stake", "", "the stake: 0.5, 1 or 2 for yams (default 1), 3 for vegas")
	block := fs.Int64("block", 0, "the block's number `N` in its sequence, from 1")
	var seed seedFlag
	fs.Var(&seed, "seed", "the master seed `N` the block's seed derives from")
	blockSeed := fs.String("block-seed", "", "the block's revealed seed `HEX`, as a store reveals it once the block is sold out")
	csv := fs.Bool("csv", false, "write CSV with a header line (the default)")
	jsonl := fs.Bool("jsonl", false, "write one JSON object a unit")
	pos, err := parse(env, fs, args)
	if err != nil {
		return fail(env, "prizemap", err)
	}
	m, err := prizemapArgs(pos, *name, *stakeFlag, *block, &seed, *blockSeed, *csv, *jsonl)
	if err != nil {
		return fail(env, "prizemap", err)
	}
	out := bufio.NewWriterSize(env.Stdout, 1<<16)
	if err := m.write(out); err != nil {
		out.Flush()
		return fail(env, "prizemap", err)
	}
	if err := out.Flush(); err != nil {
		return fail(env, "prizemap", fmt.Errorf("writing the map: %w", err))
	}
	return ExitOK
}

// prizeMap is the block whose map is written, and how.
type prizeMap struct {
	game  lottery.Game
	table *game.Table
	id    game.BlockID
	seed  game.BlockSeed
	jsonl bool
}

// prizemapArgs checks prizemap's flags.
func prizemapArgs(pos []string, name, stakeFlag string, block int64, seed *seedFlag, blockSeed string, csv, jsonl bool) (prizeMap, error) {
	var m prizeMap
	switch {
	case len(pos) > 0:
		return m, usagef("unexpected argument %q", pos[0])
	case name == "":
		return m, usagef("--game is required (yams or vegas)")
	case block < 1:
		return m, usagef("--block is required: the block's number, from 1")
	case seed.set == (blockSeed != ""):
		return m, usagef("give the block's --block-seed, or the master --seed it derives from (one of them)")
	case csv && jsonl:
		return m, usagef("--csv and --jsonl: one format at a time")
	}
	g, err := lottery.Find(name)
	if err != nil {
		return m, usagef("--game: %v", err)
	}
	stake, err := g.Stake(stakeFlag)
	if err != nil {
		return m, usagef("--stake: %v", err)
	}
	m = prizeMap{game: g, id: g.Seq(stake).Block(block), jsonl: jsonl}
	m.table, _ = g.Table(stake)
	if seed.set {
		m.seed = seed.seed.Block(g.Name, stake, block)
	} else if m.seed, err = game.ParseBlockSeed(blockSeed); err != nil {
		return m, usagef("--block-seed: %v", err)
	}
	return m, nil
}

// write draws the block unit by unit and writes each unit's line. Only
// Vegas units are dealt: the split is the ticket's; a Yam's unit's lot is
// its draw.
func (m *prizeMap) write(w *bufio.Writer) error {
	vegasGame := m.game.Name == vegas.Name
	if !m.jsonl {
		header := "serial,lot,prize"
		if vegasGame {
			header += ",roulette,craps,poker,jackpot"
		}
		if _, err := w.WriteString(header + "\n"); err != nil {
			return fmt.Errorf("writing the map: %w", err)
		}
	}
	prizes := make([][]byte, m.table.Tiers())
	for tier := range prizes {
		prizes[tier] = []byte(m.table.Prize(tier).String())
	}
	unitPrefix := []byte(`{"unit":"` + m.id.String() + ":")
	b := game.NewBlock(m.table, m.id.Block, m.seed)
	var pcg rand.PCG
	src := game.PCGSource(&pcg)
	dealer := vegas.NewDealer()
	var ticket vegas.Ticket
	line := make([]byte, 0, 256)
	for {
		serial, tier, ok := b.Draw()
		if !ok {
			return nil
		}
		var split vegas.Split
		if vegasGame {
			m.seed.SeedUnit(&pcg, serial)
			dealer.Deal(src, tier, &ticket)
			s := ticket.Score()
			if s.Prize != m.table.PrizeCents(tier) {
				return fmt.Errorf("unit %s:%d: its ticket scores %s where its block drew %s", m.id, serial, s.Prize, m.table.Prize(tier))
			}
			for f := range vegas.Surfaces {
				split[f] = int64(s.SurfacePrize(f)) / 100
			}
		}
		lot := int64(tier) + 1 // the line of the regulation's table, 1 the top lot
		if tier == m.table.Losing() {
			lot = 0
		}
		line = line[:0]
		if m.jsonl {
			line = append(line, unitPrefix...)
			line = strconv.AppendInt(line, serial, 10)
			line = append(line, `","serial":`...)
			line = strconv.AppendInt(line, serial, 10)
			line = append(line, `,"lot":`...)
			line = strconv.AppendInt(line, lot, 10)
			line = append(line, `,"prize":"`...)
			line = append(line, prizes[tier]...)
			line = append(line, '"')
			if vegasGame {
				line = append(line, `,"split":{`...)
				for f := range vegas.Surfaces {
					if f > 0 {
						line = append(line, ',')
					}
					line = append(line, '"')
					line = append(line, f.String()...)
					line = append(line, `":"`...)
					line = strconv.AppendInt(line, split[f], 10)
					line = append(line, '"')
				}
				line = append(line, '}')
			}
			line = append(line, "}\n"...)
		} else {
			line = strconv.AppendInt(line, serial, 10)
			line = append(line, ',')
			line = strconv.AppendInt(line, lot, 10)
			line = append(line, ',')
			line = append(line, prizes[tier]...)
			if vegasGame {
				for f := range vegas.Surfaces {
					line = append(line, ',')
					line = strconv.AppendInt(line, split[f], 10)
				}
			}
			line = append(line, '\n')
		}
		if _, err := w.Write(line); err != nil {
			return fmt.Errorf("writing the map: %w", err)
		}
	}
}
