package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game"
	"tapis/game/lottery"
	"tapis/internal/pgtest"
	"tapis/ledger"
)

// TestPostgresArrivalIsPipelined: on PostgreSQL an arrival takes the
// pipelined path; on SQLite, the general one.
func TestPostgresArrivalIsPipelined(t *testing.T) {
	ctx := context.Background()
	pg := openLeasing(t, pgtest.Fresh(t))
	if _, created, done, err := pg.engine.arrive(ctx, pg, arrival{account: "ann", token: "t", balance: decimal.NewFromInt(100), recent: 1}); err != nil || !done || !created {
		t.Errorf("PostgreSQL: done %v, created %v, %v", done, created, err)
	}
	q := openLeasing(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
	if _, _, done, err := q.engine.arrive(ctx, q, arrival{account: "ann", token: "t", balance: decimal.NewFromInt(100)}); err != nil || done {
		t.Errorf("SQLite: done %v, %v", done, err)
	}
}

// TestArrivalCommitsUnsyncedUnlessItOpens: an arrival's second batch
// waits for no disk when the account was found, and signs no deposit;
// an account missing is created (its commit flushed, money), and a
// balance of no whole cents refuses it.
func TestArrivalCommitsUnsyncedUnlessItOpens(t *testing.T) {
	s := openLeasing(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
	a := arrival{account: "ann", token: "t", balance: decimal.NewFromInt(100), recent: 10}
	statements := func(r arrivalRows) []string {
		b, err := s.arrivalDone(a, &r)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, q := range b.QueuedQueries {
			out = append(out, q.SQL)
		}
		return out
	}
	if got := statements(arrivalRows{found: true}); len(got) != 1 || got[0] != commitUnsynced {
		t.Errorf("an account found: %q, want %q alone", got, commitUnsynced)
	}
	got := statements(arrivalRows{})
	if len(got) == 0 || got[0] != accountOpened {
		t.Errorf("an account missing: %q, want it opened first", got)
	}
	for _, q := range got {
		if q == commitUnsynced {
			t.Errorf("an account opened commits unsynced: %q", got)
		}
	}
	a.balance = decimal.RequireFromString("0.001")
	if _, err := s.arrivalDone(a, &arrivalRows{}); err == nil {
		t.Error("a tenth of a cent opened an account")
	}
	if _, err := s.arrivalDone(a, &arrivalRows{found: true}); err != nil {
		t.Errorf("an account found is not refused for the balance a new one would get: %v", err)
	}
}

// TestPostgresArrivalWritesWhatTheGeneralPathWrites: at the same clock,
// an arrival that creates an account writes the same rows, hash and
// signature included, as Hold then OpenAccount.
func TestPostgresArrivalWritesWhatTheGeneralPathWrites(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	o := Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(5), SeedSet: true, Tables: SmallTables, Now: func() time.Time { return at }}
	dump := func(s *SQL) string {
		var out string
		for _, q := range []string{
			`SELECT name, balance, deposited, purchases, deposits, created, guest, seq, encode(head, 'hex') FROM accounts`,
			`SELECT account, n, amount, after_purchase, at, seq, encode(hash, 'hex'), encode(sig, 'hex') FROM deposits`,
			// seen >= since, not =: the store's renewal of its leases (on
			// the wall clock's 10 s) may come between the hold and this.
			`SELECT account, pid, host, token <> '', since > 0, seen >= since FROM sellers`} {
			rows, err := s.db.QueryContext(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			cols, _ := rows.Columns()
			for rows.Next() {
				vals, ptrs := make([]any, len(cols)), make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				out += fmt.Sprintln(vals...)
			}
			rows.Close()
		}
		return out
	}
	pipelined, general := openLeasingWith(t, pgtest.Fresh(t), o), openLeasingWith(t, pgtest.Fresh(t), o)
	l, _, created, err := pipelined.HoldAccount(ctx, "ann", decimal.NewFromInt(100), 10)
	if err != nil || !created {
		t.Fatalf("created %v, %v", created, err)
	}
	defer l.Release()
	if l, err = general.Hold(ctx, "ann"); err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if created, err := general.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil || !created {
		t.Fatalf("created %v, %v", created, err)
	}
	if p, g := dump(pipelined), dump(general); p != g {
		t.Errorf("pipelined:\n%s\ngeneral:\n%s", p, g)
	}
}

// TestPostgresArrivalWaitsForAPurchase: an arrival waits for a purchase
// of the account under way (its row locked), then leaves the unit that
// purchase left being revealed.
func TestPostgresArrivalWaitsForAPurchase(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Fresh(t)
	a, b := openLeasing(t, url), openLeasing(t, url)
	lease, _, _, err := a.HoldAccount(ctx, "ann", decimal.NewFromInt(100), 10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(2), Lease: lease.Token()}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.ExecContext(ctx, `UPDATE purchases SET shown = 1`); err != nil {
		t.Fatal(err)
	}
	if err := a.leases.give(a.leases.lock, leaseKey("ann")); err != nil {
		t.Fatal(err)
	}
	// The old seller's purchase under way: the row locked, its unit being
	// revealed once it commits.
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT name FROM accounts WHERE name = 'ann' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE purchases SET shown = 0`); err != nil {
		t.Fatal(err)
	}
	arrived := make(chan error, 1)
	go func() {
		l, _, _, err := b.HoldAccount(ctx, "ann", decimal.NewFromInt(100), 10)
		if err == nil {
			defer l.Release()
		}
		arrived <- err
	}()
	select {
	case err := <-arrived:
		t.Fatalf("the arrival did not wait for the purchase under way: %v", err)
	case <-time.After(300 * time.Millisecond): // it waits: the purchase commits
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-arrived; err != nil {
		t.Fatal(err)
	}
	var shown int
	if err := b.db.QueryRowContext(ctx, `SELECT shown FROM purchases WHERE account = 'ann'`).Scan(&shown); err != nil || shown != shownLeft {
		t.Errorf("the purchase's unit: shown %d (%v), want left (%d)", shown, err, shownLeft)
	}
}

// TestPostgresArrivalCancelled: an arrival cancelled while it waits for
// the account's row writes nothing, leaves no transaction open, and the
// account is held again at once.
func TestPostgresArrivalCancelled(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Fresh(t)
	a, b := openLeasing(t, url), openLeasing(t, url)
	l, _, _, err := a.HoldAccount(ctx, "ann", decimal.NewFromInt(100), 10)
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `SELECT name FROM accounts WHERE name = 'ann' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, _, _, err = b.HoldAccount(cctx, "ann", decimal.NewFromInt(100), 10)
	cancel()
	if err == nil {
		t.Fatal("an arrival cancelled while it waits: no error")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var sellers int
	if err := a.db.QueryRowContext(ctx, `SELECT count(*) FROM sellers`).Scan(&sellers); err != nil || sellers != 0 {
		t.Errorf("lines in sellers: %d (%v), want none", sellers, err)
	}
	if l, _, _, err = b.HoldAccount(ctx, "ann", decimal.NewFromInt(100), 10); err != nil {
		t.Fatalf("held again: %v", err)
	}
	l.Release()
}
