package journal

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/ledger"
	"tapis/store"
)

// FuzzJournal feeds the journal reader and verify anything: they report
// problems, never panic, and a journal they pass has a balance that follows
// from its lines. (Open refuses exactly what the same scan finds wrong.)
func FuzzJournal(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "seed.jsonl")
	good := writeJournal(f, Options{Seed: game.SeedFrom(1), Balance: decimal.NewFromInt(100), Path: path, Key: ledger.PublicTestKey(), Tables: store.SmallTables}, 70)
	f.Add(good)
	f.Add(good[:len(good)/2])
	reveal := `{"kind":"reveal","block":"yams:1:1","block_seed":"00"}` + "\n"
	f.Add([]byte(`{"kind":"start","time":"2026-11-29T20:00:00Z","v":2,"seed":"1","balance":"100"}` + "\n" + reveal)) // an old journal
	f.Add(append(good[:bytes.IndexByte(good, '\n')+1:bytes.IndexByte(good, '\n')+1], reveal...))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Verify(bytes.NewReader(data), store.SmallTables)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() || rep.Empty {
			return
		}
		var found problems
		st, _, err := check(bytes.NewReader(data), store.SmallTables, 10, &found)
		if err != nil {
			t.Fatalf("verify passed a journal that does not read: %v", err)
		}
		if found.n > 0 || st.Balance.IsNegative() {
			t.Fatalf("verify passed a journal the scan refuses: %v", found.first)
		}
	})
}
