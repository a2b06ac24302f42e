package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"tapis/game"
	"tapis/game/vegas"
)

// BenchmarkScore runs `tapis score --json` on 1 000 records written by
// `tapis deal`, of each game, beside the floor: a typed encoding/json
// decode of the same input, one value a line. The ratio score/floor is the
// cost of checking, scoring and writing each layout beyond reading it.
func BenchmarkScore(b *testing.B) {
	const lines = 1000
	for _, name := range []string{"yams", "vegas"} {
		var input bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &input, Stderr: io.Discard}
		if code := Run(env, []string{"deal", "--game", name, "--count", "1000", "--seed", "1"}); code != ExitOK {
			b.Fatalf("deal: exit %d", code)
		}
		b.Run(name+"/json", func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				env := Env{Stdin: bytes.NewReader(input.Bytes()), Stdout: io.Discard, Stderr: io.Discard}
				if code := Run(env, []string{"score", "--json"}); code != ExitOK {
					b.Fatalf("score: exit %d", code)
				}
			}
			perLine(b, lines, cpu)
		})
		b.Run(name+"/floor", func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				if n := floorDecode(b, input.Bytes()); n != lines {
					b.Fatalf("%d lines decoded, want %d", n, lines)
				}
			}
			perLine(b, lines, cpu)
		})
	}
}

// perLine reports the time of each of n lines, by the clock and in CPU
// time (the process's, since cpu): the machines these benchmarks run on
// are shared, and the CPU time varies less with what else runs.
func perLine(b *testing.B, n int, cpu time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/line")
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N*n), "cpu-ns/line")
}

// floorRecord is a `deal` record of either game as a typed encoding/json
// decode reads it.
type floorRecord struct {
	Unit     string    `json:"unit"`
	Game     string    `json:"game"`
	Stake    string    `json:"stake"`
	Cups     [3][5]int `json:"cups"`
	Roulette struct {
		Number  int `json:"number"`
		Amounts struct {
			Parity, Color, Half, Number string
		} `json:"amounts"`
		Bets struct {
			Parity, Color, Half string
			Number              int
		} `json:"bets"`
	} `json:"roulette"`
	Craps [3]struct {
		Dice   [2]int `json:"dice"`
		Amount string `json:"amount"`
	} `json:"craps"`
	Poker struct {
		Hand      []string `json:"hand"`
		Community []string `json:"community"`
	} `json:"poker"`
	Jackpot struct {
		Reels [3]string `json:"reels"`
		Bonus string    `json:"bonus"`
	} `json:"jackpot"`
	Prize  string `json:"prize"`
	Forced bool   `json:"forced"`
}

// floorDecode decodes the records with one typed decoder, and returns how
// many it read.
func floorDecode(b *testing.B, input []byte) int {
	dec := json.NewDecoder(bytes.NewReader(input))
	var r floorRecord
	n := 0
	for {
		err := dec.Decode(&r)
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// BenchmarkPrizemap writes the map of a whole Vegas block as CSV, beside
// the floor: drawing the block's 1 500 000 units and dealing each ticket
// from its own stream, what any map of its splits must do. The ratio
// prizemap/floor is the cost of scoring each ticket's surfaces and writing
// its line.
func BenchmarkPrizemap(b *testing.B) {
	const units = 1_500_000
	b.Run("csv", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			env := Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
			if code := Run(env, []string{"prizemap", "--game", "vegas", "--block", "1", "--seed", "1"}); code != ExitOK {
				b.Fatalf("prizemap: exit %d", code)
			}
		}
		perLine(b, units, cpu)
	})
	b.Run("floor", func(b *testing.B) {
		table := vegas.Table()
		bs := game.SeedFrom(1).Block(vegas.Name, vegas.Price(), 1)
		dealer := vegas.NewDealer()
		var pcg rand.PCG
		src := game.PCGSource(&pcg)
		var t vegas.Ticket
		cpu := cpuTime()
		for b.Loop() {
			blk := game.NewBlock(table, 1, bs)
			for {
				serial, tier, ok := blk.Draw()
				if !ok {
					break
				}
				bs.SeedUnit(&pcg, serial)
				dealer.Deal(src, tier, &t)
			}
		}
		perLine(b, units, cpu)
	})
}
