package ledger

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// testSeal is the seal the test receipts' emission has.
var testSeal = Seal{Format: Format, Tables: "yams", OpenBlocks: 1, Created: 1, Key: PublicTestKey().Public()}.Hash()

// signedReceipt returns the receipt of testPurchase recorded at place seq
// of its account's chain, signed by key: after the genesis for the first
// place, after some hash otherwise.
func signedReceipt(key Key, seq int64) Receipt {
	p := testPurchase()
	prev := Genesis(testSeal, p.Account)
	if seq > 1 {
		prev = Link(testSeal, prev, seq-1, Deposit{Account: p.Account, N: 1, Amount: 1000, At: p.At - 1})
	}
	h := Link(testSeal, prev, seq, p)
	return NewReceipt(p, seq, testSeal, prev, h, key.Sign(h), key.Public())
}

// TestReceiptChecks: a receipt signed by the house checks against its key;
// written as a line and read back, it still does.
func TestReceiptChecks(t *testing.T) {
	house := PublicTestKey()
	for _, seq := range []int64{1, 2, 40} {
		r := signedReceipt(house, seq)
		if err := r.Check(house.Public()); err != nil {
			t.Fatalf("place %d: %v", seq, err)
		}
		toks, err := Read(strings.NewReader(r.String() + "\n"))
		if err != nil || len(toks.Receipts) != 1 {
			t.Fatalf("place %d: read back %d receipts: %v", seq, len(toks.Receipts), err)
		}
		if err := toks.Receipts[0].Check(house.Public()); err != nil {
			t.Errorf("place %d, read back: %v", seq, err)
		}
		if !sameReceipt(r, toks.Receipts[0]) {
			t.Errorf("place %d: read back\n%s\nwant\n%s", seq, toks.Receipts[0], r)
		}
	}
	r := signedReceipt(house, 2)
	for _, want := range []string{`{"receipt":1,"account":"alice","seq":2,"purchase":3,"unit":"yams:1:2:17","block":2,"serial":17,`,
		`"tier":4,"stake":"1","prize":"2","before":"10","after":"11","at":"2026-11-30T`, `"layout":{"unit":"yams:1:2:17",`,
		`"key":"ssh-ed25519 AAAA`} {
		if !strings.Contains(r.String(), want) {
			t.Errorf("no %s in %s", want, r)
		}
	}
}

