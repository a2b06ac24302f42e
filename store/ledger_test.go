package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/ledger"
)

func TestSQLiteChainsAndSigns(t *testing.T) {
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(31), SeedSet: true, Tables: SmallTables})
	chainsAndSigns(t, s)
}

func TestPostgresChainsAndSigns(t *testing.T) {
	s, _ := openPostgres(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(31), SeedSet: true, Tables: SmallTables})
	chainsAndSigns(t, s)
}

// chainsAndSigns: every purchase returns a receipt that checks offline
// against the house's public key and follows the one before it in its
// account's chain, a deposit between them included; the account's row
// keeps the last hash; a head signed covers the account at its last
// record.
func chainsAndSigns(t *testing.T, s *SQL) {
	ctx := context.Background()
	pub := ledger.PublicTestKey().Public()
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	var receipts []ledger.Receipt
	for n := 1; n <= 70; n++ { // more than a block of 60: one sold out, its seed revealed
		if n == 30 {
			if err := s.Deposit(ctx, "ann", decimal.NewFromInt(50)); err != nil {
				t.Fatal(err)
			}
		}
		r, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Signed == nil {
			t.Fatalf("purchase %d: no receipt", n)
		}
		if err := r.Signed.Check(pub); err != nil {
			t.Fatalf("purchase %d's receipt: %v", n, err)
		}
		if r.Signed.Unit != r.Op.Unit || !r.Signed.Prize.Equal(r.Op.Prize) || !r.Signed.After.Equal(r.Op.After) {
			t.Errorf("purchase %d: receipt %s pays %s, the purchase %s pays %s", n, r.Signed.Unit, r.Signed.Prize, r.Op.Unit, r.Op.Prize)
		}
		receipts = append(receipts, *r.Signed)
	}
	// Deposit 1 is record 1; purchases 1-29 records 2-30; deposit 2 record 31.
	for i, r := range receipts {
		want := int64(i + 2)
		if i >= 29 {
			want++
		}
		if r.Seq != want {
			t.Errorf("purchase %d at place %d, want %d", i+1, r.Seq, want)
		}
		if i > 0 && i != 29 && r.Prev != receipts[i-1].Hash {
			t.Errorf("purchase %d does not follow purchase %d", i+1, i)
		}
	}
	var seq int64
	var head []byte
	if err := s.db.QueryRowContext(ctx, `SELECT seq, head FROM accounts WHERE name = 'ann'`).Scan(&seq, &head); err != nil {
		t.Fatal(err)
	}
	last := receipts[len(receipts)-1]
	if seq != last.Seq || string(head) != string(last.Hash[:]) {
		t.Errorf("the account's row: place %d, head %x; its last record: %d, %s", seq, head, last.Seq, last.Hash)
	}
	var openedSig, closedSig []byte
	if err := s.db.QueryRowContext(ctx, `SELECT opened_sig, closed_sig FROM blocks WHERE game = 'yams' AND stake = '1' AND number = 1`).Scan(&openedSig, &closedSig); err != nil {
		t.Fatal(err)
	}
	if len(openedSig) != 64 || len(closedSig) != 64 {
		t.Errorf("block 1, sold out: opened signature of %d bytes, closed of %d", len(openedSig), len(closedSig))
	}
	if err := s.SignHead(ctx); err != nil {
		t.Fatal(err)
	}
	tok, ok := s.LastHead()
	if !ok || tok.N != 1 || tok.Check(pub) != nil {
		t.Fatalf("the head signed: %+v, %v", tok, ok)
	}
	var body string
	if err := s.db.QueryRowContext(ctx, `SELECT body FROM heads WHERE n = 1`).Scan(&body); err != nil {
		t.Fatal(err)
	}
	b, err := ledger.DecodeBody(body)
	if err != nil || len(b.Accounts) != 1 || b.Accounts[0] != (ledger.AccountHead{Account: "ann", Seq: last.Seq, Hash: last.Hash}) {
		t.Errorf("head 1 covers %+v (%v), want ann at %d", b.Accounts, err, last.Seq)
	}
	if err := s.SignHead(ctx); err != nil { // nothing recorded since: no head
		t.Fatal(err)
	}
	if tok2, _ := s.LastHead(); tok2.N != 1 {
		t.Errorf("a head signed with nothing recorded: head %d", tok2.N)
	}
}

