package ledger

import (
	"crypto/sha256"
	"testing"
)

// benchPurchase is a purchase as the store records one, its layout a
// Vegas ticket's length.
var benchPurchase = Purchase{Account: "SHA256:zIvkl+GCNgZB074pp0H5xyYGta/fQD6r0/UnTWzxSoM", Number: 12, Unit: "vegas:3:1:48213",
	Block: 1, Serial: 48213, Tier: 3, Stake: 300, Prize: 1000, Before: 10000, After: 10700, At: 1764620000000000000,
	Layout: string(make([]byte, 420))}

// BenchmarkLink hashes a purchase into its account's chain: what every
// sale and verify pay for each record.
func BenchmarkLink(b *testing.B) {
	var seal, prev Hash
	for b.Loop() {
		prev = Link(seal, prev, 7, benchPurchase)
	}
}

// BenchmarkFloorSHA256 is Link's floor: one SHA-256 of as many bytes as a
// purchase's record and of its layout.
func BenchmarkFloorSHA256(b *testing.B) {
	buf := make([]byte, 200)
	layout := []byte(benchPurchase.Layout)
	for b.Loop() {
		sha256.Sum256(layout)
		sha256.Sum256(buf)
	}
}

// BenchmarkSign signs a record's hash: the house's cost of a purchase.
func BenchmarkSign(b *testing.B) {
	k := PublicTestKey()
	var h Hash
	for b.Loop() {
		k.Sign(h)
	}
}