// TestReceiptRefusesChanges: each field changed is refused, with what is
// wrong in one line.
func TestReceiptRefusesChanges(t *testing.T) {
	house := PublicTestKey()
	other := KeyFromSeed([32]byte{9})
	const changed = "its hash is not the one its purchase gives: the receipt was changed"
	cases := []struct {
		name   string
		seq    int64
		change func(*Receipt)
		want   string
	}{
		{"format", 2, func(r *Receipt) { r.Version = 2 }, "a receipt of format 2, this tapis reads 1"},
		{"account", 2, func(r *Receipt) { r.Account = "bob" }, changed},
		{"account, first place", 1, func(r *Receipt) { r.Account = "bob" }, "the account's first record does not start from its emission"},
		{"place", 2, func(r *Receipt) { r.Seq = 3 }, changed},
		{"place 0", 2, func(r *Receipt) { r.Seq = 0 }, "place 0, purchase 3: they count from 1"},
		{"purchase number", 2, func(r *Receipt) { r.Number = 4 }, changed},
		{"unit", 2, func(r *Receipt) { r.Unit = "yams:1:2:18" }, changed},
		{"block", 2, func(r *Receipt) { r.Block = 3 }, changed},
		{"serial", 2, func(r *Receipt) { r.Serial = 18 }, changed},
		{"label", 2, func(r *Receipt) { r.Label = "QA" }, changed},
		{"tier", 2, func(r *Receipt) { r.Tier = 0 }, changed},
		{"stake", 2, func(r *Receipt) { r.Stake = decimal.NewFromInt(2) }, changed},
		{"stake in part of a cent", 2, func(r *Receipt) { r.Stake = decimal.RequireFromString("1.005") }, "its stake is not a whole number of cents"},
		{"prize", 2, func(r *Receipt) { r.Prize = decimal.NewFromInt(5000) }, changed},
		{"balance before", 2, func(r *Receipt) { r.Before = decimal.NewFromInt(1000) }, changed},
		{"balance after", 2, func(r *Receipt) { r.After = decimal.NewFromInt(5010) }, changed},
		{"time", 2, func(r *Receipt) { r.At = r.At.Add(time.Nanosecond) }, changed},
		{"layout", 2, func(r *Receipt) { r.Layout = bytes.Replace(r.Layout, []byte("[3,6,1,2,5]"), []byte("[6,6,6,6,6]"), 1) }, changed},
		{"seal", 2, func(r *Receipt) { r.Seal[0]++ }, changed},
		{"seal, first place", 1, func(r *Receipt) { r.Seal[0]++ }, "the account's first record does not start from its emission"},
		{"prev", 2, func(r *Receipt) { r.Prev[5]++ }, changed},
		{"prev, first place", 1, func(r *Receipt) { r.Prev[5]++ }, "the account's first record does not start from its emission"},
		{"hash", 2, func(r *Receipt) { r.Hash[0]++ }, changed},
		{"signature", 2, func(r *Receipt) { r.Sig[10]++ }, "its signature is not the house key's"},
		{"key named", 2, func(r *Receipt) { r.Key = other.Public().String() }, "it names the house key " + other.Public().Fingerprint() + ", not the one given (" + house.Public().Fingerprint() + ")"},
		{"key named, unreadable", 2, func(r *Receipt) { r.Key = "ssh-ed25519 nope" }, "the key it names: not a public key"},
	}
	for _, c := range cases {
		r := signedReceipt(house, c.seq)
		c.change(&r)
		err := r.Check(house.Public())
		if err == nil {
			t.Errorf("%s changed: the receipt checks", c.name)
			continue
		}
		if err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s changed: %q, want %q", c.name, err, c.want)
		}
	}
	// The key field left out, the signature still checks against the key given.
	r := signedReceipt(house, 2)
	r.Key = ""
	if err := r.Check(house.Public()); err != nil {
		t.Errorf("no key named: %v", err)
	}
}

// TestReceiptWrongKey: a receipt checked against another key is refused,
// and so is one another key signed, naming itself the house's key.
func TestReceiptWrongKey(t *testing.T) {
	house, other := PublicTestKey(), KeyFromSeed([32]byte{9})
	r := signedReceipt(house, 2)
	if err := r.Check(other.Public()); err == nil || !strings.Contains(err.Error(), "it names the house key "+house.Public().Fingerprint()) {
		t.Errorf("checked against another key: %v", err)
	}
	r.Key = ""
	if err := r.Check(other.Public()); err == nil || err.Error() != "its signature is not the house key's" {
		t.Errorf("checked against another key, none named: %v", err)
	}
	forged := signedReceipt(other, 2)
	if err := forged.Check(house.Public()); err == nil {
		t.Error("a receipt signed by another key checks against the house's")
	}
	forged.Key = house.Public().String()
	if err := forged.Check(house.Public()); err == nil || err.Error() != "its signature is not the house key's" {
		t.Errorf("a forged receipt naming the house's key: %v", err)
	}
}

// TestReadPrettyReceipt: a receipt written again by a pretty-printer (jq
// ., Python's json.dumps) is read, its layout compacted, and checks.
func TestReadPrettyReceipt(t *testing.T) {
	house := PublicTestKey()
	r := signedReceipt(house, 2)
	line := r.String()
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(line), "", "  "); err != nil {
		t.Fatal(err)
	}
	spaced := strings.NewReplacer(`":`, `": `, `,"`, `, "`).Replace(line)
	// The first key on the brace's line, the rest below it.
	wrapped := strings.Replace(line, `"account"`, "\n  \"account\"", 1)
	wrapped = strings.Replace(wrapped, `"layout":{`, "\n  \"layout\": {\n    ", 1)
	for name, text := range map[string]string{"indented": indented.String(), "spaced": spaced, "wrapped": wrapped,
		"indented in a log": "kept for later:\n" + indented.String() + "\nthat's all\n"} {
		toks, err := Read(strings.NewReader(text))
		if err != nil || len(toks.Receipts) != 1 {
			t.Errorf("%s: %d receipts, %v:\n%s", name, len(toks.Receipts), err, text)
			continue
		}
		if err := toks.Receipts[0].Check(house.Public()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if got := toks.Receipts[0].String(); got != line {
			t.Errorf("%s: written again\n%s\nwant\n%s", name, got, line)
		}
	}
}

