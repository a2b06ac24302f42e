package store

import (
	"fmt"
	"strings"
	"testing"

	"tapis/ledger"
)

// insiderWithTheKey rewrites the history of a store sold from holding the
// house's key, every chain and head signed again: the store agrees with
// itself, and verify finds nothing in it alone; a head published before
// (a seller's log, the board) or a receipt a player kept shows it.
func insiderWithTheKey(t *testing.T, f *soldStore, fresh func(t *testing.T) string) {
	key := ledger.PublicTestKey()
	last := f.heads[len(f.heads)-1]
	lastAnn := f.n["ann"]
	t.Run("the key holder rolls a purchase back", func(t *testing.T) {
		url := fresh(t)
		d := openRaw(t, url)
		d.exec(fmt.Sprintf(`UPDATE accounts SET balance = (SELECT before_cents FROM purchases WHERE account = 'ann' AND number = %[1]d),
			purchases = purchases - 1 WHERE name = 'ann'`, lastAnn))
		d.exec(fmt.Sprintf(`UPDATE blocks SET sold = sold - 1 WHERE game = 'vegas' AND number = (SELECT block FROM purchases WHERE account = 'ann' AND number = %d)`, lastAnn))
		d.exec(fmt.Sprintf(`DELETE FROM purchases WHERE account = 'ann' AND number = %d`, lastAnn))
		d.rewrite(&key)
		d.db.Close()
		if r := verifyAt(t, url, ledger.Tokens{}); !r.OK() {
			t.Fatalf("a history rewritten and signed again: %q", r.Problems)
		}
		r := verifyAt(t, url, ledger.Tokens{Heads: []ledger.HeadToken{last}})
		if want := fmt.Sprintf("head %d given is not the store's: its history was rewritten", last.N); !named(r.Problems, []string{want}) || r.FoundHeads != 0 {
			t.Errorf("an older head given: want %q, got %q", want, r.Problems)
		}
		r = verifyAt(t, url, ledger.Tokens{Receipts: []ledger.Receipt{f.receipts[PurchaseID("ann", lastAnn)]}})
		want := fmt.Sprintf(`purchase ann#%d: its receipt shows record %d of account "ann", which the store no longer holds: rolled back`, lastAnn, lastAnn+2)
		if !named(r.Problems, []string{want}) || r.GivenReceipts != 1 || r.FoundReceipts != 0 {
			t.Errorf("the receipt of the purchase rolled back: want %q, got %q", want, r.Problems)
		}
		// The heads before the one rewritten still hold.
		r = verifyAt(t, url, ledger.Tokens{Heads: f.heads[:len(f.heads)-1]})
		if !r.OK() || r.FoundHeads != int64(len(f.heads)-1) {
			t.Errorf("the heads before the rollback: %d found; %q", r.FoundHeads, r.Problems)
		}
	})
	t.Run("the key holder raises a deposit", func(t *testing.T) {
		url := fresh(t)
		d := openRaw(t, url)
		d.exec(`UPDATE deposits SET amount = amount + 100000 WHERE account = 'ann' AND n = 1`)
		d.exec(`UPDATE purchases SET before_cents = before_cents + 100000, after_cents = after_cents + 100000 WHERE account = 'ann'`)
		d.exec(`UPDATE accounts SET balance = balance + 100000, deposited = deposited + 100000 WHERE name = 'ann'`)
		d.rewrite(&key)
		d.db.Close()
		if r := verifyAt(t, url, ledger.Tokens{}); !r.OK() {
			t.Fatalf("a history rewritten and signed again: %q", r.Problems)
		}
		first := f.heads[0]
		r := verifyAt(t, url, ledger.Tokens{Heads: []ledger.HeadToken{first}})
		if want := fmt.Sprintf("head %d given is not the store's: its history was rewritten", first.N); !named(r.Problems, []string{want}) {
			t.Errorf("the first head given: want %q, got %q", want, r.Problems)
		}
		r = verifyAt(t, url, ledger.Tokens{Receipts: []ledger.Receipt{f.receipts["ann#3"]}})
		want := `purchase ann#3: the store's record 4 of account "ann" is not the one its receipt shows: its history was rewritten`
		if !named(r.Problems, []string{want}) {
			t.Errorf("a receipt of the account's: want %q, got %q", want, r.Problems)
		}
	})
	t.Run("tokens that prove nothing", func(t *testing.T) {
		forged := last
		forged.Hash[0] ^= 1
		rc := f.receipts["ann#3"]
		rc.Prize = rc.Prize.Add(rc.Prize).Add(rc.Stake)
		other := ledger.KeyFromSeed([32]byte{1}).Sign(last.Statement())
		r := verifyAt(t, f.url, ledger.Tokens{Heads: []ledger.HeadToken{forged, {N: last.N, Seal: last.Seal, Hash: last.Hash, Sig: other}}, Receipts: []ledger.Receipt{rc}})
		if n := strings.Count(strings.Join(r.Problems, "\n"), fmt.Sprintf("head %d given: its signature is not the house key's, and it proves nothing", last.N)); n != 2 {
			t.Errorf("a head changed and one signed by another key: %d named; %q", n, r.Problems)
		}
		for _, want := range []string{
			"the receipt of purchase ann#3 given does not check, and proves nothing: its hash is not the one its purchase gives",
		} {
			if !named(r.Problems, []string{want}) {
				t.Errorf("want %q, got %q", want, r.Problems)
			}
		}
		if r.GivenHeads != 2 || r.GivenReceipts != 1 || r.FoundHeads != 0 || r.FoundReceipts != 0 {
			t.Errorf("given %d heads, %d receipts; found %d, %d", r.GivenHeads, r.GivenReceipts, r.FoundHeads, r.FoundReceipts)
		}
	})
	t.Run("a head removed by its holder", func(t *testing.T) {
		url := fresh(t)
		d := openRaw(t, url)
		d.exec(`DELETE FROM heads WHERE n = $1`, last.N)
		d.db.Close()
		r := verifyAt(t, url, ledger.Tokens{Heads: []ledger.HeadToken{last}})
		if want := fmt.Sprintf("the store's heads stop at %d: head %d given was removed", last.N-1, last.N); !named(r.Problems, []string{want}) {
			t.Errorf("want %q, got %q", want, r.Problems)
		}
	})
}
