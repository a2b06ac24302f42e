package journal_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
	"tapis/session"
	"tapis/store"
	"tapis/store/journal"
)

// signedJournal plays a journal of 130 units on small tables (two blocks
// of Yam's closed, their seeds revealed), each shown but the last, and
// returns its path and lines.
func signedJournal(t *testing.T) (string, []string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	s := open(t, path, game.SeedFrom(11))
	play(t, s, 130)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.SplitAfter(string(good), "\n")
}

// index returns the index of the first line holding all of subs, after
// from.
func index(t *testing.T, ls []string, from int, subs ...string) int {
	t.Helper()
	for i := from; i < len(ls); i++ {
		ok := true
		for _, s := range subs {
			ok = ok && strings.Contains(ls[i], s)
		}
		if ok {
			return i
		}
	}
	t.Fatalf("no line after %d holds %q", from, subs)
	return -1
}

// lastIndex returns the index of the last line holding sub, or -1.
func lastIndex(ls []string, sub string) int {
	for i := len(ls) - 1; i >= 0; i-- {
		if strings.Contains(ls[i], sub) {
			return i
		}
	}
	return -1
}

// field returns the value of a string member of a journal line.
func field(t *testing.T, line, name string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	s, _ := m[name].(string)
	return s
}

// TestTamperedJournals tampers a real signed journal in each way a hand
// on the file can, and checks that verify names the line with what is
// wrong, and that resuming refuses it. Each edit keeps the line a record
// that reads: the chain and the signatures tell it, whatever else does.
func TestTamperedJournals(t *testing.T) {
	path, lines := signedJournal(t)
	if rep := verify(t, path); !rep.OK() || rep.Closed != 2 || !rep.Key.Equal(ledger.PublicTestKey().Public()) || !rep.QA {
		t.Fatalf("the honest journal: %+v", rep)
	}
	notSigned := "not as the house signed it"
	cases := []struct {
		name string
		edit func(ls []string) ([]string, int) // the edited lines, and the line (from 1) to be named
		want string
	}{
		{"a prize raised", func(ls []string) ([]string, int) {
			i := index(t, ls, 0, `"kind":"buy"`, `"prize":"0"`, `"unit":"yams:1:1:`)
			ls[i] = strings.Replace(ls[i], `"prize":"0"`, `"prize":"5"`, 1)
			return ls, i + 1
		}, notSigned},
		{"a prize raised, every balance after it rewritten to match", func(ls []string) ([]string, int) {
			i := index(t, ls, 0, `"kind":"buy"`, `"prize":"0"`, `"unit":"yams:1:1:`)
			ls[i] = strings.Replace(ls[i], `"prize":"0"`, `"prize":"5000"`, 1)
			for j := i; j < len(ls) && ls[j] != ""; j++ {
				for _, name := range []string{"before", "after"} {
					if j == i && name == "before" {
						continue
					}
					if v := field(t, ls[j], name); v != "" {
						ls[j] = strings.Replace(ls[j], `"`+name+`":"`+v+`"`, `"`+name+`":"`+decimalAdd(t, v, 5000)+`"`, 1)
					}
				}
			}
			return ls, i + 1
		}, notSigned},
		{"the start balance raised", func(ls []string) ([]string, int) {
			ls[0] = strings.Replace(ls[0], `"balance":"1000"`, `"balance":"2000"`, 1)
			return ls, 1
		}, notSigned},
		{"a purchase deleted mid-file", func(ls []string) ([]string, int) {
			i := index(t, ls, 40, `"kind":"buy"`)
			return append(ls[:i:i], ls[i+1:]...), i + 1 // the line after it takes its number
		}, "does not follow line"},
		{"a purchase and its shown line deleted mid-file", func(ls []string) ([]string, int) {
			i := index(t, ls, 40, `"kind":"buy"`)
			return append(ls[:i:i], ls[i+2:]...), i + 1
		}, "does not follow line"},
		{"a mark changed to another unit", func(ls []string) ([]string, int) {
			i := index(t, ls, 10, `"kind":"shown"`)
			last := field(t, ls[lastIndex(ls, `"kind":"buy"`)], "unit") // never shown
			ls[i] = strings.Replace(ls[i], `"unit":"`+field(t, ls[i], "unit")+`"`, `"unit":"`+last+`"`, 1)
			return ls, i + 1
		}, notSigned},
		{"a commitment changed", func(ls []string) ([]string, int) {
			i := index(t, ls, 1, `"kind":"commit"`)
			ls[i] = strings.Replace(ls[i], field(t, ls[i], "commitment"), strings.Repeat("ab", 32), 1)
			return ls, i + 1
		}, notSigned},
		{"a revealed seed changed", func(ls []string) ([]string, int) {
			i := index(t, ls, 1, `"kind":"reveal"`)
			ls[i] = strings.Replace(ls[i], field(t, ls[i], "block_seed"), strings.Repeat("cd", 32), 1)
			return ls, i + 1
		}, notSigned},
		{"the seal's QA flag changed", func(ls []string) ([]string, int) {
			ls[0] = strings.Replace(ls[0], `"qa":true`, `"qa":false`, 1)
			return ls, 1
		}, "the seal is not signed by the key sealed in it"},
		{"the seal's open blocks changed", func(ls []string) ([]string, int) {
			ls[0] = strings.Replace(ls[0], `"open_blocks":1`, `"open_blocks":2`, 1)
			return ls, 1
		}, "the seal is not signed by the key sealed in it"},
		{"the seal's lot tables changed", func(ls []string) ([]string, int) {
			ls[0] = strings.Replace(ls[0], `{\"prize\":\"5000\",\"count\":1}`, `{\"prize\":\"5000\",\"count\":2}`, 1)
			return ls, 1
		}, "the seal is not signed by the key sealed in it"},
		{"the seal's key changed", func(ls []string) ([]string, int) {
			other := ledger.KeyFromSeed([32]byte{7}).Public().String()
			ls[0] = strings.Replace(ls[0], ledger.PublicTestKey().Public().String(), other, 1)
			return ls, 1
		}, "the seal is not signed by the key sealed in it"},
		{"the seed's commitment in the seal changed", func(ls []string) ([]string, int) {
			var seal struct {
				Commitment string `json:"commitment"`
			}
			start := ls[0][strings.Index(ls[0], `"seal":`)+7:]
			json.NewDecoder(strings.NewReader(start)).Decode(&seal)
			ls[0] = strings.Replace(ls[0], seal.Commitment, strings.Repeat("ef", 32), 1)
			return ls, 1
		}, "the seal is not signed by the key sealed in it"},
		{"a shown line moved down", func(ls []string) ([]string, int) {
			i := index(t, ls, 10, `"kind":"shown"`)
			moved := ls[i]
			ls = append(ls[:i:i], ls[i+1:]...)
			ls = append(ls[:i+3:i+3], append([]string{moved}, ls[i+3:]...)...)
			return ls, i + 1 // the line that took its place no longer follows the one before it
		}, "does not follow line"},
		{"a purchase moved down", func(ls []string) ([]string, int) {
			i := index(t, ls, 10, `"kind":"buy"`)
			moved := ls[i]
			ls = append(ls[:i:i], ls[i+1:]...)
			at := i + 5
			ls = append(ls[:at:at], append([]string{moved}, ls[at:]...)...)
			return ls, at + 1 // where it stands now
		}, "out of place"},
		{"a line copied", func(ls []string) ([]string, int) {
			i := index(t, ls, 10, `"kind":"shown"`)
			at := i + 6
			return append(ls[:at:at], append([]string{ls[i]}, ls[at:]...)...), at + 1
		}, "out of place"},
		{"a line inserted, chained but unsigned", func(ls []string) ([]string, int) {
			i := index(t, ls, 10, `"kind":"shown"`)
			forged := strings.Replace(ls[i], field(t, ls[i], "prev"), field(t, ls[i+1], "prev"), 1)
			at := i + 1
			return append(ls[:at:at], append([]string{forged}, ls[at:]...)...), at + 1
		}, notSigned},
		{"a forged last line", func(ls []string) ([]string, int) {
			n := len(ls)
			if ls[n-1] == "" {
				n--
			}
			last := ls[lastIndex(ls, `"kind":"buy"`)] // the unit never shown
			forged := `{"kind":"shown","time":"2026-11-29T21:00:00Z","unit":"` + field(t, last, "unit") + `","prev":"` + strings.Repeat("00", 32) + `","sig":"` + strings.Repeat("11", 64) + `"}` + "\n"
			return append(ls[:n:n], forged), n + 1
		}, "not signed by the house as it stands"},
		{"a signature replaced by another line's", func(ls []string) ([]string, int) {
			i := index(t, ls, 10, `"kind":"buy"`)
			ls[i] = strings.Replace(ls[i], field(t, ls[i], "sig"), field(t, ls[i+1], "sig"), 1)
			return ls, i + 1
		}, notSigned},
	}
	for _, c := range cases {
		ls, at := c.edit(append([]string{}, lines...))
		os.WriteFile(path, []byte(strings.Join(ls, "")), 0o600)
		rep := verify(t, path)
		found := false
		for _, p := range rep.Problems {
			found = found || p.Line == at && strings.Contains(p.Msg, c.want)
		}
		if !found {
			t.Errorf("%s: verify did not say %q at line %d: %v", c.name, c.want, at, rep.Problems)
		}
		if s, err := session.Open(session.Options{Journal: path, Tables: store.SmallTables, QA: true, Key: ledger.PublicTestKey()}); err == nil {
			s.Close()
			t.Errorf("%s: resuming accepted it", c.name)
		}
	}
}