func TestSQLiteStopsSellingOnATamper(t *testing.T) {
	// SQLite keeps whatever an insider writes in a column: a row that no
	// longer reads is a change too, not a database that did not answer.
	stopsSellingOnATamper(t, openSQLite,
		sealCase{"QA flag unreadable", `UPDATE emission SET qa = 'x'`, "the emission's row no longer reads"},
		sealCase{"emission removed", `DELETE FROM emission`, "the emission's row was removed"},
		sealCase{"block unreadable", `UPDATE blocks SET number = 'x' WHERE (game, stake, number) = (SELECT game, stake, number FROM blocks WHERE closed IS NULL LIMIT 1)`, "a block on sale no longer reads"},
		sealCase{"account unreadable", `UPDATE accounts SET seq = 'x' WHERE name = 'ann'`, "an account's row no longer reads: its column \"seq\" holds \"x\""},
		sealCase{"purchase unreadable", `UPDATE purchases SET prize = 'x' WHERE account = 'ann' AND number = 3`, "a purchase's row no longer reads"},
		sealCase{"head unreadable", `UPDATE heads SET hash = 1.5`, "head 1, which this seller signed,"})
}

func TestPostgresStopsSellingOnATamper(t *testing.T) {
	stopsSellingOnATamper(t, openPostgres)
}

// stopsSellingOnATamper: a seller's check finds its store changed under
// it, in each way it watches; it says so once, and every sale after is
// refused with ErrTampered.
// sealCase is a change an insider makes to a store: what the seller's
// check then says.
type sealCase struct{ name, sql, want string }

func stopsSellingOnATamper(t *testing.T, open func(*testing.T, Options) (*SQL, string), more ...sealCase) {
	ctx := context.Background()
	for _, c := range append([]sealCase{
		{"QA flag", `UPDATE emission SET qa = 1`, "the emission's QA flag is 1, sealed as 0 (the house's)"},
		{"open blocks", fmt.Sprintf(`UPDATE emission SET open_blocks = %d`, DefaultOpenBlocks+1),
			fmt.Sprintf("the emission's open blocks is %d, sealed as %d", DefaultOpenBlocks+1, DefaultOpenBlocks)}, // a store made with the default
		{"commitment on sale", `UPDATE blocks SET commitment = 'ab' || substr(commitment, 3) WHERE closed IS NULL AND game = 'yams' AND stake = '1'`, "block yams:1:1: its commitment was changed"},
		{"last purchase deleted", `DELETE FROM purchases WHERE account = 'ann' AND number = 3`, "its purchase 3, which this seller recorded, was removed"},
		{"last prize raised", `UPDATE purchases SET prize = prize + 100, after_cents = after_cents + 100 WHERE account = 'ann' AND number = 3`, "its purchase 3, which this seller recorded, was changed"},
		{"chain rolled back", `UPDATE accounts SET seq = seq - 1 WHERE name = 'ann'`, `account "ann": its history no longer ends with record 4`},
		{"head removed", `DELETE FROM heads`, "head 1, which this seller signed, was removed or changed"},
	}, more...) {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var told []error
			s, url := open(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(32), SeedSet: true, Tables: SmallTables,
				OnTamper: func(err error) { mu.Lock(); told = append(told, err); mu.Unlock() }})
			l, err := s.Hold(ctx, "ann")
			if err != nil {
				t.Fatal(err)
			}
			defer l.Release()
			if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil {
				t.Fatal(err)
			}
			for n := 1; n <= 3; n++ {
				if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1), Lease: l.Token()}); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.SignHead(ctx); err != nil {
				t.Fatal(err)
			}
			if err := s.Check(ctx); err != nil {
				t.Fatalf("a store left alone: %v", err)
			}
			insider := openRaw(t, url) // an insider's connection, not the seller's
			defer insider.db.Close()
			insider.exec(c.sql)
			err = s.Check(ctx)
			var te *TamperedError
			if !errors.As(err, &te) || te.What == "" || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("check after %s: %v, want %q", c.name, err, c.want)
			}
			_, err = s.Sell(ctx, Purchase{Account: "ann", Number: 4, Game: lottery.Yams(), Stake: decimal.NewFromInt(1), Lease: l.Token()})
			if !errors.Is(err, ErrTampered) {
				t.Errorf("a sale after the tamper: %v", err)
			}
			if err := s.Deposit(ctx, "ann", decimal.NewFromInt(1)); !errors.Is(err, ErrTampered) {
				t.Errorf("a deposit after the tamper: %v", err)
			}
			s.Check(ctx)
			if err := s.SignHead(ctx); !errors.Is(err, ErrTampered) {
				t.Errorf("a head signed after the tamper: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(told) != 1 {
				t.Errorf("told %d times: %v", len(told), told)
			}
		})
	}
}

