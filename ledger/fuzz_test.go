package ledger

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzRead reads anything as receipts and heads: no panic, no more tokens
// than lines, and every receipt and head read writes again (String) as a
// line that reads back the same, which Check takes without panicking. Its
// seed corpus (testdata/fuzz/FuzzRead) holds a real receipt line, a
// seller's log line with a head, a receipt spread over lines and garbage.
func FuzzRead(f *testing.F) {
	house := PublicTestKey().Public()
	f.Fuzz(func(t *testing.T, in []byte) {
		toks, err := Read(bytes.NewReader(in))
		lines := bytes.Count(in, []byte("\n")) + 1
		if n := toks.count(); n > lines || n > MaxTokens {
			t.Fatalf("%d tokens from %d lines", n, lines)
		}
		if len(toks.ReceiptLines) != len(toks.Receipts) || len(toks.HeadLines) != len(toks.Heads) {
			t.Fatalf("%d receipts on %d lines, %d heads on %d", len(toks.Receipts), len(toks.ReceiptLines), len(toks.Heads), len(toks.HeadLines))
		}
		if err != nil && (strings.Contains(err.Error(), "\n") || len(err.Error()) > 400) {
			t.Fatalf("an error not on one short line: %q", err)
		}
		for i, r := range toks.Receipts {
			if l := toks.ReceiptLines[i]; l < 1 || l > lines {
				t.Fatalf("receipt %d on line %d of %d", i, l, lines)
			}
			line := r.String()
			if line == "" || len(line) > MaxLine || strings.Contains(line, "\n") {
				t.Fatalf("receipt %d written as %d bytes: %.200q", i, len(line), line)
			}
			back, err := Read(strings.NewReader(line))
			if err != nil || len(back.Receipts) != 1 || len(back.Heads) != 0 {
				t.Fatalf("receipt %d written again reads as %d receipts, %d heads: %v\n%s", i, len(back.Receipts), len(back.Heads), err, line)
			}
			if !sameReceipt(r, back.Receipts[0]) {
				t.Fatalf("receipt %d written again reads otherwise:\n%s\n%s", i, line, back.Receipts[0])
			}
			if err := r.Check(house); err != nil && strings.Contains(err.Error(), "\n") {
				t.Fatalf("receipt %d: an error on more than one line: %q", i, err)
			}
		}
		for i, h := range toks.Heads {
			back, err := Read(strings.NewReader(h.String()))
			if err != nil || len(back.Heads) != 1 || back.Heads[0] != h {
				t.Fatalf("head %d written again reads otherwise: %v", i, err)
			}
			_ = h.Check(house)
		}
	})
}
