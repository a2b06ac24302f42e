package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
	"tapis/store"
)

// rechain rewrites a journal's chain from line from on (numbered from 1),
// as a forger who knows the encodings but not the key would: every Prev
// after it is set to the link the line before it now gives.
func rechain(lines []string, from int) []string {
	st := newState(store.SmallTables, 0, &problems{})
	out := make([]string, len(lines))
	for i, text := range lines {
		if i+1 > from && text != "" {
			var r Record
			json.Unmarshal([]byte(text), &r)
			text = strings.Replace(text, `"prev":"`+r.Prev+`"`, `"prev":"`+st.links.head.String()+`"`, 1)
		}
		out[i] = text
		if text == "" {
			continue
		}
		l, _, _ := newJournalReader(strings.NewReader(text), false).next()
		l.N = i + 1
		st.scan(l)
	}
	return out
}

// TestRewrittenChain: a line changed and the chain after it rewritten to
// match, by a forger without the key, is named once, at the line changed,
// whether the lines since the last signature checked are few or reach past
// a check (checkEvery lines).
func TestRewrittenChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	good := writeJournal(t, Options{Seed: game.SeedFrom(5), Balance: decimal.NewFromInt(10_000), Path: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables, Now: clock()}, 600)
	lines := strings.SplitAfter(string(good), "\n")
	if len(lines) < checkEvery+100 {
		t.Fatalf("%d lines: too few to reach past a check", len(lines))
	}
	last := len(lines) - 1
	for !strings.Contains(lines[last], `"kind":"buy"`) {
		last--
	}
	for _, near := range []int{2, 300, checkEvery + 50, last} {
		ls := append([]string{}, lines...)
		i := near
		for !strings.Contains(ls[i], `"kind":"buy"`) {
			i++
		}
		at := i + 1
		// A purchase's time is hashed, and nothing else checks it: only
		// the chain can tell.
		old := ls[i][strings.Index(ls[i], `"time":"`):][:len(`"time":"2026-11-29T20:00:00`)]
		ls[i] = strings.Replace(ls[i], old, `"time":"2026-11-29T21:00:00`, 1)
		ls = rechain(ls, at)
		rep, err := Verify(strings.NewReader(strings.Join(ls, "")), store.SmallTables)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Problems) != 1 || rep.Problems[0].Line != at || !strings.Contains(rep.Problems[0].Msg, "not as the house signed it") {
			t.Errorf("line %d changed, the chain rewritten after it: %v", at, rep.Problems)
		}
	}
}

// TestReceipts: each purchase of a journal has its receipt, the same when
// the purchase is sold, retried, read back from the account and from the
// journal (Receipts), before and after the journal is taken up again; it
// checks against the house's key as the SQL store's receipts do, from its
// JSON too; the memory signs nothing.
func TestReceipts(t *testing.T) {
	ctx := context.Background()
	key := ledger.PublicTestKey()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	o := Options{Seed: game.SeedFrom(6), Balance: decimal.NewFromInt(100), Path: path, Key: key, Tables: store.SmallTables, Account: "local", Limit: 10, QA: true, Now: clock()}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	var sold []ledger.Receipt
	for i := range 8 {
		g, stake := pick(i)
		p := store.Purchase{Account: "local", Number: i + 1, Game: g, Stake: stake}
		if i == 7 {
			tier := 0
			p.Game, p.Stake, p.Force, p.Label = lottery.Yams(), decimal.NewFromInt(2), &lottery.Force{Tier: &tier}, "QA"
		}
		r, err := s.Sell(ctx, p)
		if err != nil || r.Signed == nil {
			t.Fatalf("purchase %d: %+v, %v", i+1, r, err)
		}
		if err := r.Signed.Check(key.Public()); err != nil || r.Signed.Number != i+1 || r.Signed.Seq != int64(i+2) || r.Signed.Unit != r.Op.Unit {
			t.Fatalf("purchase %d: receipt %+v: %v", i+1, r.Signed, err)
		}
		if i%3 != 2 {
			s.Shown(ctx, "local", r.Sold.Ref())
		}
		sold = append(sold, *r.Signed)
	}
	again, err := s.Sell(ctx, store.Purchase{Account: "local", Number: 3, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)})
	if err != nil || !again.Again || again.Signed == nil || !reflect.DeepEqual(*again.Signed, sold[2]) {
		t.Errorf("a retry: %+v, %v; want its receipt %+v", again.Signed, err, sold[2])
	}
	check := func(when string, s *Store) {
		got, err := s.Receipts(ctx, "local")
		if err != nil || !reflect.DeepEqual(got, sold) {
			t.Fatalf("%s: receipts %v\n%+v\nwant %+v", when, err, got, sold)
		}
		a, err := s.Account(ctx, "local", 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range append(a.Recent, a.Pending...) {
			if r.Signed == nil || !reflect.DeepEqual(*r.Signed, sold[r.Op.Seq-1]) {
				t.Errorf("%s: purchase %d in the account: %+v", when, r.Op.Seq, r.Signed)
			}
		}
	}
	check("sold", s)
	s.Close()
	s, err = Open(o)
	if err != nil {
		t.Fatal(err)
	}
	check("taken up", s)
	if _, err := s.Receipts(ctx, "bob"); err == nil {
		t.Error("the receipts of another account")
	}
	s.Close()

	var text bytes.Buffer
	for _, r := range sold {
		text.WriteString("a player's note: " + r.String() + "\n")
	}
	toks, err := ledger.Read(&text)
	if err != nil || len(toks.Receipts) != len(sold) {
		t.Fatalf("%d receipts read, %v", len(toks.Receipts), err)
	}
	for _, r := range toks.Receipts {
		if err := r.Check(key.Public()); err != nil {
			t.Errorf("receipt %d read back: %v", r.Number, err)
		}
		if err := r.Check(ledger.KeyFromSeed([32]byte{1}).Public()); err == nil {
			t.Errorf("receipt %d checks against another key", r.Number)
		}
	}

	m, err := Open(Options{Seed: game.SeedFrom(6), Balance: decimal.NewFromInt(100), Account: "local", Key: key})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Sell(ctx, store.Purchase{Account: "local", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)})
	if err != nil || r.Signed != nil {
		t.Errorf("the memory's purchase: %+v, %v", r.Signed, err)
	}
	if _, err := m.Receipts(ctx, "local"); err == nil || !strings.Contains(err.Error(), "signs nothing") {
		t.Errorf("the memory's receipts: %v", err)
	}
}

