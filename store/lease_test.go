package store

import (
	"tapis/game"
	"tapis/ledger"

	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"tapis/game/lottery"
	"tapis/internal/pgtest"
)

// leaseChild is set in a child process of TestLease*: it opens the store
// it names, holds the account "held", says so on its standard output and
// waits to be killed.
const leaseChild = "TAPIS_LEASE_CHILD"

func init() {
	url := os.Getenv(leaseChild)
	if url == "" {
		return
	}
	s, err := Open(context.Background(), url, Options{Key: ledger.PublicTestKey(), Tables: SmallTables})
	if err == nil {
		_, err = s.Hold(context.Background(), "held")
	}
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("holding\n")
	time.Sleep(time.Minute)
	os.Exit(0)
}

func TestLeaseSQLite(t *testing.T) {
	url := filepath.Join(t.TempDir(), "lease.db")
	holdsOneSellerAtATime(t, url)
}

func TestPostgresLease(t *testing.T) {
	holdsOneSellerAtATime(t, pgtest.Fresh(t))
}

// holdsOneSellerAtATime: an account is held by one seller at a time, in
// one store, in two stores of one process, in two processes; released,
// or its holder killed, it is taken at once.
func holdsOneSellerAtATime(t *testing.T, url string) {
	ctx := context.Background()
	a, b := openLeasing(t, url), openLeasing(t, url)
	lease, err := a.Hold(ctx, "alice")
	if err != nil {
		t.Fatalf("the first hold: %v", err)
	}
	host, _ := os.Hostname()
	for name, s := range map[string]*SQL{"the same store": a, "another store of the process": b} {
		_, err := s.Hold(ctx, "alice")
		var inUse *InUseError
		if !errors.As(err, &inUse) || inUse.PID != os.Getpid() || inUse.Host != host {
			t.Errorf("%s holds alice again: %v", name, err)
		}
	}
	want := "account alice is in use by another seller (pid "
	if _, err := b.Hold(ctx, "alice"); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("refusal %q, want it to start %q", err, want)
	}
	other, err := b.Hold(ctx, "bob")
	if err != nil {
		t.Fatalf("another account: %v", err)
	}
	if err := lease.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := b.Hold(ctx, "alice")
	if err != nil {
		t.Fatalf("alice released, held by another store: %v", err)
	}
	again.Release()
	other.Release()

	// Another process holds it; killed, it lets it go at once.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), leaseChild+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "holding\n" {
		t.Fatalf("the child said %q", line)
	}
	_, err = a.Hold(ctx, "held")
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.PID != cmd.Process.Pid {
		t.Fatalf("held by pid %d: %v", cmd.Process.Pid, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	start := time.Now()
	for {
		l, err := a.Hold(ctx, "held")
		if err == nil {
			l.Release()
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("its holder killed, the account is still held: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // PostgreSQL sees the connection end
	}
	t.Logf("taken %v after its holder's SIGKILL", time.Since(start).Round(time.Millisecond))
}

func TestSQLiteLeaseLost(t *testing.T) {
	dir := t.TempDir()
	url := filepath.Join(dir, "lease.db")
	leaseLost(t, url, false, func(a *SQL) {
		// Another seller takes the account as if a's lock were gone.
		if err := a.takeOver(context.Background(), "alice", "another"); err != nil {
			t.Fatal(err)
		}
	})
	// One file under two names holds one lease.
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(url, link); err != nil {
		t.Fatal(err)
	}
	a, err := Open(context.Background(), url, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(context.Background(), link, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.leases.wait = 0
	if _, err := a.Hold(context.Background(), "carl"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Hold(context.Background(), "carl"); !errors.As(err, new(*InUseError)) {
		t.Errorf("the store under another name held carl again: %v", err)
	}
}

func TestPostgresLeaseLost(t *testing.T) {
	leaseLost(t, pgtest.Fresh(t), true, func(a *SQL) {
		// The lock's connection cut: the database drops its locks.
		var n int
		err := a.db.QueryRowContext(context.Background(), `SELECT count(pg_terminate_backend(pid)) FROM pg_locks
			WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND pid <> pg_backend_pid()`).Scan(&n)
		if err != nil || n != 1 {
			t.Fatalf("cutting the lock's connection: %d, %v", n, err)
		}
		for start := time.Now(); n > 0 && time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
			if err := a.db.QueryRowContext(context.Background(), `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&n); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestPostgresLeaseKeptAcrossACutConnection cuts the connection that holds
// the locks, as a database restart does: the store's own renewal (every
// LeaseRenewEvery, whoever sells from it) takes them again, so another
// seller is refused once more.
func TestPostgresLeaseKeptAcrossACutConnection(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Fresh(t)
	a, b := openLeasing(t, url), openLeasing(t, url)
	a.leases.every = 20 * time.Millisecond
	if _, err := a.OpenAccount(ctx, "alice", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	held, err := a.Hold(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	var n int
	if err := b.db.QueryRowContext(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("cutting the lock's connection: %d, %v", n, err)
	}
	for start := time.Now(); n > 0 && time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
		if err := b.db.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	var inUse *InUseError
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		if err := b.db.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatal("the store did not take its lock again")
		}
	}
	if l, err := b.Hold(ctx, "alice"); !errors.As(err, &inUse) {
		if l != nil {
			l.Release()
		}
		t.Fatalf("alice taken by another seller once her lock was renewed: %v", err)
	}
	if _, err := a.Sell(ctx, Purchase{Account: "alice", Number: 1, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3), Lease: held.Token()}); err != nil {
		t.Fatalf("a purchase under the lease taken again: %v", err)
	}
}

// TestPostgresSweepAfterARestart: a store that holds no account, whose
// lock's connection the database dropped (a restart), sweeps again: the
// connection is replaced, not failed on at every sweep.
func TestPostgresSweepAfterARestart(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Fresh(t)
	a, b := openLeasing(t, url), openLeasing(t, url)
	if _, err := a.OpenAccount(ctx, "ghost", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Sell(ctx, Purchase{Account: "ghost", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	if n, err := a.LeaveAbandoned(ctx); err != nil || n != 1 {
		t.Fatalf("the first sweep marked %d units (%v), want 1", n, err)
	}
	if _, err := a.Sell(ctx, Purchase{Account: "ghost", Number: 2, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	// Every connection of a's cut, as a restart cuts them; its pool's
	// idle ones let go (the pool finds them broken on its own), not the
	// lock's, which it holds.
	if _, err := b.db.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	a.db.SetMaxIdleConns(0)
	a.db.SetMaxIdleConns(pgConns)
	if n, err := a.LeaveAbandoned(ctx); err != nil || n != 1 {
		t.Fatalf("the sweep after a restart marked %d units (%v), want 1", n, err)
	}
}

// leaseLost: a Hold given up by its caller drops no other lease; a seller
// whose lease another took since (lose makes it so) has its purchases
// refused, in their transaction, and its release leaves the other's
// units alone. With retaken, a's own renewal may take its lock again
// between lose and another's Hold (PostgreSQL's makes sure of its locks
// every second): then lose is done again.
func leaseLost(t *testing.T, url string, retaken bool, lose func(a *SQL)) {
	ctx := context.Background()
	a, b := openLeasing(t, url), openLeasing(t, url)
	if _, err := a.OpenAccount(ctx, "alice", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	held, err := a.Hold(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := a.Hold(gone, "bob"); err == nil {
		t.Error("a hold given up by its caller took bob")
	}
	for i := range 20 { // holds cut short at every moment of their calls
		short, cancel := context.WithTimeout(ctx, time.Duration(i*100)*time.Microsecond)
		if l, err := a.Hold(short, fmt.Sprintf("cut%d", i)); err == nil {
			l.Release()
		}
		cancel()
	}
	if _, err := b.Hold(ctx, "alice"); !errors.As(err, new(*InUseError)) {
		t.Fatalf("after a hold given up, alice is taken by another store: %v", err)
	}
	buy := func(s *SQL, n int, l *Lease) error {
		_, err := s.Sell(ctx, Purchase{Account: "alice", Number: n, Game: lottery.Yams(), Stake: decimal.NewFromInt(1), Lease: l.Token()})
		return err
	}
	if err := buy(a, 1, held); err != nil {
		t.Fatal(err)
	}
	lose(a)
	other, err := b.Hold(ctx, "alice")
	for try := 0; retaken && errors.As(err, new(*InUseError)) && try < 20; try++ {
		lose(a)
		other, err = b.Hold(ctx, "alice")
	}
	if err != nil && !errors.As(err, new(*InUseError)) {
		t.Fatal(err)
	}
	if other == nil { // SQLite: the lock is a's still, the line another's
		other = &Lease{token: "another", release: func() error { return nil }}
	}
	if err := buy(a, 2, held); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("a purchase under a lease lost: %v", err)
	}
	if err := buy(b, 2, other); err != nil {
		t.Fatalf("the new holder's purchase: %v", err)
	}
	if err := held.Release(); err != nil {
		t.Fatal(err)
	}
	acc, err := b.Account(ctx, "alice", 0)
	if err != nil || acc.Purchases != 2 || len(acc.Pending) != 2 {
		t.Fatalf("after the lost lease's release: %d purchases, %d pending (%v)", acc.Purchases, len(acc.Pending), err)
	}
	var shown int
	if err := b.db.QueryRowContext(ctx, b.engine.q(`SELECT shown FROM purchases WHERE account = $1 AND number = 2`), "alice").Scan(&shown); err != nil || shown != shownRevealing {
		t.Errorf("the new holder's unit, still revealed, marked %d by the old one's release (%v)", shown, err)
	}
}

func TestSQLiteLeaveAbandoned(t *testing.T) {
	leaveAbandoned(t, "sqlite:"+filepath.Join(t.TempDir(), "tapis.db"))
}

func TestPostgresLeaveAbandoned(t *testing.T) {
	leaveAbandoned(t, pgtest.Fresh(t))
}

// leaveAbandoned: the units being revealed of an account no seller holds
// (its seller killed) are marked left by the sweep; those of an account
// held, by this store or another, are not, nor those of a seller whose
// lock is lost while its line in sellers is renewed.
func leaveAbandoned(t *testing.T, url string) {
	ctx := context.Background()
	a, b := openLeasing(t, url), openLeasing(t, url)
	for _, name := range []string{"ghost", "mine", "theirs"} {
		if _, err := a.OpenAccount(ctx, name, decimal.NewFromInt(100)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Hold(ctx, "mine"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Hold(ctx, "theirs"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ghost", "mine", "theirs"} {
		if _, err := a.Sell(ctx, Purchase{Account: name, Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
			t.Fatal(err)
		}
	}
	// "lost": held by b, whose lock is lost (a database restart) but whose
	// line in sellers is fresh: its seller lives, its unit is its own.
	if _, err := a.OpenAccount(ctx, "lost", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Hold(ctx, "lost"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Sell(ctx, Purchase{Account: "lost", Number: 1, Game: lottery.Yams(), Stake: decimal.NewFromInt(1)}); err != nil {
		t.Fatal(err)
	}
	if err := b.leases.give(b.leases.lock, leaseKey("lost")); err != nil {
		t.Fatal(err)
	}
	n, err := a.LeaveAbandoned(ctx)
	if err != nil || n != 1 {
		t.Fatalf("the sweep marked %d units (%v), want ghost's alone", n, err)
	}
	// Its line unrenewed past LeaseStale: its seller is taken for gone.
	if _, err := a.db.ExecContext(ctx, a.engine.q(`UPDATE sellers SET seen = seen - $1 WHERE account = $2`), (2 * LeaseStale).Nanoseconds(), "lost"); err != nil {
		t.Fatal(err)
	}
	if n, err := a.LeaveAbandoned(ctx); err != nil || n != 1 {
		t.Fatalf("a seller's line stale: the sweep marked %d units (%v), want 1", n, err)
	}
	for name, want := range map[string]int{"ghost": shownLeft, "mine": shownRevealing, "theirs": shownRevealing, "lost": shownLeft} {
		var shown int
		if err := a.db.QueryRowContext(ctx, a.engine.q(`SELECT shown FROM purchases WHERE account = $1`), name).Scan(&shown); err != nil || shown != want {
			t.Errorf("%s's unit: shown %d (%v), want %d", name, shown, err, want)
		}
	}
}

// TestHoldWaitsForARelease: an account another seller is letting go
// (a session ending on another server) is taken once it does, within
// holdWait, not refused.
func TestHoldWaitsForARelease(t *testing.T) {
	url := filepath.Join(t.TempDir(), "lease.db")
	ctx := context.Background()
	a, err := Open(ctx, url, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, url, Options{Key: ledger.PublicTestKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	held, err := a.Hold(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(300*time.Millisecond, func() { held.Release() })
	start := time.Now()
	if _, err := b.Hold(ctx, "alice"); err != nil {
		t.Fatalf("alice let go 300 ms later: %v", err)
	}
	if d := time.Since(start); d < 250*time.Millisecond || d > holdWait {
		t.Errorf("taken after %v", d)
	}
}

// openLeasing opens a store of small blocks at url, closed when the test
// ends, whose holds are refused at once (no holdWait).
func openLeasing(t *testing.T, url string) *SQL {
	t.Helper()
	return openLeasingWith(t, url, Options{Key: ledger.PublicTestKey(), Seed: game.SeedFrom(5), SeedSet: true, Tables: SmallTables})
}

// openLeasingWith is openLeasing with the store's options.
func openLeasingWith(t *testing.T, url string, o Options) *SQL {
	t.Helper()
	s, err := Open(context.Background(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.leases.wait = 0
	return s
}

// TestSweepWaitsAfterAnOutage: once the database failed to answer (a
// restart), the sweep leaves every account alone for a while, live
// sellers renewing their lines first; then it marks an abandoned unit.
func TestSweepWaitsAfterAnOutage(t *testing.T) {
	ctx := context.Background()
	s := openLeasing(t, "sqlite:"+filepath.Join(t.TempDir(), "s.db"))
	if _, err := s.OpenAccount(ctx, "ann", decimal.NewFromInt(100)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sell(ctx, Purchase{Account: "ann", Number: 1, Game: lottery.Vegas(), Stake: decimal.NewFromInt(3)}); err != nil {
		t.Fatal(err)
	}
	s.leases.unanswered()
	if n, err := s.LeaveAbandoned(ctx); err != nil || n != 0 {
		t.Fatalf("the sweep just after an outage marked %d, %v", n, err)
	}
	s.leases.mu.Lock()
	s.leases.failed = time.Now().Add(-sweepCalm - time.Second)
	s.leases.mu.Unlock()
	if n, err := s.LeaveAbandoned(ctx); err != nil || n != 1 {
		t.Fatalf("the sweep once calm marked %d, %v; want the abandoned unit", n, err)
	}
}