// TestReadMixed: receipts and heads among a seller's log lines and other
// JSON, each with the line it starts on; the rest skipped.
func TestReadMixed(t *testing.T) {
	house := PublicTestKey()
	r1, r2 := signedReceipt(house, 1), signedReceipt(house, 2)
	head := Head{N: 3, Seal: testSeal, Seller: "host 12", At: 5}
	tok := head.Token(house.Sign(head.Statement()))
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(r2.String()), "  ", "\t"); err != nil {
		t.Fatal(err)
	}
	text := strings.Join([]string{
		"2026/11/30 20:00:00 tapis serve: house key " + house.Public().String(), // 1
		"2026/11/30 20:00:02 tapis serve: head " + tok.String(),                 // 2
		"",                         // 3
		r1.String(),                // 4
		`{"receipts":2}`,           // 5: another key
		`{"game":"yams","head":1}`, // 6: not its first key
		"{",                        // 7: an object that is none
		`  "game": "yams"`,         // 8
		"}",                        // 9
		"  " + indented.String(),   // 10 on: spread over lines
		"a note: " + tok.String(),  // and a head after it
		"{ \"head\" : 3, \"seal\": \"" + tok.Seal.String() + "\", \"hash\": \"" + tok.Hash.String() + "\", \"sig\": \"" + tok.Sig.String() + "\" }",
	}, "\n")
	toks, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(toks.Receipts) != 2 || len(toks.Heads) != 3 {
		t.Fatalf("%d receipts and %d heads, want 2 and 3", len(toks.Receipts), len(toks.Heads))
	}
	if !sameReceipt(toks.Receipts[0], r1) || !sameReceipt(toks.Receipts[1], r2) {
		t.Error("the receipts read are not those written")
	}
	last := 10 + strings.Count(indented.String(), "\n") + 1
	if got, want := toks.ReceiptLines, []int{4, 10}; !slices.Equal(got, want) {
		t.Errorf("receipts on lines %v, want %v", got, want)
	}
	if got, want := toks.HeadLines, []int{2, last, last + 1}; !slices.Equal(got, want) {
		t.Errorf("heads on lines %v, want %v", got, want)
	}
	for i, h := range toks.Heads {
		if h != tok {
			t.Errorf("head %d read %v, want %v", i, h, tok)
		}
		if err := h.Check(house.Public()); err != nil {
			t.Errorf("head %d: %v", i, err)
		}
	}
	bad := tok
	bad.Hash[0]++
	if err := bad.Check(house.Public()); err == nil || err.Error() != "head 3: its signature is not the house key's" {
		t.Errorf("a head changed: %v", err)
	}
}