// TestJournalKeys: a journal on a file needs the house's key, and makes
// nothing without one; a key file is made for a new journal, private, with
// its public half beside it, and read for one that exists; a journal
// sealed by another key is refused as it is, and verify names it when told
// the house's key.
func TestJournalKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	o := Options{Seed: game.SeedFrom(7), Balance: decimal.NewFromInt(100), Path: path, Account: "local"}
	if _, err := Open(o); err == nil || err.Error() != "journal "+path+": a journal needs the house's key, to sign every line (--house-key FILE)" {
		t.Errorf("no key: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a journal was made without a key")
	}
	o.KeyFile = filepath.Join(dir, "keys", "house_ed25519")
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	info, err := os.Stat(o.KeyFile)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the key file made: %v, %v", info, err)
	}
	pub, err := ledger.ReadPublicKey(o.KeyFile + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	if s, err = Open(o); err != nil {
		t.Fatalf("taken up with its key file: %v", err)
	}
	s.Close()
	before, _ := os.ReadFile(path)
	other := Options{Path: path, Account: "local", Key: ledger.PublicTestKey()}
	if _, err := Open(other); err == nil || !strings.Contains(err.Error(), "it was sealed by the key "+pub.Fingerprint()+", not the house's "+ledger.PublicTestKey().Public().Fingerprint()) {
		t.Errorf("another key: %v", err)
	}
	if _, err := Open(Options{Path: path, Account: "local", KeyFile: filepath.Join(dir, "none")}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a key file that is not there, for a journal that is: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Error("a refused journal was changed")
	}
	rep, err := VerifyKey(bytes.NewReader(before), nil, ledger.PublicTestKey().Public())
	if err != nil || rep.OK() || !strings.Contains(rep.Problems[0].Msg, "sealed by the key "+pub.Fingerprint()) {
		t.Errorf("verify told another key: %+v, %v", rep, err)
	}
	if rep, err := VerifyKey(bytes.NewReader(before), nil, pub); err != nil || !rep.OK() || !rep.Key.Equal(pub) {
		t.Errorf("verify told its key: %+v, %v", rep, err)
	}
}

// TestHouseJournalSellsNoForcedUnit: a journal sealed as the house's
// (created without --qa) refuses a forced unit, and writes nothing of it;
// verify names one written in it by hand.
func TestHouseJournalSellsNoForcedUnit(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	s, err := Open(Options{Seed: game.SeedFrom(8), Balance: decimal.NewFromInt(100), Path: path, Key: ledger.PublicTestKey(), Account: "local"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before, _ := os.ReadFile(path)
	tier := 0
	_, err = s.Sell(ctx, store.Purchase{Account: "local", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1), Force: &lottery.Force{Tier: &tier}, Label: "QA"})
	if err == nil || !strings.Contains(err.Error(), "created without --qa") {
		t.Errorf("a forced unit: %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Error("the refused purchase was written")
	}
	forged := `{"kind":"buy","time":"2026-11-29T20:00:02Z","seq":1,"unit":"yams:1:QA:1","forced":true,"stake":"1","prize":"0","before":"100","after":"99","layout":{"game":"yams","stake":"1","cups":[[1,2,3,4,6],[1,2,3,4,6],[1,2,3,4,6]]}}` + "\n"
	rep, err := Verify(strings.NewReader(string(before)+forged), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range rep.Problems {
		found = found || p.Line == 2 && strings.Contains(p.Msg, "sealed as the house's")
	}
	if !found {
		t.Errorf("a forced unit in a house journal: %v", rep.Problems)
	}
}

// TestMemberValue: the value of a member, as a line writes it, is what a
// json.RawMessage of it holds.
func TestMemberValue(t *testing.T) {
	for _, text := range []string{
		`{"a":1,"layout":{"x":[1,{"y":"}"}],"s":"a\"b"},"z":2}`,
		` { "layout" : "a,}b\\" , "b" : [ ] } `,
		`{"b":{"layout":1},"layout":[1, 2]}`,
		`{"layout":true}`,
		`{"layout":-1.5e3}`,
		`{"a":"x"}`,
	} {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			t.Fatal(err)
		}
		want, has := m["layout"]
		got, ok := memberValue([]byte(text), "layout")
		if ok != has || !bytes.Equal(got, want) {
			t.Errorf("%s: %q %v, want %q %v", text, got, ok, want, has)
		}
	}
}
