package cli

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
)

// TestCommitment prints and checks the commitment of the README's block
// (block 1 of Yam's at 1 € for --seed 42), the one its journal records.
func TestCommitment(t *testing.T) {
	const seed = "7be095bd978ef4fd343504bbff3052c2367f5037d372e1b91679ee530f6d5d24"
	const want = "a868613d0f92e23b55926c0bdfd29a122f46eabf918b01dd28832d9895b301dd"
	if bs := game.SeedFrom(42).Block("yams", decimal.NewFromInt(1), 1); bs.String() != seed {
		t.Fatalf("block seed %s, want %s", bs, seed)
	}
	code, out, errOut := run(t, "", "commitment", "--block-seed", seed, "--block", "yams:1:1")
	if code != ExitOK || out != want+"\n" || errOut != "" {
		t.Errorf("print: exit %d, %q, %q", code, out, errOut)
	}
	code, out, _ = run(t, "", "commitment", "--block-seed", seed, "--block", "yams:1:1", "--commitment", strings.ToUpper(want))
	if code != ExitOK || out != want+" matches block yams:1:1\n" {
		t.Errorf("match: exit %d, %q", code, out)
	}
	// The same seed shown as another block's does not match: the
	// commitment binds a seed to its block.
	code, out, errOut = run(t, "", "commitment", "--block-seed", seed, "--block", "yams:1:2", "--commitment", want)
	if code != ExitInvalid || out != "" || !strings.Contains(errOut, "block yams:1:2: the seed's commitment is ") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("another block: exit %d, %q, %q", code, out, errOut)
	}
	// A stake written with a comma names the same block.
	_, a, _ := run(t, "", "commitment", "--block-seed", seed, "--block", "yams:0,5:3")
	_, b, _ := run(t, "", "commitment", "--block-seed", seed, "--block", "yams:0.50:3")
	if a != b || a == "" {
		t.Errorf("yams:0,5:3 gives %q, yams:0.50:3 %q", a, b)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--block", "yams:1:1"}, "--block-seed and --block are required"},
		{[]string{"--block-seed", seed}, "--block-seed and --block are required"},
		{[]string{"--block-seed", "abc", "--block", "yams:1:1"}, "a block's seed is 64 hexadecimal digits"},
		{[]string{"--block-seed", seed, "--block", "yams:1"}, "want GAME:STAKE:BLOCK"},
		{[]string{"--block-seed", seed, "--block", "poker:1:1"}, `game "poker" is not yams or vegas`},
		{[]string{"--block-seed", seed, "--block", "vegas:1:1"}, "stake 1 is not one of 3"},
		{[]string{"--block-seed", seed, "--block", "yams:1:0"}, "is not a number from 1"},
		{[]string{"--block-seed", seed, "--block", "yams:1:1", "--commitment", "a868"}, "a commitment is 64 hexadecimal digits"},
		{[]string{"--block-seed", seed, "--block", "yams:1:1", "extra"}, `unexpected argument "extra"`},
	} {
		code, _, errOut := run(t, "", append([]string{"commitment"}, c.args...)...)
		if code != ExitUsage || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, errOut, ExitUsage, c.want)
		}
	}
}