// TestReadRefuses: what starts a receipt or head and does not read is
// named by its line, in one short line; reading stops at the bounds.
func TestReadRefuses(t *testing.T) {
	good := signedReceipt(PublicTestKey(), 2).String()
	huge := strings.Replace(good, `"stake":"1"`, `"stake":"1e9999"`, 1)
	long := strings.Replace(good, `"account":"alice"`, `"account":"`+strings.Repeat("a", 300)+`"`, 1)
	cases := []struct{ name, text, want string }{
		{"not JSON", "log\n" + `{"receipt":1,"seq":"two"}`, "line 2: a receipt that does not read: json: cannot unmarshal"},
		{"a bad hash", `{"head":1,"hash":"00","sig":"00"}`, "line 1: a head that does not read: a hash is 64 hexadecimal digits"},
		{"no end", good[:200] + "\n\n", "line 1: a receipt that does not end"},
		{"spread, no end", "{\n  \"receipt\": 1,\n  \"account\": \"alice\"\n", "line 1: a receipt that does not end"},
		{"a huge amount", huge, "line 1: a receipt that does not read: its stake is not a whole number of cents"},
		{"a long account", long, "line 1: a receipt that does not read: its account is longer than 256 bytes"},
		{"an over-long line", good + "\n" + strings.Repeat("x", MaxLine+1) + "\n" + good, "line 2: longer than 65536 bytes"},
		{"an over-long spread token", "{\n\"receipt\": 1,\n" + strings.Repeat("\"x\": 1,\n", MaxLine/7), "line 1: a receipt that does not end within 65536 bytes"},
		{"a quoted line", `{"receipt":1,"at":"` + strings.Repeat("9", 2000) + `"}`, "line 1: a receipt that does not read: "},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.text))
		if err == nil {
			t.Errorf("%s: read", c.name)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 300 {
			t.Errorf("%s: %q, want one short line starting %q", c.name, err, c.want)
		}
	}
	// More tokens than the limit: refused at the first one past it.
	head := HeadToken{N: 1}.String()
	if _, err := read(strings.NewReader(strings.Repeat(head+"\n", 4)), 3); err == nil || err.Error() != "line 4: more than 3 receipts and heads in one file" {
		t.Errorf("4 heads, 3 taken: %v", err)
	}
	if toks, err := read(strings.NewReader(strings.Repeat(head+"\n", 3)), 3); err != nil || len(toks.Heads) != 3 {
		t.Errorf("3 heads, 3 taken: %d, %v", len(toks.Heads), err)
	}
	// An endless line is not held: reading stops past MaxLine.
	z := &zeros{}
	if _, err := Read(z); err == nil || err.Error() != "line 1: longer than 65536 bytes" || z.n > 2*MaxLine {
		t.Errorf("an endless line: %v after %d bytes", err, z.n)
	}
}

// zeros is an endless line of zero bytes, counting what was read of it.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += len(p)
	return len(p), nil
}

// sameReceipt reports whether two receipts hold the same: amounts equal
// whatever their digits, times the same instant.
func sameReceipt(a, b Receipt) bool {
	return a.Version == b.Version && a.Account == b.Account && a.Seq == b.Seq && a.Number == b.Number &&
		a.Unit == b.Unit && a.Block == b.Block && a.Serial == b.Serial && a.Label == b.Label && a.Tier == b.Tier &&
		a.Stake.Equal(b.Stake) && a.Prize.Equal(b.Prize) && a.Before.Equal(b.Before) && a.After.Equal(b.After) &&
		a.At.Equal(b.At) && bytes.Equal(a.Layout, b.Layout) && a.Seal == b.Seal && a.Prev == b.Prev &&
		a.Hash == b.Hash && a.Sig == b.Sig && a.Key == b.Key
}

// TestHeadTokenIsNoOtherSignature: a receipt's hash and signature, or a
// real head's relabelled with another number or emission, are no head.
func TestHeadTokenIsNoOtherSignature(t *testing.T) {
	house := PublicTestKey()
	rc := signedReceipt(house, 2)
	if err := (HeadToken{N: 1, Seal: rc.Seal, Hash: rc.Hash, Sig: rc.Sig}).Check(house.Public()); err == nil {
		t.Error("a receipt's signature reads as a head's")
	}
	head := Head{N: 3, Seal: testSeal, Seller: "host 12", At: 5}
	tok := head.Token(house.Sign(head.Statement()))
	if err := tok.Check(house.Public()); err != nil {
		t.Fatal(err)
	}
	renumbered, other := tok, tok
	renumbered.N = 4
	other.Seal[0] ^= 1
	for _, bad := range []HeadToken{renumbered, other} {
		if bad.Check(house.Public()) == nil {
			t.Errorf("head %d of seal %s checks as the one signed", bad.N, bad.Seal)
		}
	}
}
