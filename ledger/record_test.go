package ledger

import (
	"reflect"
	"testing"
)

// testPurchase is a purchase as a store records it.
func testPurchase() Purchase {
	return Purchase{Account: "alice", Number: 3, Unit: "yams:1:2:17", Block: 2, Serial: 17, Tier: 4,
		Stake: 100, Prize: 200, Before: 1000, After: 1100,
		Layout: `{"unit":"yams:1:2:17","game":"yams","stake":"1","cups":[[3,6,1,2,5],[1,2,3,5,6],[6,5,2,3,2]],"prize":"2"}`,
		At:     1_796_000_000_123_456_789}
}

// changes returns a copy of v for each of its fields, that field changed,
// by field name: strings get a letter, numbers one more. It fails the test
// on a field of a kind it cannot change, so that a field added is changed
// too.
func changes[T any](t *testing.T, v T) map[string]T {
	t.Helper()
	out := map[string]T{}
	typ := reflect.TypeOf(v)
	for i := range typ.NumField() {
		c := v
		f := reflect.ValueOf(&c).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Int, reflect.Int64:
			f.SetInt(f.Int() + 1)
		default:
			t.Fatalf("%s.%s: a %s, that changes does not change", typ.Name(), typ.Field(i).Name, f.Kind())
		}
		out[typ.Field(i).Name] = c
	}
	return out
}

// TestLinkBindsEveryField: changing any field of a purchase or a deposit,
// the hash before it or its place changes its hash.
func TestLinkBindsEveryField(t *testing.T) {
	var prev Hash
	prev[0] = 1
	p := testPurchase()
	base := Link(testSeal, prev, 5, p)
	if base != Link(testSeal, prev, 5, p) {
		t.Fatal("Link is not a function of its arguments")
	}
	for name, c := range changes(t, p) {
		if Link(testSeal, prev, 5, c) == base {
			t.Errorf("purchase: %s changed, hash the same", name)
		}
	}
	d := Deposit{Account: "alice", N: 2, Amount: 5000, After: 3, At: 1_796_000_000_000_000_000}
	dh := Link(testSeal, prev, 5, d)
	for name, c := range changes(t, d) {
		if Link(testSeal, prev, 5, c) == dh {
			t.Errorf("deposit: %s changed, hash the same", name)
		}
	}
	other := prev
	other[31] = 9
	if Link(testSeal, other, 5, p) == base {
		t.Error("prev changed, hash the same")
	}
	if Link(testSeal, prev, 6, p) == base || Link(testSeal, prev, 4, p) == base {
		t.Error("seq changed, hash the same")
	}
	// A deposit and a purchase never hash alike, nor one field's bytes
	// moved to the next: the encoding is length-prefixed.
	a := p
	a.Unit, a.Label = "yams:1:2:1", "7"
	b := p
	b.Unit, b.Label = "yams:1:2:17", ""
	if Link(testSeal, prev, 5, a) == Link(testSeal, prev, 5, b) {
		t.Error("bytes moved from one field to the next, hash the same")
	}
}

// TestGenesis: an account's chain starts from its emission and its name.
func TestGenesis(t *testing.T) {
	var seal, other Hash
	seal[0], other[0] = 1, 2
	g := Genesis(seal, "alice")
	if g != Genesis(seal, "alice") {
		t.Fatal("Genesis is not a function of its arguments")
	}
	if Genesis(other, "alice") == g || Genesis(seal, "alicf") == g || Genesis(seal, "") == g {
		t.Error("another emission or account, the same genesis")
	}
	if g == Link(testSeal, seal, 0, Deposit{Account: "alice"}) {
		t.Error("a genesis hashes as a record")
	}
}

// TestSealHash: each field of a seal changes its hash.
func TestSealHash(t *testing.T) {
	s := Seal{Format: Format, Tables: "yams:1 …", OpenBlocks: 1, Created: 1, Key: PublicTestKey().Public()}
	base := s.Hash()
	changed := []Seal{s, s, s, s, s, s, s}
	changed[0].Format++
	changed[1].Commitment[0] = 1
	changed[2].Tables += "x"
	changed[3].QA = true
	changed[4].OpenBlocks++
	changed[5].Created++
	changed[6].Key = KeyFromSeed([32]byte{1}).Public()
	for i, c := range changed {
		if c.Hash() == base {
			t.Errorf("seal change %d: hash the same", i)
		}
	}
	var back Seal
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := back.UnmarshalJSON(b); err != nil || back.Hash() != base {
		t.Errorf("the seal's copy read back: %v, hash %s, want %s", err, back.Hash(), base)
	}
}
