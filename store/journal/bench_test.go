package journal_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
	"tapis/session"
	"tapis/store/journal"
)

// BenchmarkJournal takes up (open) and checks (verify) journals of 1 000,
// 10 000 and 100 000 purchases, beside the floor: a typed encoding/json
// decode of the same file, one value a line. The ratio open/floor is the
// cost of everything a journal is checked for beyond reading it.
func BenchmarkJournal(b *testing.B) {
	for _, n := range []int{1000, 10_000, 100_000} {
		path := benchJournal(b, n)
		b.Run(fmt.Sprintf("open/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				s, err := session.Open(session.Options{Journal: path, Key: ledger.PublicTestKey()})
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
			perPurchase(b, n, cpu)
		})
		b.Run(fmt.Sprintf("verify/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				rep, err := journal.Verify(f, nil)
				f.Close()
				if err != nil || !rep.OK() || rep.Purchases != n {
					b.Fatalf("verify: %+v, %v", rep, err)
				}
			}
			perPurchase(b, n, cpu)
		})
		b.Run(fmt.Sprintf("floor/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuTime()
			for b.Loop() {
				if got := floorDecode(b, path); got != n {
					b.Fatalf("%d purchases decoded, want %d", got, n)
				}
			}
			perPurchase(b, n, cpu)
		})
	}
}

// perPurchase reports the time of each purchase of a journal of n, by the
// clock and in CPU time (the process's, since cpu): the machines these
// benchmarks run on are shared, and the CPU time varies less with what
// else runs.
func perPurchase(b *testing.B, n int, cpu time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/purchase")
	b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N*n), "cpu-ns/purchase")
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// floorRecord is a journal line as a typed encoding/json decode reads it,
// the layout of either game included.
type floorRecord struct {
	Kind       string    `json:"kind"`
	Time       time.Time `json:"time"`
	Version    int       `json:"v"`
	Seed       string    `json:"seed"`
	Balance    string    `json:"balance"`
	Block      string    `json:"block"`
	Commitment string    `json:"commitment"`
	BlockSeed  string    `json:"block_seed"`
	Seq        int       `json:"seq"`
	Unit       string    `json:"unit"`
	Forced     bool      `json:"forced"`
	Stake      string    `json:"stake"`
	Prize      string    `json:"prize"`
	Before     string    `json:"before"`
	After      string    `json:"after"`
	Layout     struct {
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
	} `json:"layout"`
}

// floorDecode decodes a journal with one typed decoder, and returns how
// many purchases it holds.
func floorDecode(b *testing.B, path string) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
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
		if r.Kind == journal.KindBuy {
			n++
		}
	}
}

// benchJournal writes a journal of n purchases with the session's own Buy,
// alternating Yam's at 1 € and Vegas, each unit shown as the game shows it,
// and returns its path in the benchmark's directory. It is written in a
// tmpfs when there is one (/dev/shm): each record is synced, which costs a
// disk's flush elsewhere.
func benchJournal(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	work := dir
	if shm, err := os.MkdirTemp("/dev/shm", "tapis-bench-"); err == nil {
		defer os.RemoveAll(shm)
		work = shm
	}
	path := filepath.Join(work, "j.jsonl")
	s, err := session.Open(session.Options{Seed: game.SeedFrom(1), Balance: decimal.NewFromInt(1_000_000_000), Journal: path, Key: ledger.PublicTestKey()})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		g, stake := pick(i)
		sold, _, err := s.Buy(g, stake, nil, "")
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Shown(sold.Ref()); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "j.jsonl")
	if work != dir {
		if err := copyFile(out, path); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC() // what writing it left is not the measure's to collect
	return out
}

// copyFile copies the file at from to a new file at to, synced, readable
// by its owner alone as a journal must be.
func copyFile(to, from string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil { // on disk before it is timed, not while
		out.Close()
		return err
	}
	return out.Close()
}
