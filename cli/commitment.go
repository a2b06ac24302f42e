package cli

import (
	"encoding/hex"
	"flag"
	"fmt"
	"strings"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/text"
)

// commitment prints the commitment of a block's revealed seed
// (game.BlockSeed.Commitment, the one function journals, stores and
// screens publish it with), or checks it against the commitment published
// before the block's first sale: exit 0 when it matches, 1 when it does
// not, 2 for bad input.
func commitment(env Env, args []string) int {
	fs := flag.NewFlagSet("commitment", flag.ContinueOnError)
	seedHex := fs.String("block-seed", "", "the block's revealed seed `HEX` (64 hexadecimal digits)")
	blockID := fs.String("block", "", "the block's identity `GAME:STAKE:BLOCK` (yams:1:1, vegas:3:2)")
	want := fs.String("commitment", "", "check the seed against this published commitment `HEX`: exit 0 if it matches, 1 if not")
	pos, err := parse(env, fs, args)
	if err != nil {
		return fail(env, "commitment", err)
	}
	if len(pos) > 0 {
		return fail(env, "commitment", usagef("unexpected argument %q", pos[0]))
	}
	if *seedHex == "" || *blockID == "" {
		return fail(env, "commitment", usagef("--block-seed and --block are required"))
	}
	bs, err := game.ParseBlockSeed(*seedHex)
	if err != nil {
		return fail(env, "commitment", usagef("--block-seed: %v", err))
	}
	id, err := readBlockID(*blockID)
	if err != nil {
		return fail(env, "commitment", err)
	}
	got := bs.CommitmentHex(id)
	if *want == "" {
		fmt.Fprintln(env.Stdout, got)
		return ExitOK
	}
	w := strings.ToLower(strings.TrimSpace(*want))
	if raw, err := hex.DecodeString(w); err != nil || len(raw) != 32 {
		return fail(env, "commitment", usagef("--commitment %q: a commitment is 64 hexadecimal digits", *want))
	}
	if w != got {
		return fail(env, "commitment", fmt.Errorf("block %s: the seed's commitment is %s, not %s: this seed is not the one committed for this block", id, got, w))
	}
	fmt.Fprintf(env.Stdout, "%s matches block %s\n", got, id)
	return ExitOK
}

// readBlockID reads --block: a block of one of the games, at one of its
// stakes, written as its commitment names it (a stake 0,5 is 0.5).
func readBlockID(s string) (game.BlockID, error) {
	id, err := game.ParseBlockID(s)
	if err != nil {
		return id, usagef("--block: %v", err)
	}
	g, err := lottery.Find(id.Game)
	if err != nil || g.Name != id.Game {
		return id, usagef("--block %s: game %q is not yams or vegas", text.Printable(s), id.Game)
	}
	if id.Stake, err = g.Stake(id.Stake.String()); err != nil {
		return id, usagef("--block %s: %v", text.Printable(s), err)
	}
	return id, nil
}
