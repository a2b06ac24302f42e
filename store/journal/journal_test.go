package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
)

// TestFastRecordsAgree: whatever a line holds, reading a journal with one
// typed decode a line gives the records, and the layouts, that reading each
// line field by field gives: letter case, repeated names, nulls and
// numbers where a typed decode and a field-by-field reading part are all
// tried on a purchase of each game.
func TestFastRecordsAgree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	good := writeJournal(t, Options{Seed: game.SeedFrom(3), Balance: decimal.NewFromInt(100), Path: path, Key: ledger.PublicTestKey(), Now: clock()}, 4)
	jr := newJournalReader(strings.NewReader(string(good)), false)
	for l, ok, err := jr.next(); ok || err != nil; l, ok, err = jr.next() {
		if err != nil || l.Record.Kind == KindBuy && !l.read || !l.tail {
			t.Fatalf("line %d of an honest journal is not read with one typed decode, its chain's members as written: %v", l.N, err)
		}
	}
	edits := []struct{ old, new string }{
		{`"layout":{`, `"Layout":{`},
		{`"layout":{`, `"layout":null,"layout":{`},
		{`"layout":{`, `"layout":{"cups":[[1,1,1,1,1],[1,1,1,1,1],[1,1,1,1,1]]},"layout":{`},
		{`"layout":{`, `"layout":5,"x":{`},
		{`"layout":{`, `"layout":{"game":"yams","stake":"1","cups":[[6,6,6,6,6],[6,6,6,6,6],[6,6,6,6,6]]},"x":{`},
		{`"kind":"buy"`, `"KIND":"buy"`},
		{`"kind":"buy"`, `"kind":"buy","kind":"shown"`},
		{`"cups":[[`, `"cups":[[null,`},
		{`"cups":[[`, `"Cups":[[`},
		{`"stake":"1"`, `"stake":"1.00"`},
		{`"roulette":{`, `"roulette":{"number":5},"roulette":{`},
		{`"amount":"`, `"amount":null,"x":"`},
		{`"game":"vegas"`, `"game":"Vegas"`},
		{`"seq":`, `"seq":"`},
		{`}}`, `}} }`},
		{`"unit":"`, `"unit":"\u00e9`},
		{`"unit":"`, `"\u0075nit":"`},
		{`","sig":"`, `","Sig":"`},
		{`"prev":"`, `"prev":"0000000000000000000000000000000000000000000000000000000000000000","prev":"`},
		{`"time":"`, `"sig":"00","time":"`},
		{`"time":"`, `"prev":"00","time":"`},
		{`"}` + "\n", `" }` + "\n"},
	}
	for _, e := range edits {
		journal := strings.ReplaceAll(string(good), e.old, e.new)
		fast := newJournalReader(strings.NewReader(journal), false)
		slow := newJournalReader(strings.NewReader(journal), true)
		for {
			f, fok, ferr := fast.next()
			l, ok, err := slow.next()
			if fmt.Sprint(ferr) != fmt.Sprint(err) || fok != ok {
				t.Fatalf("%s: %v %v, field by field %v %v", e.new, fok, ferr, ok, err)
			}
			if !ok {
				break
			}
			fr, r := f.Record, l.Record
			fr.Layout, r.Layout = nil, nil
			if f.tail { // read as tapis writes them
				fr.Prev, fr.Sig = f.prevText(), f.sigText()
			}
			if f.N != l.N || !reflect.DeepEqual(fr, r) {
				t.Fatalf("%s: line %d: %+v, field by field %+v", e.new, l.N, fr, r)
			}
			if r.Kind != KindBuy {
				continue
			}
			fl, ferr := f.readLayout()
			sl, err := l.readLayout()
			if fmt.Sprint(ferr) != fmt.Sprint(err) || err == nil && !fl.Equal(sl) {
				t.Errorf("%s: line %d: layout %v, field by field %v", e.new, l.N, ferr, err)
			}
			if string(f.layoutJSON()) != string(l.layoutJSON()) { // what the line's hash covers
				t.Errorf("%s: line %d: layout written %s, field by field %s", e.new, l.N, f.layoutJSON(), l.layoutJSON())
			}
		}
		if fast.good != slow.good || fast.torn != slow.torn {
			t.Errorf("%s: %d good bytes, torn %d; field by field %d, %d", e.new, fast.good, fast.torn, slow.good, slow.torn)
		}
	}
}

// TestReadDecimal: the amounts a journal holds read as
// decimal.NewFromString reads them, to their exponent.
func TestReadDecimal(t *testing.T) {
	for _, s := range []string{"0", "5", "40000", "2.5", "2.50", "0.05", "007", "5.", ".5", "-5", "1e3", "+5", "1.2.3", "", "x",
		"123456789012345678", "1234567890123456789", "99999999999999999.9", "3.000"} {
		got, err := readDecimal(s)
		want, werr := decimal.NewFromString(s)
		if (err == nil) != (werr == nil) || err == nil && (got.Coefficient().Cmp(want.Coefficient()) != 0 || got.Exponent() != want.Exponent()) {
			t.Errorf("%q: %s (exponent %d) %v, want %s (exponent %d) %v", s, got, got.Exponent(), err, want, want.Exponent(), werr)
		}
	}
}

// TestFollows: a balance after follows from the balance before, the stake
// and the prize in cents as with decimals, whatever their exponents.
func TestFollows(t *testing.T) {
	amounts := []string{"0", "1", "2.5", "2.50", "0.05", "3", "97", "96.5", "99.5", "1000000", "0.001", "1e3", "-1", "123456789012345678", "5E-1"}
	for _, a := range amounts {
		for _, b := range amounts {
			for _, s := range amounts {
				for _, p := range []string{"0", "0.5", "5", "2.50"} {
					after, before, stake, prize := decimal.RequireFromString(a), decimal.RequireFromString(b), decimal.RequireFromString(s), decimal.RequireFromString(p)
					if got, want := follows(after, before, stake, prize), after.Equal(before.Sub(stake).Add(prize)); got != want {
						t.Errorf("%s = %s − %s + %s: %v, want %v", a, b, s, p, got, want)
					}
				}
			}
		}
	}
	if !follows(decimal.RequireFromString("98"), decimal.RequireFromString("100"), decimal.RequireFromString("3"), decimal.RequireFromString("1")) {
		t.Error("98 = 100 − 3 + 1 does not follow")
	}
}

// TestJournalPrivate: a new journal, which holds its master seed, is
// readable by its owner alone; one others may read is refused, named with
// its mode, and left as it is.
func TestJournalPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tapis.jsonl")
	s, err := Open(Options{Path: path, Key: ledger.PublicTestKey(), Balance: decimal.NewFromInt(100), Account: "local"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("a new journal: mode %v (%v), want 0600", fi.Mode(), err)
	}
	before, _ := os.ReadFile(path)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	_, err = Open(Options{Path: path, Key: ledger.PublicTestKey(), Balance: decimal.NewFromInt(100), Account: "local"})
	if want := "journal " + path + " can be read by others (mode 0640): chmod 600 " + path; err == nil || err.Error() != want {
		t.Errorf("a journal others may read: %v, want %q", err, want)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("the refused journal was changed")
	}
}

// prevText returns the line's Prev as the line writes it (or as
// lowercase hexadecimal digits, the same read).
func (l *Line) prevText() string {
	if l.tail {
		return l.prev.String()
	}
	return l.Record.Prev
}

// sigText returns the line's Sig as prevText does its Prev.
func (l *Line) sigText() string {
	if l.tail {
		return l.sig.String()
	}
	return l.Record.Sig
}