// decimalAdd adds n euros to an amount a journal writes.
func decimalAdd(t *testing.T, v string, n int64) string {
	t.Helper()
	d, err := game.ParsePlainAmount(v)
	if err != nil {
		t.Fatal(err)
	}
	return d.Add(decimal.NewFromInt(n)).String()
}

// TestDeletedTail: a journal cut after a whole line verifies, as the
// journal it was when it was that long: no outside head is given. The
// receipt of a purchase cut off still checks against the house's key:
// whoever holds it shows the purchase that the journal no longer holds.
func TestDeletedTail(t *testing.T) {
	path, lines := signedJournal(t)
	s, err := journal.Open(journal.Options{Path: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables, Account: session.DefaultAccount, QA: true})
	if err != nil {
		t.Fatal(err)
	}
	receipts, err := s.Receipts(t.Context(), session.DefaultAccount)
	s.Close()
	if err != nil || len(receipts) != 130 {
		t.Fatalf("%d receipts, %v", len(receipts), err)
	}
	last := lastIndex(lines, `"kind":"buy"`)
	os.WriteFile(path, []byte(strings.Join(lines[:last], "")), 0o600)
	if rep := verify(t, path); !rep.OK() || rep.Purchases != 129 {
		t.Fatalf("the journal cut before its last purchase: %+v", rep)
	}
	kept := receipts[len(receipts)-1]
	if err := kept.Check(ledger.PublicTestKey().Public()); err != nil || kept.Number != 130 {
		t.Errorf("the receipt of the purchase cut off: %v", err)
	}
}