func TestSQLiteChainsOntoNoForgedRecord(t *testing.T) {
	chainsOntoNoForgedRecord(t, func(t *testing.T, o Options) (*SQL, string) { return openSQLite(t, o) })
}

func TestPostgresChainsOntoNoForgedRecord(t *testing.T) {
	chainsOntoNoForgedRecord(t, func(t *testing.T, o Options) (*SQL, string) { return openPostgres(t, o) })
}

func TestSQLiteSellsOnTheBalanceItLeft(t *testing.T) {
	sellsOnTheBalanceItLeft(t, func(t *testing.T, o Options) *SQL { s, _ := openSQLite(t, o); return s })
}

func TestPostgresSellsOnTheBalanceItLeft(t *testing.T) {
	sellsOnTheBalanceItLeft(t, func(t *testing.T, o Options) *SQL { s, _ := openPostgres(t, o); return s })
}

// sellsOnTheBalanceItLeft: a seller chains each purchase onto the one it
// recorded before, from what it knows of the account; an account whose
// balance an insider raised in place, its chain untouched, is not sold
// to: the seller names it and stops.
func sellsOnTheBalanceItLeft(t *testing.T, open func(*testing.T, Options) *SQL) {
	ctx := context.Background()
	s := open(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(34), SeedSet: true, Tables: SmallTables})
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(10)); err != nil {
		t.Fatal(err)
	}
	buy := func(n int) (Receipt, error) {
		return s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)})
	}
	for n := 1; n <= 3; n++ {
		r, err := buy(n)
		if err != nil {
			t.Fatal(err)
		}
		if r.Signed == nil || r.Signed.Seq != int64(n+1) { // the deposit, then each purchase
			t.Fatalf("purchase %d: receipt %+v, want place %d of the chain", n, r.Signed, n+1)
		}
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE accounts SET balance = balance + 100000 WHERE name = 'ann'`); err != nil {
		t.Fatal(err)
	}
	_, err := buy(4)
	if !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), `account "ann": its balance is`) || !strings.Contains(err.Error(), "which this seller wrote, left") {
		t.Fatalf("a sale after the balance was raised in place: %v", err)
	}
}

// chainsOntoNoForgedRecord: a deposit an insider appends to an account's
// history, its hash right and the account's row following it but signed by
// no one, is never chained onto: the account's next purchase, by the
// seller that wrote the history or by a new one, is refused and the seller
// stops; verify names the deposit.
func chainsOntoNoForgedRecord(t *testing.T, open func(*testing.T, Options) (*SQL, string)) {
	ctx := context.Background()
	for _, reopen := range []bool{false, true} {
		o := Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(33), SeedSet: true, Tables: SmallTables}
		s, url := open(t, o)
		if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(10)); err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 2; n++ {
			if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
				t.Fatal(err)
			}
		}
		var seq int64
		var head []byte
		var deposits, purchases int
		if err := s.db.QueryRowContext(ctx, `SELECT seq, head, deposits, purchases FROM accounts WHERE name = 'ann'`).Scan(&seq, &head, &deposits, &purchases); err != nil {
			t.Fatal(err)
		}
		var prev ledger.Hash
		copy(prev[:], head)
		d := ledger.Deposit{Account: "ann", N: deposits + 1, Amount: 100000, After: purchases, At: 1}
		h := ledger.Link(s.emission.SealHash, prev, seq+1, d)
		if _, err := s.db.ExecContext(ctx, s.engine.q(`INSERT INTO deposits (account, n, amount, after_purchase, at, seq, hash, sig) VALUES ('ann', $1, 100000, $2, 1, $3, $4, $5)`),
			deposits+1, purchases, seq+1, h[:], make([]byte, 64)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.ExecContext(ctx, s.engine.q(`UPDATE accounts SET balance = balance + 100000, deposited = deposited + 100000, deposits = $1, seq = $2, head = $3 WHERE name = 'ann'`),
			deposits+1, seq+1, h[:]); err != nil {
			t.Fatal(err)
		}
		if reopen {
			s.Close()
			var err error
			if s, err = Open(ctx, url, o); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
		}
		_, err := s.Sell(ctx, Purchase{Account: "ann", Number: 3, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)})
		if !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), `account "ann": its last record (4) is not one the house signed: added or changed`) {
			t.Fatalf("reopened %v: a sale after a forged deposit: %v", reopen, err)
		}
		s.SignHead(ctx)
		a, err := Open(ctx, url, Options{Existing: true, Audit: true, HouseKey: ledger.PublicTestKey().Public()})
		if err != nil {
			t.Fatal(err)
		}
		r, err := a.Verify(ctx)
		a.Close()
		if err != nil || r.OK() || !strings.Contains(strings.Join(r.Problems, "\n"), "deposit 2 of account \"ann\"") {
			t.Errorf("verify after a forged deposit: %v (%v)", r.Problems, err)
		}
	}
}

// TestSQLiteVerifiesAnEmptyAccountAndAPrevChanged: an account opened with
// nothing verifies clean (its first deposit is 0); a purchase's recorded
// hash of the record before it, zeroed, is named (its receipt would not
// check).
func TestSQLiteVerifiesAnEmptyAccountAndAPrevChanged(t *testing.T) {
	ctx := context.Background()
	s, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(34), SeedSet: true, Tables: SmallTables})
	if _, err := s.OpenAccount(ctx, "nil", decimal.Zero); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(5)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	verify := func() Report {
		a, err := Open(ctx, url, Options{Existing: true, Audit: true, HouseKey: ledger.PublicTestKey().Public()})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		r, err := a.Verify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := verify(); !r.OK() {
		t.Errorf("an account opened with nothing: %v", r.Problems)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE purchases SET prev = zeroblob(32) WHERE account = 'ann'`); err != nil {
		t.Fatal(err)
	}
	if r := verify(); !strings.Contains(strings.Join(r.Problems, "\n"), "purchase ann#1: the hash it records of the record before it is not its history's") {
		t.Errorf("a purchase's prev zeroed: %v", r.Problems)
	}
}

// TestSQLiteNamesAMarkPutBack: a unit left, then shown (its history
// asked), whose mark is put back to left with the signature of its first
// mark, is named: a unit shown is never left.
func TestSQLiteNamesAMarkPutBack(t *testing.T) {
	ctx := context.Background()
	s, url := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(35), SeedSet: true, Tables: SmallTables})
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(5)); err != nil {
		t.Fatal(err)
	}
	l, err := s.Hold(ctx, "ann")
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1), Lease: l.Token()})
	if err != nil {
		t.Fatal(err)
	}
	l.Release() // the session over, its unit never shown: left
	var left []byte
	if err := s.db.QueryRowContext(ctx, `SELECT shown_sig FROM purchases WHERE account = 'ann' AND shown = 2`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if err := s.Shown(ctx, "ann", r.Sold.Ref()); err != nil { // shown since, from the history
		t.Fatal(err)
	}
	if err := s.SignHead(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE purchases SET shown = 2, shown_sig = $1 WHERE account = 'ann'`, left); err != nil {
		t.Fatal(err)
	}
	a, err := Open(ctx, url, Options{Existing: true, Audit: true, HouseKey: ledger.PublicTestKey().Public()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rep, err := a.Verify(ctx)
	if err != nil || !strings.Contains(strings.Join(rep.Problems, "\n"), "is marked left, a head marked it shown: a unit shown is never left") {
		t.Errorf("a mark put back: %v (%v)", rep.Problems, err)
	}
}

// TestSQLiteRefusesABalanceRaised: an account's balance raised under its
// seller is never sold on: the next purchase finds the balance is not the
// one its last record left, and the seller stops.
func TestSQLiteRefusesABalanceRaised(t *testing.T) {
	ctx := context.Background()
	s, _ := openSQLite(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(36), SeedSet: true, Tables: SmallTables})
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(5)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE accounts SET balance = balance + 100000 WHERE name = 'ann'`); err != nil {
		t.Fatal(err)
	}
	_, err := s.Sell(ctx, Purchase{Account: "ann", Number: 2, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)})
	if !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), `account "ann": its balance is`) {
		t.Errorf("a sale on a balance raised: %v", err)
	}
}

func TestSQLiteChecksEveryHeldAccount(t *testing.T) {
	checksEveryHeldAccount(t, openSQLite)
}

func TestPostgresChecksEveryHeldAccount(t *testing.T) {
	checksEveryHeldAccount(t, openPostgres)
}

// holdBuyers holds n accounts named prefix000, prefix001…, opens each
// with balance and sells each one unit of Yam's at 1 €: a seller holding
// accounts that have each bought, which its checks read back. The leases
// are released when the test ends.
func holdBuyers(tb testing.TB, s *SQL, prefix string, n int, balance decimal.Decimal) {
	tb.Helper()
	ctx := context.Background()
	for i := range n {
		name := fmt.Sprintf("%s%03d", prefix, i)
		l, err := s.Hold(ctx, name)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { l.Release() }) //nolint:errcheck // the store may be closed by then
		if _, err := s.OpenAccount(ctx, name, balance); err != nil {
			tb.Fatal(err)
		}
		if _, err := s.Sell(ctx, Purchase{Account: name, Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1), Lease: l.Token()}); err != nil {
			tb.Fatal(err)
		}
	}
}

// checksEveryHeldAccount: a seller holding more accounts than one check's
// query reads finds a change to the last of them, its history and its
// last purchase.
func checksEveryHeldAccount(t *testing.T, open func(*testing.T, Options) (*SQL, string)) {
	ctx := context.Background()
	n := checkChunk + checkChunk/2
	last := fmt.Sprintf("p%03d", n-1)
	for _, c := range []struct{ name, sql, want string }{
		{"history", `UPDATE accounts SET seq = seq - 1 WHERE name = '` + last + `'`, `account "` + last + `": its history no longer ends with record`},
		{"purchase", `UPDATE purchases SET prize = prize + 100 WHERE account = '` + last + `'`, `account "` + last + `": its purchase 1, which this seller recorded, was changed`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, url := open(t, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(33), SeedSet: true, Tables: SmallTables})
			holdBuyers(t, s, "p", n, decimal.NewFromInt(10))
			if err := s.Check(ctx); err != nil {
				t.Fatalf("a store left alone: %v", err)
			}
			insider := openRaw(t, url) // an insider's connection, not the seller's
			defer insider.db.Close()
			insider.exec(c.sql)
			if err := s.Check(ctx); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("check after the change: %v, want %q", err, c.want)
			}
		})
	}
}
